package delivery

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/webhook"

	"github.com/google/uuid"
)

// verifyFerry is the Go verification example of docs/delivery.md,
// verbatim; TestDocsGoVerifier checks the guide still shows exactly this
// code.
func verifyFerry(secret string, h http.Header, body []byte) bool {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(h.Get("webhook-id") + "." + h.Get("webhook-timestamp") + "."))
	mac.Write(body)
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}

// TestDocsGoVerifier checks the guide's Go example verifies Ferry's
// signatures (both during a rotation), rejects a tampered body, and is
// the code shown in docs/delivery.md.
func TestDocsGoVerifier(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../docs/delivery.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("docs_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(src), "func verifyFerry(")
	end := strings.Index(string(src)[start:], "\n}\n") + start + 3
	if !strings.Contains(string(readme), string(src)[start:end]) {
		t.Error("docs/delivery.md's Go verification example differs from verifyFerry in this test")
	}
	s1, s2 := webhook.NewSigningSecret(), webhook.NewSigningSecret()
	k1, _ := webhook.SecretKey(s1)
	k2, _ := webhook.SecretKey(s2)
	id := uuid.New()
	created := time.Now()
	body := webhook.Envelope(id, "a.b", created, []byte(`{"x":"é"}`))
	h := http.Header{}
	h.Set("webhook-id", id.String())
	h.Set("webhook-timestamp", webhook.WebhookTimestamp(created))
	h.Set("webhook-signature", webhook.SignatureHeader([][]byte{k1, k2}, id.String(), created.Unix(), body))
	if !verifyFerry(s1, h, body) || !verifyFerry(s2, h, body) {
		t.Error("the guide's verifier rejects a valid signature")
	}
	if verifyFerry(s1, h, append(body, ' ')) || verifyFerry(webhook.NewSigningSecret(), h, body) {
		t.Error("the guide's verifier accepts a tampered body or a foreign secret")
	}
}
