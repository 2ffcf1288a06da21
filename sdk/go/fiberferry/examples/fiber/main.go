// Command fiber is the Fiber example of the README.
package main

import (
	"context"
	"log"
	"os"

	"github.com/gofiber/fiber/v2"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
	"github.com/ferry-dev/ferry/sdk/go/fiberferry"
)

func main() {
	h, err := fiberferry.New(ferrywebhooks.HandlerConfig{
		Secret: os.Getenv("FERRY_WEBHOOK_SECRET"), // whsec_…
		Handle: func(ctx context.Context, e ferrywebhooks.Envelope) error {
			log.Printf("%s %s: %s", e.ID, e.Type, e.Data)
			return nil // an error answers 500 and Ferry retries
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	app := fiber.New()
	app.Post("/webhooks", h)
	log.Fatal(app.Listen(":8080"))
}
