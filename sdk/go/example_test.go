package ferrywebhooks_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

// A net/http endpoint that verifies, drops duplicates and handles events.
func ExampleNewHandler() {
	dedupe, err := ferrywebhooks.NewDeduper(ferrywebhooks.NewMemoryStore(nil), ferrywebhooks.DedupeConfig{})
	if err != nil {
		log.Fatal(err)
	}
	h, err := ferrywebhooks.NewHandler(ferrywebhooks.HandlerConfig{
		Secret:  "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
		Deduper: dedupe,
		Handle: func(ctx context.Context, e ferrywebhooks.Envelope) error {
			switch e.Type {
			case "invoice.paid":
				var inv struct{ Amount int }
				return e.DecodeData(&inv) // an error answers 500: Ferry retries
			default:
				return nil // a type we never process: answer 200 so Ferry stops
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	http.Handle("POST /webhooks", h)
}

// Verifying by hand, with the raw body read before any JSON decoding.
func ExampleVerify() {
	http.HandleFunc("POST /hook", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body", http.StatusBadRequest)
			return
		}
		e, err := ferrywebhooks.Verify(os.Getenv("FERRY_WEBHOOK_SECRET"), r.Header, body)
		switch {
		case errors.Is(err, ferrywebhooks.ErrInvalidSecret):
			http.Error(w, "misconfigured", http.StatusInternalServerError)
			return
		case err != nil:
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		fmt.Println(e.ID, e.Type, e.CreatedAt)
	})
}
