package delivery

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ferry-dev/ferry/delivery/model"
)

// TestVisibilityRedacts plays a viewer reading an endpoint that
// authenticates with a header and a URL token, and the attempts that
// echo both.
func TestVisibilityRedacts(t *testing.T) {
	t.Parallel()
	const token = "s3cr3t-t0ken"
	ep := Endpoint{URL: "https://hooks.example.com/in?token=" + token + "&team=" + token + "&flag",
		Headers: map[string]string{"Authorization": "Bearer " + token, "X-Api-Key": token}}
	a := model.Attempt{
		RequestHeaders: http.Header{"Authorization": {"Bearer " + token}, "X-Api-Key": {token},
			"Webhook-Id": {"msg_1"}, "Content-Type": {"application/json"}},
		ErrorMessage: `Post "https://hooks.example.com/in?token=` + token + `": dial tcp 10.0.0.1:443: connect: connection refused` +
			` (retry at http://other.example.com/x?key=` + token + `)`,
	}

	for _, c := range []struct {
		name string
		v    Visibility
		open bool
	}{
		{"full", VisibilityFull, true},
		{"redacted", VisibilityRedacted, false},
		{"zero value", Visibility(0), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			gotEp := c.v.Endpoint(ep)
			gotA := c.v.Attempt(a)
			all := gotEp.URL + gotA.ErrorMessage
			for _, v := range gotEp.Headers {
				all += v
			}
			for _, vs := range gotA.RequestHeaders {
				all += strings.Join(vs, ",")
			}
			if leaked := strings.Contains(all, token); leaked != c.open {
				t.Fatalf("token visible = %v, want %v: %s", leaked, c.open, all)
			}
			if c.open {
				return
			}
			if gotEp.URL != "https://hooks.example.com/in?token=[redacted]&team=[redacted]&flag=[redacted]" {
				t.Errorf("url = %s", gotEp.URL)
			}
			if gotEp.Headers["Authorization"] != Redacted {
				t.Errorf("headers = %v", gotEp.Headers)
			}
			if gotA.RequestHeaders.Get("Webhook-Id") != "msg_1" || gotA.RequestHeaders.Get("Authorization") != Redacted {
				t.Errorf("request headers = %v", gotA.RequestHeaders)
			}
			if !strings.HasPrefix(gotA.ErrorMessage, `Post "[redacted]": dial tcp`) {
				t.Errorf("error message = %s", gotA.ErrorMessage)
			}
			// The original values are untouched (callers may cache them).
			if ep.Headers["X-Api-Key"] != token || a.RequestHeaders.Get("X-Api-Key") != token {
				t.Error("redaction changed its input")
			}
		})
	}
}

func TestRedactURLQuery(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://a.example/x":            "https://a.example/x",
		"https://a.example/x?":           "https://a.example/x?",
		"https://a.example/x?a=1&b=2":    "https://a.example/x?a=[redacted]&b=[redacted]",
		"https://a.example/x?a=1&&b=%zz": "https://a.example/x?a=[redacted]&&b=[redacted]",
		"https://u:p@a.example/x":        "https://[redacted]@a.example/x",
		"https://u@a.example/x?t=1#f":    "https://[redacted]@a.example/x?t=[redacted]#f",
		"//u:p@a.example/x":              "//[redacted]@a.example/x",
		"https://a.example/p%20q?t=1":    "https://a.example/p%20q?t=[redacted]",
		"%zz://bad":                      Redacted,
	} {
		if got := RedactURLQuery(in); got != want {
			t.Errorf("RedactURLQuery(%q) = %q, want %q", in, got, want)
		}
	}
}
