package delivery

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ferry-dev/ferry/delivery/webhook"

	"github.com/google/uuid"
)

// FuzzEventInput feeds arbitrary request bodies through the ingest
// parsing (JSON decode + validate) and checks that whatever is accepted is
// storable and round-trips through the envelope byte-exactly.
func FuzzEventInput(f *testing.F) {
	for _, seed := range []string{
		`{"type":"invoice.paid","data":{"amount":4200}}`,
		`{"type":"a","data":[1,2,3],"idempotency_key":"k-1"}`,
		`{"type":"user.created","data":{"name":"Zoë","tags":["x"]}}`,
		`{"type":"t","data":"\u0000"}`,
		`{"type":"t","data":null}`,
		`{"type":"","data":{}}`,
		`{"type":"a b","data":{}}`,
		`{"type":"t","data":  { "a" : 1 , "b":[ ] } }`,
		`{"type":"t","data":1e999}`,
		`{"type":"t","data":{"a":"\ud800"}}`,
		`{"type":"t","data":{},"idempotency_key":"  spaced  "}`,
		`{"type":"t/x:y-z_0","data":true}`,
		`[]`, `{`, `{"type":1}`, "",
	} {
		f.Add([]byte(seed))
	}
	created := time.Date(2026, 11, 22, 5, 23, 8, 123e6, time.UTC)
	f.Fuzz(func(t *testing.T, body []byte) {
		var in EventInput
		if err := json.Unmarshal(body, &in); err != nil {
			return
		}
		if err := in.validate(); err != nil {
			return
		}
		if !eventTypePattern.MatchString(in.Type) {
			t.Fatalf("accepted type %q", in.Type)
		}
		if !json.Valid(in.Data) || !utf8.Valid(in.Data) {
			t.Fatalf("accepted invalid data %q", in.Data)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, in.Data); err != nil || !bytes.Equal(compact.Bytes(), in.Data) {
			t.Fatalf("data not compact: %q", in.Data)
		}
		if bytes.Contains(in.Data, []byte(`\u0000`)) {
			t.Fatalf("accepted \\u0000 in %q", in.Data)
		}
		if len(in.IdempotencyKey) > maxIdempotencyKey || in.IdempotencyKey != strings.TrimSpace(in.IdempotencyKey) {
			t.Fatalf("accepted idempotency key %q", in.IdempotencyKey)
		}
		id := uuid.New()
		env := webhook.Envelope(id, in.Type, created, in.Data)
		var got struct {
			ID        string          `json:"id"`
			Type      string          `json:"type"`
			CreatedAt string          `json:"created_at"`
			Data      json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(env, &got); err != nil {
			t.Fatalf("envelope %q is not JSON: %v", env, err)
		}
		if got.ID != id.String() || got.Type != in.Type || got.CreatedAt != "2026-11-22T05:23:08.123Z" || !bytes.Equal(got.Data, in.Data) {
			t.Fatalf("envelope round trip: got %+v from %q", got, env)
		}
		if !bytes.Equal(env, webhook.Envelope(id, in.Type, created, in.Data)) {
			t.Fatalf("envelope is not deterministic")
		}
	})
}
