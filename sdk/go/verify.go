package ferrywebhooks

import (
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultTolerance is how old webhook-timestamp may be. Ferry's timestamp
// is the event's created_at, the same on every retry and replay: retries
// run for up to 72 hours after the first attempt, and replays (say, of
// deliveries exhausted over a weekend) come later still, so the window is
// the 72 h retry window plus four days for replays. A 5-minute tolerance
// would reject every retry after the first few.
const DefaultTolerance = 7 * 24 * time.Hour

// DefaultFutureTolerance is how far in the future webhook-timestamp may
// be, for clock skew between Ferry and the receiver.
const DefaultFutureTolerance = 5 * time.Minute

// Header names (Standard Webhooks).
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

const secretPrefix = "whsec_"

// Verifier verifies requests with a configurable window and clock. The
// zero value uses the defaults and the system clock.
type Verifier struct {
	// Tolerance is how old webhook-timestamp may be (DefaultTolerance
	// when zero). Keep dedupe keys longer than this.
	Tolerance time.Duration
	// FutureTolerance is how far ahead it may be
	// (DefaultFutureTolerance when zero).
	FutureTolerance time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Verify checks the request's signature with secret (a "whsec_…"
// secret) over body, the raw request body, and the timestamp against
// DefaultTolerance, and returns the parsed envelope. Errors wrap
// ErrInvalidSecret, ErrMissingHeader, ErrInvalidSignature,
// ErrTimestampOutOfWindow or ErrInvalidEnvelope.
func Verify(secret string, h http.Header, body []byte) (Envelope, error) {
	return Verifier{}.Verify(secret, h, body)
}

// VerifySignature is Verify without parsing the body, for endpoints with
// the raw format (the original body, signed as-is, with no envelope).
func VerifySignature(secret string, h http.Header, body []byte) (Message, error) {
	return Verifier{}.VerifySignature(secret, h, body)
}

// Verify is the package's Verify with v's window and clock.
func (v Verifier) Verify(secret string, h http.Header, body []byte) (Envelope, error) {
	m, err := v.VerifySignature(secret, h, body)
	if err != nil {
		return Envelope{}, err
	}
	return parseEnvelope(m.ID, body)
}

// VerifySignature is the package's VerifySignature with v's window and
// clock.
func (v Verifier) VerifySignature(secret string, h http.Header, body []byte) (Message, error) {
	key, err := decodeSecret(secret)
	if err != nil {
		return Message{}, err
	}
	return v.verifyKey(key, h, body)
}

// verifyKey is VerifySignature with the secret already decoded.
func (v Verifier) verifyKey(key []byte, h http.Header, body []byte) (Message, error) {
	id, ts, sigs := header(h, HeaderID), header(h, HeaderTimestamp), header(h, HeaderSignature)
	var missing []string
	for _, p := range [][2]string{{HeaderID, id}, {HeaderTimestamp, ts}, {HeaderSignature, sigs}} {
		if p[1] == "" {
			missing = append(missing, p[0])
		}
	}
	if len(missing) > 0 {
		return Message{}, fmt.Errorf("%w: %s", ErrMissingHeader, strings.Join(missing, ", "))
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return Message{}, fmt.Errorf("%w: webhook-timestamp %q is not unix seconds", ErrInvalidSignature, ts)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write([]byte(ts))
	mac.Write([]byte{'.'})
	mac.Write(body)
	want := mac.Sum(nil)
	if !anyMatch(sigs, want) {
		return Message{}, fmt.Errorf("%w: no v1 signature matches", ErrInvalidSignature)
	}
	at := time.Unix(sec, 0).UTC()
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	t := now()
	if age := t.Sub(at); age > cmp.Or(v.Tolerance, DefaultTolerance) {
		return Message{}, fmt.Errorf("%w: timestamp %s is %s old", ErrTimestampOutOfWindow, at.Format(time.RFC3339), age.Round(time.Second))
	}
	if ahead := at.Sub(t); ahead > cmp.Or(v.FutureTolerance, DefaultFutureTolerance) {
		return Message{}, fmt.Errorf("%w: timestamp %s is %s in the future", ErrTimestampOutOfWindow, at.Format(time.RFC3339), ahead.Round(time.Second))
	}
	return Message{ID: id, Timestamp: at}, nil
}

// anyMatch reports whether one of the space-separated "v1,<base64>"
// signatures equals want, comparing in constant time.
func anyMatch(header string, want []byte) bool {
	ok := false
	for _, sig := range strings.Fields(header) {
		b64, found := strings.CutPrefix(sig, "v1,")
		if !found {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			continue
		}
		if hmac.Equal(got, want) {
			ok = true
		}
	}
	return ok
}

// decodeSecret returns the HMAC key of a whsec_ secret (the prefix is
// optional).
func decodeSecret(secret string) ([]byte, error) {
	if secret == "" {
		return nil, fmt.Errorf("%w: empty", ErrInvalidSecret)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil {
		return nil, fmt.Errorf("%w: not base64 after %q", ErrInvalidSecret, secretPrefix)
	}
	if len(key) < 24 || len(key) > 64 {
		return nil, fmt.Errorf("%w: %d bytes, want 24 to 64", ErrInvalidSecret, len(key))
	}
	return key, nil
}

// header returns the first value of a header, whatever the case of its
// name in h (http.Header built by hand may hold non-canonical keys).
func header(h http.Header, name string) string {
	if v := h.Get(name); v != "" {
		return v
	}
	for k, vs := range h {
		if len(vs) > 0 && strings.EqualFold(k, name) {
			return vs[0]
		}
	}
	return ""
}
