package delivery

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/ferry-dev/ferry/delivery/egress"
)

// FuzzEndpointURL checks that every URL validateURL accepts is an absolute
// http(s) URL without credentials or fragment, uses https unless http is
// allowed, and never names a refused literal address or localhost.
func FuzzEndpointURL(f *testing.F) {
	for _, seed := range []string{
		"https://example.com/hook", "http://127.0.0.1:9000/hook", "https://[::1]/x", "https://[::ffff:127.0.0.1]/",
		"https://169.254.169.254/latest/meta-data", "https://user:pw@example.com/", "https://example.com/#frag",
		"ftp://example.com/", "https:///nohost", "https://localhost/", "https://a.localhost:8443/", "https://10.0.0.1/",
		"https://[fe80::1%25eth0]/", "https://0.0.0.0/", "https://[64:ff9b::a00:1]/", "//example.com", "https://例え.jp/",
		"HTTPS://EXAMPLE.COM/", "https://example.com:99999/", "https://[::]/", "https://224.0.0.1/",
	} {
		f.Add(seed, false, false)
		f.Add(seed, true, true)
	}
	f.Fuzz(func(t *testing.T, raw string, allowHTTP, allowPrivate bool) {
		s := &Service{cfg: Config{AllowHTTP: allowHTTP, AddressPolicy: egress.AddressPolicy{AllowPrivate: allowPrivate}}}
		if err := s.validateURL(raw); err != nil {
			return
		}
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("accepted unparsable %q: %v", raw, err)
		}
		if u.Scheme != "https" && !(allowHTTP && u.Scheme == "http") {
			t.Fatalf("accepted scheme %q (allowHTTP=%v) in %q", u.Scheme, allowHTTP, raw)
		}
		if u.Hostname() == "" || u.User != nil || u.Fragment != "" {
			t.Fatalf("accepted %q (host %q, user %v, fragment %q)", raw, u.Hostname(), u.User, u.Fragment)
		}
		host := strings.Trim(u.Hostname(), "[]")
		if ip, err := netip.ParseAddr(host); err == nil {
			if err := (egress.AddressPolicy{AllowPrivate: allowPrivate}).Check(ip); err != nil {
				t.Fatalf("accepted refused address %s in %q", ip, raw)
			}
		}
		if h := strings.TrimSuffix(strings.ToLower(host), "."); !allowPrivate && (h == "localhost" || strings.HasSuffix(h, ".localhost")) {
			t.Fatalf("accepted localhost in %q", raw)
		}
	})
}
