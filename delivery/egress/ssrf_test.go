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
		// Cloud metadata outside link-local, refused even in dev.
		{"fd00:ec2::254", always},   // AWS IMDS over IPv6
		{"fd00:ec2::253", always},   // AWS DNS over IPv6
		{"100.100.100.200", always}, // Alibaba
		{"192.0.0.192", always},     // Oracle
		{"168.63.129.16", always},   // Azure wire server
		{"169.254.170.2", always},   // AWS ECS task metadata
		{"::ffff:100.100.100.200", always},
		// IPv6 forms carrying an IPv4 address, refused whatever they carry.
		{"::a9fe:a9fe", always},              // IPv4-compatible 169.254.169.254
		{"::7f00:1", always},                 // IPv4-compatible 127.0.0.1
		{"::808:808", always},                // IPv4-compatible 8.8.8.8
		{"::ffff:0:a9fe:a9fe", always},       // SIIT 169.254.169.254
		{"64:ff9b::a9fe:a9fe", always},       // NAT64 169.254.169.254
		{"64:ff9b::7f00:1", always},          // NAT64 127.0.0.1
		{"64:ff9b::6464:64c8", always},       // NAT64 100.100.100.200
		{"64:ff9b::808:808", always},         // NAT64 8.8.8.8
		{"64:ff9b:1:a9fe:a9:fe00::", always}, // local-use NAT64 (/48)
		{"64:ff9b:1::a9fe:a9fe", always},     // local-use NAT64 (/96 layout)
		{"2002:a9fe:a9fe::", always},         // 6to4 169.254.169.254
		{"2002:7f00:1::1", always},           // 6to4 127.0.0.1
		{"2002:c000:c0::", always},           // 6to4 192.0.0.192
		// Teredo: client 169.254.169.254 stored inverted.
		{"2001:0:4136:e378:8000:63bf:5601:5601", always},
		{"2001:0:a9fe:a9fe::", always},
		// Production only.
		{"fec0::1", privateOnly},      // site-local
		{"2001:db8::1", privateOnly},  // documentation
		{"2001:2::1", privateOnly},    // benchmarking (IETF block)
		{"100::1", privateOnly},       // discard
		{"192.0.2.10", privateOnly},   // documentation
		{"198.51.100.7", privateOnly}, // documentation
		{"203.0.113.9", privateOnly},  // documentation
		{"fe80::1%eth0", always},      // zoned link-local
		{"fd12:3456::1", privateOnly}, // unique local
		{"::ffff:192.168.0.1", privateOnly},
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
