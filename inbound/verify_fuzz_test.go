package inbound

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// FuzzIngestParsing feeds untrusted request parts to every scheme and to
// the body handling: nothing panics, a request signed by the scheme's own
// rule verifies and the same request with another body does not, and a
// capture's event data is always valid JSON that gives the body back.
func FuzzIngestParsing(f *testing.F) {
	f.Add([]byte(githubDocBody), "sha256=757107ea", "t=1,v1=00", "1531420618")
	f.Add([]byte{0xff, 0x00, '{'}, "", "t=,v1=,v1=zz", "x")
	f.Add([]byte(`{"type":"a","n":[1,2]}`), "sha256=", "v1=", "-1")
	f.Fuzz(func(t *testing.T, body []byte, sig, stripe, ts string) {
		now := time.Unix(1700000000, 0)
		h := http.Header{}
		h.Set("X-Hub-Signature-256", sig)
		h.Set("Stripe-Signature", stripe)
		h.Set("X-Shopify-Hmac-Sha256", sig)
		h.Set("X-Slack-Signature", sig)
		h.Set("X-Slack-Request-Timestamp", ts)
		h.Set("Webhook-Id", ts)
		h.Set("Webhook-Timestamp", ts)
		h.Set("Webhook-Signature", sig)
		h.Set("Authorization", sig)
		for _, s := range Schemes() {
			v := Verification{Type: s, Header: "X-Hub-Signature-256", Encoding: EncodingHex, Prefix: "sha256=", Username: "u"}
			_ = verifyRequest(v, []byte(swDocSecret), h, body, now)
		}

		// Signed as Slack does, it verifies; another body does not.
		good := http.Header{}
		good.Set("X-Slack-Request-Timestamp", strconv.FormatInt(now.Unix(), 10))
		good.Set("X-Slack-Signature", slackSig("secret", now.Unix(), string(body)))
		if r := verifyRequest(Verification{Type: SchemeSlack}, []byte("secret"), good, body, now); r != "" {
			t.Fatalf("a correctly signed body is rejected: %s", r)
		}
		if r := verifyRequest(Verification{Type: SchemeSlack}, []byte("secret"), good, append(body, 'x'), now); r == "" {
			t.Fatal("a changed body verifies")
		}

		doc, compact, isJSON := decodeJSON(body)
		data := eventData(compact, isJSON, body)
		if !json.Valid(data) {
			t.Fatalf("event data is not JSON: %q", data)
		}
		if !isJSON {
			var raw struct {
				RawBase64 string `json:"raw_base64"`
			}
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatal(err)
			}
			if got, err := base64.StdEncoding.DecodeString(raw.RawBase64); err != nil || !bytes.Equal(got, body) {
				t.Fatalf("raw_base64 does not give the body back: %q", got)
			}
		}
		_, _ = lookupPath(doc, ts)
		_ = requestInfo("POST", "/in/{token}", sig, h)
	})
}
