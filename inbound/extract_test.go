package inbound

import (
	"net/http"
	"testing"
)

func validType(t string) bool { return t != "" && t[0] != '!' && len(t) < 100 }

func TestEventTypeAndDedupeKey(t *testing.T) {
	t.Parallel()
	body := []byte(` {"type":"invoice.paid","data":{"object":{"id":"in_1"}},"items":[{"kind":"a"},{"kind":"b"}],"n":42,"bad":"!x"} `)
	doc, compact, ok := decodeJSON(body)
	if !ok {
		t.Fatal("body not JSON")
	}
	if string(compact) != `{"type":"invoice.paid","data":{"object":{"id":"in_1"}},"items":[{"kind":"a"},{"kind":"b"}],"n":42,"bad":"!x"}` {
		t.Errorf("compact: %s", compact)
	}
	h := http.Header{"X-Github-Event": {"push"}, "X-Github-Delivery": {"d-1"}}
	for _, tc := range []struct {
		rule EventTypeRule
		want string
	}{
		{EventTypeRule{Value: "fixed.type"}, "fixed.type"},
		{EventTypeRule{Header: "X-Github-Event"}, "push"},
		{EventTypeRule{Header: "X-Missing"}, DefaultEventType},
		{EventTypeRule{Header: "X-Missing", Default: "github.other"}, "github.other"},
		{EventTypeRule{JSONPath: "type"}, "invoice.paid"},
		{EventTypeRule{JSONPath: "items.1.kind"}, "b"},
		{EventTypeRule{JSONPath: "n"}, "42"},
		{EventTypeRule{JSONPath: "items.2.kind"}, DefaultEventType},
		{EventTypeRule{JSONPath: "data.object"}, DefaultEventType},
		{EventTypeRule{JSONPath: "bad", Default: "fallback"}, "fallback"},
	} {
		if got := eventType(tc.rule, h, doc, true, validType); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.rule, got, tc.want)
		}
	}
	if got := eventType(EventTypeRule{JSONPath: "type"}, h, nil, false, validType); got != DefaultEventType {
		t.Errorf("json path on a non-JSON body: %q", got)
	}
	if got := dedupeKey(&DedupeRule{Header: "X-Github-Delivery"}, h, doc, true); got != "d-1" {
		t.Errorf("dedupe header: %q", got)
	}
	if got := dedupeKey(&DedupeRule{JSONPath: "data.object.id"}, h, doc, true); got != "in_1" {
		t.Errorf("dedupe path: %q", got)
	}
	if got := dedupeKey(nil, h, doc, true); got != "" {
		t.Errorf("no rule: %q", got)
	}
}

func TestEventData(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body string
		want string
	}{
		{`{"a": [1, 2]}`, `{"a":[1,2]}`},
		{`"text"`, `"text"`},
		{"", `{"raw_base64":""}`},
		{"null", `{"raw_base64":"bnVsbA=="}`},
		{"a=1&b=2", `{"raw_base64":"YT0xJmI9Mg=="}`},
		{"\xff\xfe{}", `{"raw_base64":"//57fQ=="}`},
		{`{"a":"\u0000"}`, `{"raw_base64":"eyJhIjoiXHUwMDAwIn0="}`},
	} {
		_, compact, ok := decodeJSON([]byte(tc.body))
		if got := string(eventData(compact, ok, []byte(tc.body))); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.body, got, tc.want)
		}
	}
}

func TestRequestInfo(t *testing.T) {
	t.Parallel()
	info := requestInfo("POST", "/in/{token}/x", "a=1&a=2&b=%20c&bad=%zz", http.Header{"X-Foo": {"1", "2"}, "Content-Type": {"text/plain"}})
	if info.Headers["x-foo"] != "1, 2" || info.Headers["content-type"] != "text/plain" {
		t.Errorf("headers: %v", info.Headers)
	}
	if info.Query["a"] != "1" || info.Query["b"] != " c" {
		t.Errorf("query: %v", info.Query)
	}
	if info.Method != "POST" || info.Path != "/in/{token}/x" {
		t.Errorf("info: %+v", info)
	}
}
