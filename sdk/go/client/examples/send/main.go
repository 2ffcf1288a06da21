// Send an event with the Go sender SDK.
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/ferry-dev/ferry/sdk/go/client"
)

func main() {
	ferry, err := client.New(client.Config{BaseURL: os.Getenv("FERRY_URL"), APIKey: os.Getenv("FERRY_API_KEY")})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	ev, err := ferry.Events.Create(ctx, client.EventInput{Type: "invoice.paid", Data: map[string]any{"amount": 4200}})
	if err != nil {
		log.Fatal(err) // a *client.Error carries Code, Field and RequestID
	}
	for e, err := range ferry.Events.All(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(e.Id, e.Type, e.Id == ev.Id)
	}
}
