package inbound

import (
	"net/http"
	"testing"
)

func TestAnswerType(t *testing.T) {
	t.Parallel()
	for ct, want := range map[string]string{
		"application/json":               "application/json",
		"text/plain; charset=utf-8":      "text/plain; charset=utf-8",
		"Text/XML":                       "Text/XML",
		"application/xml; charset=utf-8": "application/xml; charset=utf-8",
		"text/html":                      "text/plain; charset=utf-8", // saved before types were limited
		"text/html; charset=utf-8":       "text/plain; charset=utf-8",
		"image/svg+xml":                  "text/plain; charset=utf-8",
		"application/json; x=\"unclosed": "text/plain; charset=utf-8",
		"":                               "text/plain; charset=utf-8",
	} {
		if got := answerType(ct); got != want {
			t.Errorf("answerType(%q) = %q, want %q", ct, got, want)
		}
	}
}

func TestStoredHeaders(t *testing.T) {
	t.Parallel()
	in := http.Header{"Cookie": {"__Host-ferry_session=s"}, "Authorization": {"Basic dTpw"},
		"Proxy-Authorization": {"Basic cDpw"}, "X-Github-Event": {"push"}}
	tests := []struct {
		name     string
		v        Verification
		wantAuth bool
	}{
		{"none", Verification{Type: SchemeNone}, false},
		{"github", Verification{Type: SchemeGitHub}, false},
		{"basic auth reads it", Verification{Type: SchemeBasicAuth, Username: "u"}, true},
		{"hmac in Authorization", Verification{Type: SchemeHMACSHA256, Header: "authorization"}, true},
		{"hmac elsewhere", Verification{Type: SchemeHMACSHA256, Header: "X-Signature"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := storedHeaders(in, tt.v)
			if got.Get("Cookie") != "" || got.Get("Proxy-Authorization") != "" {
				t.Errorf("kept a visitor's credentials: %v", got)
			}
			if (got.Get("Authorization") != "") != tt.wantAuth {
				t.Errorf("Authorization kept = %v, want %v", got.Get("Authorization") != "", tt.wantAuth)
			}
			if got.Get("X-Github-Event") != "push" || in.Get("Cookie") == "" {
				t.Errorf("other headers lost or the request's own changed: %v / %v", got, in)
			}
		})
	}
}
