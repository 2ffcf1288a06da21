package ferrywebhooks_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"testing"
	"time"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

type vectorFile struct {
	ToleranceSeconds       int64    `json:"tolerance_seconds"`
	FutureToleranceSeconds int64    `json:"future_tolerance_seconds"`
	Vectors                []vector `json:"vectors"`
}

type vector struct {
	Name       string            `json:"name"`
	Secret     string            `json:"secret"`
	Now        int64             `json:"now"`
	Headers    map[string]string `json:"headers"`
	BodyBase64 string            `json:"body_base64"`
	Format     string            `json:"format"`
	Expect     string            `json:"expect"`
	Envelope   *struct {
		ID        string          `json:"id"`
		Type      string          `json:"type"`
		CreatedAt string          `json:"created_at"`
		Data      json.RawMessage `json:"data"`
	} `json:"envelope"`
}

var codes = map[string]error{
	"missing_header":          ferrywebhooks.ErrMissingHeader,
	"invalid_signature":       ferrywebhooks.ErrInvalidSignature,
	"invalid_secret":          ferrywebhooks.ErrInvalidSecret,
	"timestamp_out_of_window": ferrywebhooks.ErrTimestampOutOfWindow,
	"invalid_envelope":        ferrywebhooks.ErrInvalidEnvelope,
}

func loadVectors(t *testing.T) vectorFile {
	t.Helper()
	b, err := os.ReadFile("../testvectors.json")
	if err != nil {
		t.Fatalf("read sdk/testvectors.json: %v", err)
	}
	var f vectorFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	return f
}

// TestVectors verifies every shared test vector.
func TestVectors(t *testing.T) {
	t.Parallel()
	f := loadVectors(t)
	if got := int64(ferrywebhooks.DefaultTolerance / time.Second); got != f.ToleranceSeconds {
		t.Fatalf("DefaultTolerance %ds, vectors use %ds", got, f.ToleranceSeconds)
	}
	if got := int64(ferrywebhooks.DefaultFutureTolerance / time.Second); got != f.FutureToleranceSeconds {
		t.Fatalf("DefaultFutureTolerance %ds, vectors use %ds", got, f.FutureToleranceSeconds)
	}
	for _, v := range f.Vectors {
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
			env, err := vf.Verify(v.Secret, h, body)
			m, serr := vf.VerifySignature(v.Secret, h, body)
			switch {
			case v.Expect == "valid" && v.Format == "raw":
				if serr != nil {
					t.Fatalf("VerifySignature: %v", serr)
				}
				if m.ID != v.Headers["webhook-id"] {
					t.Fatalf("message id %q", m.ID)
				}
				if !errors.Is(err, ferrywebhooks.ErrInvalidEnvelope) {
					t.Fatalf("Verify of a raw body = %v, want ErrInvalidEnvelope", err)
				}
			case v.Expect == "valid":
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				want := v.Envelope
				if env.ID != want.ID || env.Type != want.Type || env.CreatedAt.Format("2006-01-02T15:04:05.000Z") != want.CreatedAt {
					t.Fatalf("envelope %+v, want %+v", env, want)
				}
				var got, exp any
				_ = json.Unmarshal(env.Data, &got)
				_ = json.Unmarshal(want.Data, &exp)
				gb, _ := json.Marshal(got)
				eb, _ := json.Marshal(exp)
				if string(gb) != string(eb) {
					t.Fatalf("data %s, want %s", gb, eb)
				}
				if m.ID != env.ID || m.Timestamp.Unix() != env.CreatedAt.Unix() {
					t.Fatalf("message %+v does not match envelope", m)
				}
			default:
				want, ok := codes[v.Expect]
				if !ok {
					t.Fatalf("unknown expected code %q", v.Expect)
				}
				if !errors.Is(err, want) {
					t.Fatalf("Verify error = %v, want %v", err, want)
				}
				if want != ferrywebhooks.ErrInvalidEnvelope && !errors.Is(serr, want) {
					t.Fatalf("VerifySignature error = %v, want %v", serr, want)
				}
				for code, other := range codes {
					if code != v.Expect && errors.Is(err, other) {
						t.Fatalf("error %v also matches %s", err, code)
					}
				}
			}
		})
	}
}

// TestVerifyUsesTheClock checks the package-level Verify rejects a
// vector whose event is far older than the window.
func TestVerifyUsesTheClock(t *testing.T) {
	t.Parallel()
	v := loadVectors(t).Vectors[0]
	body, _ := base64.StdEncoding.DecodeString(v.BodyBase64)
	h := http.Header{}
	for k, val := range v.Headers {
		h[k] = []string{val} // lower-case keys, as a hand-built header may have
	}
	_, err := ferrywebhooks.Verify(v.Secret, h, body)
	if time.Since(time.Unix(v.Now, 0)) > ferrywebhooks.DefaultTolerance && !errors.Is(err, ferrywebhooks.ErrTimestampOutOfWindow) {
		t.Fatalf("Verify of a stale vector = %v, want ErrTimestampOutOfWindow", err)
	}
	short := ferrywebhooks.Verifier{Tolerance: time.Second, Now: func() time.Time { return time.Unix(v.Now, 0) }}
	if _, err := short.Verify(v.Secret, h, body); !errors.Is(err, ferrywebhooks.ErrTimestampOutOfWindow) {
		t.Fatalf("1 s tolerance: %v", err)
	}
}
