package egress

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"sync"
	"testing"
	"time"
)

// TestAddressPolicy checks which addresses production refuses, and that
// AllowPrivate lifts only loopback and private ranges.
func TestAddressPolicy(t *testing.T) {
	t.Parallel()
	const (
		allowed = iota
		privateOnly
		always
	)
	for _, c := range []struct {
		addr string
		want int
	}{
		{"93.184.216.34", allowed},
		{"8.8.8.8", allowed},
		{"2606:4700:4700::1111", allowed},
		{"172.32.0.1", allowed},
		{"100.128.0.1", allowed},
		{"127.0.0.1", privateOnly},
		{"127.1.2.3", privateOnly},
		{"10.0.0.1", privateOnly},
		{"10.255.255.255", privateOnly},
		{"172.16.0.1", privateOnly},
		{"172.31.255.254", privateOnly},
		{"192.168.1.1", privateOnly},
		{"100.64.0.1", privateOnly},
		{"100.127.255.255", privateOnly},
		{"::1", privateOnly},
		{"fd00::1", privateOnly},
		{"::ffff:127.0.0.1", privateOnly},
		{"::ffff:10.1.2.3", privateOnly},
		{"169.254.169.254", always},
		{"169.254.0.1", always},
		{"::ffff:169.254.169.254", always},
		{"fe80::1", always},
		{"224.0.0.1", always},
		{"239.255.255.250", always},
		{"ff02::1", always},
		{"0.0.0.0", always},
		{"::", always},
	} {
		ip := netip.MustParseAddr(c.addr)
		prod := AddressPolicy{}.Check(ip)
		dev := AddressPolicy{AllowPrivate: true}.Check(ip)
		if prod != nil && !errors.Is(prod, ErrBlockedAddress) {
			t.Errorf("%s: error %v does not wrap ErrBlockedAddress", c.addr, prod)
		}
		switch c.want {
		case allowed:
			if prod != nil || dev != nil {
				t.Errorf("%s: refused (prod %v, dev %v), want allowed", c.addr, prod, dev)
			}
		case privateOnly:
			if prod == nil {
				t.Errorf("%s: allowed in production, want refused", c.addr)
			}
			if dev != nil {
				t.Errorf("%s: refused with AllowPrivate: %v", c.addr, dev)
			}
		case always:
			if prod == nil || dev == nil {
				t.Errorf("%s: allowed (prod %v, dev %v), want refused even with AllowPrivate", c.addr, prod, dev)
			}
		}
	}
}

// rebindingResolver answers a public address on its first lookup (what a
// check at endpoint creation would see) and then the real, private
// address of the local receiver (what the connection sees).
type rebindingResolver struct {
	mu      sync.Mutex
	lookups int
	private netip.Addr
}

func (r *rebindingResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lookups++
	if r.lookups == 1 {
		return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
	}
	return []netip.Addr{r.private}, nil
}

var _ Resolver = (*rebindingResolver)(nil)

// TestSSRFCheckedAtConnectTime simulates DNS rebinding: the name looks
// public when first resolved but resolves to loopback when the sender
// connects. Production refuses the connection; only AllowPrivate lets it
// through.
func TestSSRFCheckedAtConnectTime(t *testing.T) {
	t.Parallel()
	var hits int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	target := "http://rebind.example.com:" + u.Port() + "/hook"

	for _, allowPrivate := range []bool{false, true} {
		res := &rebindingResolver{private: netip.MustParseAddr("127.0.0.1")}
		policy := AddressPolicy{AllowPrivate: allowPrivate}
		// "Creation": the name resolves to a public address and passes.
		first, _ := res.LookupNetIP(context.Background(), "ip", "rebind.example.com")
		if err := policy.Check(first[0]); err != nil {
			t.Fatalf("public address refused: %v", err)
		}
		s := NewSenderFromConfig(SenderConfig{Policy: policy, Resolver: res})
		resp := s.Send(context.Background(), Request{URL: target, Headers: http.Header{}, Timeout: 2 * time.Second})
		if !allowPrivate {
			// dispatch's TestClassifyErrorWrapped checks this error is
			// classed "blocked" and retried.
			if resp.Err == nil || !errors.Is(resp.Err, ErrBlockedAddress) {
				t.Fatalf("production: err %v (status %d), want a blocked address at connect time", resp.Err, resp.Status)
			}
			mu.Lock()
			if hits != 0 {
				t.Fatalf("the private receiver was reached %d times", hits)
			}
			mu.Unlock()
		} else if resp.Err != nil || resp.Status != 200 {
			t.Fatalf("AllowPrivate: status %d err %v, want 200", resp.Status, resp.Err)
		}
	}
}

// TestSSRFSystemResolverLoopback checks the default dialer refuses
// "localhost" and literal loopback URLs in production.
func TestSSRFSystemResolverLoopback(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	s := NewSender(AddressPolicy{}, nil)
	for _, target := range []string{srv.URL, "http://localhost:" + u.Port(), "http://[::ffff:127.0.0.1]:" + u.Port()} {
		resp := s.Send(context.Background(), Request{URL: target, Headers: http.Header{}, Timeout: 2 * time.Second})
		if !errors.Is(resp.Err, ErrBlockedAddress) {
			t.Errorf("%s: err %v, status %d; want blocked", target, resp.Err, resp.Status)
		}
	}
}
