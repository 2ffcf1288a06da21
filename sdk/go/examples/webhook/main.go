// Command webhook is the README's example of the Webhook type, for code
// moving from the Standard Webhooks or Svix libraries.
package main

import (
	"io"
	"log"
	"net/http"
	"os"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

func main() {
	wh, err := ferrywebhooks.NewWebhook(os.Getenv("FERRY_WEBHOOK_SECRET"))
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("POST /webhooks", func(w http.ResponseWriter, r *http.Request) {
		payload, _ := io.ReadAll(r.Body) // the raw bytes: verify before decoding JSON
		e, err := wh.Verify(payload, r.Header)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		log.Printf("%s %s: %s", e.ID, e.Type, e.Data)
	})
	log.Fatal(http.ListenAndServe(":8080", nil))
}
