package webhook

import (
	"net/http"
	"time"
)

// Headers returns the headers Ferry sends with body: the tenant's custom
// headers first, then Ferry's own, which custom headers can never
// override. keys are the endpoint's current signing keys (two during a
// rotation's grace period).
func Headers(custom map[string]string, userAgent string, keys [][]byte, id string, createdAt time.Time, body []byte) http.Header {
	headers := make(http.Header, len(custom)+7)
	for k, v := range custom {
		headers.Set(k, v)
	}
	ts := createdAt.Unix()
	headers.Set("Content-Type", "application/json")
	headers.Set("User-Agent", userAgent)
	headers["webhook-id"] = []string{id}
	headers["webhook-timestamp"] = []string{WebhookTimestamp(createdAt)}
	headers["webhook-signature"] = []string{SignatureHeader(keys, id, ts, body)}
	headers.Set("X-Webhook-ID", id)
	return headers
}
