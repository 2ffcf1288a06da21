package webhook

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// TestEnvelopeFormat checks the exact envelope bytes and timestamp.
func TestEnvelopeFormat(t *testing.T) {
	t.Parallel()
	id := uuid.MustParse("0b9b1c4e-8f5e-4c5e-9a0e-3f3d2b1a0c9d")
	created := time.Date(2026, 11, 22, 5, 23, 8, 123456789, time.FixedZone("CET", 3600))
	got := string(Envelope(id, "invoice.paid", created, []byte(`{"amount":4200,"note":"é\u2028"}`)))
	want := `{"id":"0b9b1c4e-8f5e-4c5e-9a0e-3f3d2b1a0c9d","type":"invoice.paid","created_at":"2026-11-22T04:23:08.123Z","data":{"amount":4200,"note":"é\u2028"}}`
	if got != want {
		t.Fatalf("envelope\n got %s\nwant %s", got, want)
	}
	if ts := WebhookTimestamp(created); ts != "1795321388" {
		t.Fatalf("webhook-timestamp %s", ts)
	}
	if again := string(Envelope(id, "invoice.paid", created, []byte(`{"amount":4200,"note":"é\u2028"}`))); again != got {
		t.Fatal("envelope not deterministic")
	}
}

// TestSignatureVerifiesWithStandardWebhooks signs with two secrets (a
// rotation's grace period) and checks the independent Standard Webhooks
// library accepts the header with either secret, and rejects a tampered
// body.
func TestSignatureVerifiesWithStandardWebhooks(t *testing.T) {
	t.Parallel()
	oldSecret, newSecret := NewSigningSecret(), NewSigningSecret()
	oldKey, _ := SecretKey(oldSecret)
	newKey, _ := SecretKey(newSecret)
	id := uuid.NewString()
	created := time.Now().Add(-3 * time.Minute).Truncate(time.Millisecond)
	body := Envelope(uuid.MustParse(id), "user.created", created, []byte(`{"id":42}`))
	header := SignatureHeader([][]byte{newKey, oldKey}, id, created.Unix(), body)
	if sigs := strings.Fields(header); len(sigs) != 2 || !strings.HasPrefix(sigs[0], "v1,") {
		t.Fatalf("signature header %q, want two v1 signatures", header)
	}
	h := http.Header{}
	h.Set("webhook-id", id)
	h.Set("webhook-timestamp", WebhookTimestamp(created))
	h.Set("webhook-signature", header)
	for name, secret := range map[string]string{"new": newSecret, "old": oldSecret} {
		wh, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			t.Fatal(err)
		}
		if err := wh.Verify(body, h); err != nil {
			t.Errorf("%s secret: %v", name, err)
		}
		if err := wh.Verify(append([]byte(nil), append(body[:len(body)-1:len(body)-1], ' ', '}')...), h); err == nil {
			t.Errorf("%s secret: tampered body verified", name)
		}
		if !Verify(map[string][]byte{"new": newKey, "old": oldKey}[name], id, created.Unix(), body, header) {
			t.Errorf("%s secret: own Verify failed", name)
		}
	}
	other, _ := standardwebhooks.NewWebhook("whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 32)))
	if err := other.Verify(body, h); err == nil {
		t.Error("a foreign secret verified")
	}
}
