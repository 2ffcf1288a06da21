// Command nethttp is the net/http example of the README.
package main

import (
	"context"
	"log"
	"net/http"
	"os"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

func main() {
	dedupe, _ := ferrywebhooks.NewDeduper(ferrywebhooks.NewMemoryStore(nil), ferrywebhooks.DedupeConfig{})
	h, err := ferrywebhooks.NewHandler(ferrywebhooks.HandlerConfig{
		Secret:  os.Getenv("FERRY_WEBHOOK_SECRET"), // whsec_…
		Deduper: dedupe,
		Handle: func(ctx context.Context, e ferrywebhooks.Envelope) error {
			log.Printf("%s %s at %s: %s", e.ID, e.Type, e.CreatedAt, e.Data)
			return nil // an error answers 500 and Ferry retries
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	http.Handle("POST /webhooks", h)
	log.Fatal(http.ListenAndServe(":8080", nil))
}
