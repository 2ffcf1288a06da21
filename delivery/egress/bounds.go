package egress

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ferry-dev/ferry/internal/pgval"
)

// Bounds on what a receiver may send back. The transport refuses a larger
// header block outright; the rest is cut, and the cut is marked on the
// Response, so one receiver can neither fill a worker's memory nor the
// attempt log.
const (
	// MaxResponseHeaderBytes bounds the status line and header block a
	// receiver may send. Beyond it the attempt fails with
	// ErrResponseTooLarge.
	MaxResponseHeaderBytes = 64 << 10
	// MaxResponseBodyRead is how much of a response body is read; reading
	// stops there (the connection is then closed, not reused).
	MaxResponseBodyRead = 64 << 10
	// MaxStoredHeaderBytes bounds the response headers kept, measured as
	// their JSON encoding (an object of name → list of values).
	MaxStoredHeaderBytes = 8 << 10
	// MaxStoredBodyBytes bounds the response body kept, as UTF-8 text.
	MaxStoredBodyBytes = 4 << 10
)

// ErrResponseTooLarge reports a response header block over
// MaxResponseHeaderBytes. It wraps the transport's own error.
var ErrResponseTooLarge = errors.New("response header block too large")

// classifyTransportError wraps err in ErrResponseTooLarge when it is the
// transport refusing an oversized header block. net/http has no sentinel
// for that, only these messages (HTTP/1.1 in transport.go, HTTP/2 in
// h2_bundle.go); TestResponseHeaderBlockBound pins the HTTP/1.1 one.
func classifyTransportError(err error) error {
	msg := err.Error()
	for _, m := range [...]string{
		"server response headers exceeded",                  // HTTP/1.1
		"response header list larger than advertised limit", // HTTP/2 final response
		"header list too large",                             // HTTP/2 1xx responses
	} {
		if strings.Contains(msg, m) {
			return fmt.Errorf("%w (over %d bytes): %w", ErrResponseTooLarge, MaxResponseHeaderBytes, err)
		}
	}
	return err
}

// readBody reads at most MaxResponseBodyRead bytes of body and keeps the
// first MaxStoredBodyBytes as storable text. truncated reports that what
// is kept is not the whole body. err is a read error (such as the timeout
// cutting off a slow body).
func readBody(body io.Reader) (kept []byte, truncated bool, err error) {
	raw, err := io.ReadAll(io.LimitReader(body, MaxStoredBodyBytes))
	var rest int64
	complete := false
	if err == nil {
		// The rest is read and discarded up to the read bound: a short
		// body ends in EOF and its connection is reused; reading a longer
		// one stops at the bound.
		rest, err = io.CopyN(io.Discard, body, MaxResponseBodyRead-int64(len(raw)))
		if errors.Is(err, io.EOF) {
			err, complete = nil, true
		}
	}
	partial := rest > 0 || !complete
	kept, shortened := storableBody(raw, partial)
	return kept, partial || shortened, err
}

// storableBody turns raw body bytes into text Postgres accepts (invalid
// UTF-8 and NUL become U+FFFD) of at most MaxStoredBodyBytes, cut on a
// character boundary; shortened reports such a cut. partial says raw is a
// prefix of a longer body, so a character split at its end is dropped
// rather than replaced.
func storableBody(raw []byte, partial bool) (text []byte, shortened bool) {
	if partial {
		for i := len(raw) - 1; i >= 0 && i >= len(raw)-utf8.UTFMax; i-- {
			if utf8.RuneStart(raw[i]) {
				if !utf8.FullRune(raw[i:]) {
					raw = raw[:i]
				}
				break
			}
		}
	}
	s := pgval.Text(raw)
	if len(s) <= MaxStoredBodyBytes {
		return []byte(s), false
	}
	return []byte(pgval.Truncate(s, MaxStoredBodyBytes)), true
}

// boundHeaders returns the headers to keep: names and values made
// storable (invalid UTF-8 and NUL become U+FFFD), and as many values as
// fit in MaxStoredHeaderBytes of JSON, taking names in sorted order and
// skipping a value that does not fit. truncated reports that any value
// was left out.
func boundHeaders(h http.Header) (kept http.Header, truncated bool) {
	if h == nil {
		return nil, false
	}
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	kept = make(http.Header, len(h))
	used := len("{}")
	for _, name := range names {
		cleanName := pgval.Text([]byte(name))
		// `"name":[` + `]` and a comma before every entry but the first.
		entry := jsonLen(cleanName) + len(":[]") + min(len(kept), 1)
		var values []string
		for _, v := range h[name] {
			clean := pgval.Text([]byte(v))
			size := jsonLen(clean) + min(len(values), 1)
			if used+entry+size > MaxStoredHeaderBytes {
				truncated = true
				continue
			}
			values = append(values, clean)
			entry += size
		}
		if len(values) == 0 {
			continue
		}
		used += entry
		kept[cleanName] = append(kept[cleanName], values...)
	}
	return kept, truncated
}

// jsonLen is the length of s encoded as a JSON string by encoding/json
// (which escapes <, > and &, and so is never shorter than what Postgres
// or a browser writes).
func jsonLen(s string) int {
	b, err := json.Marshal(s)
	if err != nil {
		// A string always encodes; count the worst case if it did not.
		return 6*len(s) + 2
	}
	return len(b)
}
