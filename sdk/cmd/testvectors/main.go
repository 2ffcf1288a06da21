// Command testvectors prints sdk/testvectors.json: signed requests made
// with Ferry's own signing code (package delivery/webhook), which the Go,
// TypeScript and Python receiver SDKs must all verify the same way.
//
//	go run ./sdk/cmd/testvectors > sdk/testvectors.json
//
// Every secret, id and time is fixed, so the output is deterministic; a
// test in this package fails when the checked-in file differs from it.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/webhook"
)

// Tolerance is how far in the past webhook-timestamp may lie: the 72 h
// retry window plus four days for replays. The SDKs use it as their
// default and check it against the file's tolerance_seconds.
const Tolerance = 7 * 24 * time.Hour

// FutureTolerance is how far in the future webhook-timestamp may lie
// (clock skew between Ferry and the receiver).
const FutureTolerance = 5 * time.Minute

// File is the JSON document.
type File struct {
	Comment                string   `json:"comment"`
	ToleranceSeconds       int64    `json:"tolerance_seconds"`
	FutureToleranceSeconds int64    `json:"future_tolerance_seconds"`
	Errors                 []string `json:"errors"`
	Vectors                []Vector `json:"vectors"`
}

// Vector is one request and the verdict every SDK must reach on it.
type Vector struct {
	Name    string            `json:"name"`
	Secret  string            `json:"secret"`
	Now     int64             `json:"now"`
	Headers map[string]string `json:"headers"`
	// Body is the body as text when it is valid UTF-8, for reading;
	// BodyBase64 is authoritative.
	Body       string `json:"body,omitempty"`
	BodyBase64 string `json:"body_base64"`
	// Format is "envelope" (verify returns the envelope) or "raw" (an
	// endpoint with the raw format: the original body signed as-is;
	// verify_signature accepts it, verify answers invalid_envelope).
	Format string `json:"format"`
	// Expect is "valid" or the error code verification must give.
	Expect   string    `json:"expect"`
	Envelope *Envelope `json:"envelope,omitempty"`
}

// Envelope is the parsed envelope a valid envelope vector yields.
type Envelope struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt string          `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// Error codes, shared by the three SDKs.
const (
	valid              = "valid"
	errMissingHeader   = "missing_header"
	errInvalidSig      = "invalid_signature"
	errInvalidSecret   = "invalid_secret"
	errTimestampWindow = "timestamp_out_of_window"
	errInvalidEnvelope = "invalid_envelope"
)

// secret derives a fixed whsec_ secret of n bytes from a label.
func secret(label string, n int) string {
	var b []byte
	for i := 0; len(b) < n; i++ {
		s := sha256.Sum256([]byte(fmt.Sprintf("ferry test vector %s %d", label, i)))
		b = append(b, s[:]...)
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(b[:n])
}

func mustKey(s string) []byte {
	k, err := webhook.SecretKey(s)
	if err != nil {
		panic(err)
	}
	return k
}

// request is one signed delivery before it becomes a vector.
type request struct {
	id      string
	created time.Time
	body    []byte
	headers http.Header
}

// envelopeRequest builds an event's body and headers exactly as the
// dispatcher does.
func envelopeRequest(id, typ string, created time.Time, data string, keys ...[]byte) request {
	uid := uuid.MustParse(id)
	body := webhook.Envelope(uid, typ, created, []byte(data))
	h := webhook.Headers(map[string]string{"X-Tenant-Header": "kept"}, "Ferry/test-vectors", keys, id, created, body)
	return request{id: id, created: created, body: body, headers: h}
}

// rawRequest is a raw-format delivery: the original body and content
// type, Ferry's webhook headers, no envelope.
func rawRequest(id string, created time.Time, contentType string, body []byte, keys ...[]byte) request {
	h := webhook.Headers(nil, "Ferry/test-vectors", keys, id, created, body)
	h.Set("Content-Type", contentType)
	return request{id: id, created: created, body: body, headers: h}
}

// vector turns a request into a vector, with lower-case header names.
func vector(name, sec string, now time.Time, r request, format, expect string) Vector {
	hs := make(map[string]string, len(r.headers))
	for k, v := range r.headers {
		hs[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	v := Vector{
		Name: name, Secret: sec, Now: now.Unix(), Headers: hs,
		BodyBase64: base64.StdEncoding.EncodeToString(r.body),
		Format:     format, Expect: expect,
	}
	if utf8.Valid(r.body) {
		v.Body = string(r.body)
	}
	if format == "envelope" && expect == valid {
		var e Envelope
		if err := json.Unmarshal(r.body, &e); err != nil {
			panic(err)
		}
		if e.CreatedAt != r.created.UTC().Format(webhook.TimeFormat) {
			panic("created_at mismatch")
		}
		v.Envelope = &e
	}
	return v
}

// without returns r with the named headers removed.
func without(r request, names ...string) request {
	h := r.headers.Clone()
	for _, n := range names {
		delete(h, n)
		h.Del(n)
	}
	r.headers = h
	return r
}

// withHeader returns r with one header replaced.
func withHeader(r request, name, value string) request {
	h := r.headers.Clone()
	delete(h, name)
	h[name] = []string{value}
	r.headers = h
	return r
}

// generate builds the whole file.
func generate() ([]byte, error) {
	created := time.Date(2026, 11, 22, 5, 23, 8, 123e6, time.UTC)
	soon := created.Add(12 * time.Second)
	secA, secB, secC := secret("A", 32), secret("B", 32), secret("C", 32)
	keyA, keyB := mustKey(secA), mustKey(secB)
	const (
		id1 = "0b9b1c4e-8f5e-4c5e-9a0e-3f3d2b1a0c9d"
		id2 = "6f1c2d3e-4a5b-4c6d-8e7f-901a2b3c4d5e"
		id3 = "a3b4c5d6-e7f8-4901-9234-56789abcdef0"
		id4 = "d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6"
	)

	basic := envelopeRequest(id1, "invoice.paid", created, `{"amount":4200,"currency":"eur"}`, keyA)
	rotated := envelopeRequest(id2, "invoice.paid", created, `{"amount":1,"rotation":true}`, keyB, keyA)
	unicode := envelopeRequest(id3, "café.créé", created,
		`{"name":"Zoë Ångström","city":"東京","emoji":"🚢⚓","sep":"\u2028","escaped":"\u00e9"}`, keyA)
	tampered := basic
	tampered.body = bytes.Replace(basic.body, []byte("4200"), []byte("4201"), 1)
	mismatch := envelopeRequest(id1, "invoice.paid", created, `{"amount":4200}`, keyA)
	// Signed correctly, but the envelope's id is not the webhook-id.
	mismatch.headers = webhook.Headers(nil, "Ferry/test-vectors", [][]byte{keyA}, id4, created, mismatch.body)

	form := rawRequest(id4, created, "application/x-www-form-urlencoded", []byte("amount=4200&currency=eur&note=caf%C3%A9"), keyA)
	stripe := rawRequest(id4, created, "application/json", []byte(`{"object":"event","type":"charge.succeeded","data":{"amount":4200}}`+"\n"), keyA)
	binary := rawRequest(id4, created, "application/octet-stream", []byte{0x00, 0xff, 0xfe, 0x80, 'f', 'e', 'r', 'r', 'y', 0x0a}, keyA)

	noPrefix := strings.TrimPrefix(secA, "whsec_")
	v1 := "v1," + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1}, 32))

	vs := []Vector{
		vector("valid single signature", secA, soon, basic, "envelope", valid),
		vector("valid, secret without the whsec_ prefix", noPrefix, soon, basic, "envelope", valid),
		vector("rotated pair, verified with the new secret", secB, soon, rotated, "envelope", valid),
		vector("rotated pair, verified with the old secret", secA, soon, rotated, "envelope", valid),
		vector("other signature versions and a wrong v1 are ignored when one v1 matches", secA, soon,
			withHeader(basic, "webhook-signature", "v2,bm90IGEgc2lnbmF0dXJl "+v1+" "+basic.headers["webhook-signature"][0]), "envelope", valid),
		vector("tampered body", secA, soon, tampered, "envelope", errInvalidSig),
		vector("wrong secret", secC, soon, basic, "envelope", errInvalidSig),
		vector("only a wrong v1 signature", secA, soon, withHeader(basic, "webhook-signature", v1), "envelope", errInvalidSig),
		vector("signature without the v1, prefix", secA, soon,
			withHeader(basic, "webhook-signature", strings.TrimPrefix(basic.headers["webhook-signature"][0], "v1,")), "envelope", errInvalidSig),
		vector("timestamp changed", secA, soon,
			withHeader(basic, "webhook-timestamp", fmt.Sprint(created.Unix()+1)), "envelope", errInvalidSig),
		vector("timestamp not a number", secA, soon, withHeader(basic, "webhook-timestamp", "yesterday"), "envelope", errInvalidSig),
		vector("missing webhook-id", secA, soon, without(basic, "webhook-id"), "envelope", errMissingHeader),
		vector("missing webhook-timestamp", secA, soon, without(basic, "webhook-timestamp"), "envelope", errMissingHeader),
		vector("missing webhook-signature", secA, soon, without(basic, "webhook-signature"), "envelope", errMissingHeader),
		vector("missing all webhook headers", secA, soon, without(basic, "webhook-id", "webhook-timestamp", "webhook-signature"), "envelope", errMissingHeader),
		vector("malformed secret (not base64)", "whsec_not*base64!", soon, basic, "envelope", errInvalidSecret),
		vector("malformed secret (too short)", "whsec_"+base64.StdEncoding.EncodeToString([]byte("short")), soon, basic, "envelope", errInvalidSecret),
		vector("empty secret", "", soon, basic, "envelope", errInvalidSecret),
		vector("old timestamp: a retry 71 h after the event", secA, created.Add(71*time.Hour), basic, "envelope", valid),
		vector("old timestamp: a replay 6 days after the event", secA, created.Add(6*24*time.Hour), basic, "envelope", valid),
		vector("old timestamp: just inside the window", secA, created.Add(Tolerance).Add(-time.Second), basic, "envelope", valid),
		vector("old timestamp: beyond the window", secA, created.Add(Tolerance).Add(time.Hour), basic, "envelope", errTimestampWindow),
		vector("timestamp too far in the future", secA, created.Add(-FutureTolerance).Add(-time.Minute), basic, "envelope", errTimestampWindow),
		vector("timestamp slightly in the future (clock skew)", secA, created.Add(-time.Minute), basic, "envelope", valid),
		vector("non-ASCII payload and type", secA, soon, unicode, "envelope", valid),
		vector("envelope id differs from webhook-id", secA, soon, mismatch, "envelope", errInvalidEnvelope),
		vector("raw format: form-encoded body", secA, soon, form, "raw", valid),
		vector("raw format: provider JSON that is not an envelope", secA, soon, stripe, "raw", valid),
		vector("raw format: binary body", secA, soon, binary, "raw", valid),
		vector("raw format: tampered body", secA, soon, func() request {
			r := form
			r.body = []byte("amount=1&currency=eur&note=caf%C3%A9")
			return r
		}(), "raw", errInvalidSig),
	}
	f := File{
		Comment: "Generated by `go run ./sdk/cmd/testvectors` from Ferry's signing code; do not edit. " +
			"Each vector: verify with secret at unix time now (default tolerances); expect is \"valid\" or the error code. " +
			"format envelope: verify returns envelope; format raw: verify_signature succeeds and verify fails with invalid_envelope.",
		ToleranceSeconds:       int64(Tolerance / time.Second),
		FutureToleranceSeconds: int64(FutureTolerance / time.Second),
		Errors:                 []string{errMissingHeader, errInvalidSig, errInvalidSecret, errTimestampWindow, errInvalidEnvelope},
		Vectors:                vs,
	}
	names := map[string]bool{}
	for _, v := range vs {
		if names[v.Name] {
			return nil, fmt.Errorf("duplicate vector name %q", v.Name)
		}
		names[v.Name] = true
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("encode vectors: %w", err)
	}
	return buf.Bytes(), nil
}

func main() {
	out, err := generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testvectors:", err)
		os.Exit(1)
	}
	if _, err := os.Stdout.Write(out); err != nil {
		fmt.Fprintln(os.Stderr, "testvectors:", err)
		os.Exit(1)
	}
}
