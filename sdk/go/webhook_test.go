package ferrywebhooks_test

import (
	"encoding/base64"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

// TestWebhookVectors runs every shared vector through the Webhook type
// and expects what the vector says, and what Verify returns.
func TestWebhookVectors(t *testing.T) {
	t.Parallel()
	for _, v := range loadVectors(t).Vectors {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			body, err := base64.StdEncoding.DecodeString(v.BodyBase64)
			if err != nil {
				t.Fatal(err)
			}
			h := http.Header{}
			for k, val := range v.Headers {
				h.Set(k, val)
			}
			vf := ferrywebhooks.Verifier{Now: func() time.Time { return time.Unix(v.Now, 0) }}
			wh, err := vf.NewWebhook(v.Secret)
			if v.Expect == "invalid_secret" {
				if !errors.Is(err, ferrywebhooks.ErrInvalidSecret) || wh != nil {
					t.Fatalf("NewWebhook = %v, %v; want ErrInvalidSecret", wh, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("NewWebhook: %v", err)
			}
			env, err := wh.Verify(body, h)
			m, serr := wh.VerifySignature(body, h)
			wantEnv, wantErr := vf.Verify(v.Secret, h, body)
			if !reflect.DeepEqual(env, wantEnv) {
				t.Fatalf("Webhook.Verify = %+v, Verify = %+v", env, wantEnv)
			}
			switch {
			case v.Expect == "valid" && v.Format == "raw":
				if serr != nil || m.ID != v.Headers["webhook-id"] {
					t.Fatalf("VerifySignature = %+v, %v", m, serr)
				}
				if !errors.Is(err, ferrywebhooks.ErrInvalidEnvelope) {
					t.Fatalf("Verify of a raw body = %v, want ErrInvalidEnvelope", err)
				}
			case v.Expect == "valid":
				if err != nil || serr != nil {
					t.Fatalf("Verify: %v; VerifySignature: %v", err, serr)
				}
				if env.ID != v.Envelope.ID || env.Type != v.Envelope.Type || m.ID != env.ID {
					t.Fatalf("envelope %+v, message %+v, want %+v", env, m, v.Envelope)
				}
			default:
				want := codes[v.Expect]
				if !errors.Is(err, want) || !errors.Is(wantErr, want) {
					t.Fatalf("Webhook.Verify error = %v, Verify error = %v, want %v", err, wantErr, want)
				}
			}
		})
	}
}

// TestWebhookWindow checks a Webhook applies its Verifier's tolerance.
func TestWebhookWindow(t *testing.T) {
	t.Parallel()
	v := loadVectors(t).Vectors[0]
	body, _ := base64.StdEncoding.DecodeString(v.BodyBase64)
	h := http.Header{}
	for k, val := range v.Headers {
		h.Set(k, val)
	}
	at := func(sec int64) func() time.Time { return func() time.Time { return time.Unix(sec, 0) } }
	wh, err := ferrywebhooks.Verifier{Tolerance: time.Second, Now: at(v.Now)}.NewWebhook(v.Secret)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wh.Verify(body, h); !errors.Is(err, ferrywebhooks.ErrTimestampOutOfWindow) {
		t.Fatalf("1 s tolerance: %v", err)
	}
	wh, _ = ferrywebhooks.Verifier{Now: at(v.Now)}.NewWebhook(v.Secret)
	if _, err := wh.Verify(body, h); err != nil {
		t.Fatalf("default tolerance: %v", err)
	}
}
