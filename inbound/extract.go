package inbound

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodeJSON returns the body decoded when it is one JSON value that an
// event's data may hold (valid UTF-8, no \u0000, which Postgres' json
// refuses), and its compact form; ok is false otherwise.
func decodeJSON(body []byte) (v any, compact []byte, ok bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || !utf8.Valid(trimmed) {
		return nil, nil, false
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, trimmed); err != nil {
		return nil, nil, false
	}
	if bytes.Contains(buf.Bytes(), []byte(`\u0000`)) || bytes.Equal(buf.Bytes(), []byte("null")) {
		return nil, nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, nil, false
	}
	return v, buf.Bytes(), true
}

// eventData is a capture's event data: the JSON body, or the body in
// base64 when it is not JSON.
func eventData(compact []byte, isJSON bool, body []byte) json.RawMessage {
	if isJSON {
		return compact
	}
	b, _ := json.Marshal(map[string]string{"raw_base64": base64.StdEncoding.EncodeToString(body)}) // cannot fail
	return b
}

// lookupPath follows a dotted path (numbers index arrays) into v and
// returns a string or number found there as text.
func lookupPath(v any, path string) (string, bool) {
	cur := v
	for _, seg := range strings.Split(path, ".") {
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[seg]
			if !ok {
				return "", false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return "", false
			}
			cur = c[i]
		default:
			return "", false
		}
	}
	switch x := cur.(type) {
	case string:
		return x, x != ""
	case json.Number:
		return x.String(), true
	}
	return "", false
}

// eventType applies the source's rule to a request.
func eventType(r EventTypeRule, h http.Header, doc any, isJSON bool, valid func(string) bool) string {
	var t string
	switch {
	case r.Value != "":
		return r.Value
	case r.Header != "":
		t = strings.TrimSpace(h.Get(r.Header))
	case isJSON:
		t, _ = lookupPath(doc, r.JSONPath)
	}
	if t != "" && valid(t) {
		return t
	}
	if r.Default != "" {
		return r.Default
	}
	return DefaultEventType
}

// dedupeKey applies the source's dedupe rule; "" means no key (the
// request is never a duplicate).
func dedupeKey(r *DedupeRule, h http.Header, doc any, isJSON bool) string {
	if r == nil {
		return ""
	}
	var k string
	switch {
	case r.Header != "":
		k = strings.TrimSpace(h.Get(r.Header))
	case isJSON:
		k, _ = lookupPath(doc, r.JSONPath)
	}
	if len(k) > maxDedupeKey || !utf8.ValidString(k) {
		return ""
	}
	return k
}

// requestInfo is the request as endpoint filters see it.
func requestInfo(method, path, rawQuery string, h http.Header) RequestInfo {
	info := RequestInfo{Method: method, Path: path, Headers: make(map[string]string, len(h)), Query: map[string]string{}}
	for k, vs := range h {
		info.Headers[strings.ToLower(k)] = strings.Join(vs, ", ")
	}
	// A malformed pair is skipped; ParseQuery keeps the others.
	q, _ := url.ParseQuery(rawQuery)
	for k, vs := range q {
		if len(vs) > 0 {
			info.Query[k] = vs[0]
		}
	}
	return info
}
