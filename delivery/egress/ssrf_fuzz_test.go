package egress

import (
	"errors"
	"net/netip"
	"testing"
)

// refusedStrict is an independent list of what production must never
// dial, after unmapping IPv4-mapped IPv6.
var refusedStrict = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"), netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("169.254.0.0/16"), netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.0.0.0/24"), netip.MustParsePrefix("192.168.0.0/16"), netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("224.0.0.0/4"), netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("::/128"), netip.MustParsePrefix("::1/128"), netip.MustParsePrefix("fc00::/7"),
	netip.MustParsePrefix("fe80::/10"), netip.MustParsePrefix("ff00::/8"), netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("2002::/16"), netip.MustParsePrefix("64:ff9b:1::/48"), netip.MustParsePrefix("fec0::/10"),
	netip.MustParsePrefix("2001::/23"), netip.MustParsePrefix("::/96"), netip.MustParsePrefix("fd00:ec2::/32"),
	netip.MustParsePrefix("100.100.100.200/32"), netip.MustParsePrefix("192.0.0.192/32"),
}

// refusedAlways stays refused even when private addresses are allowed
// (dev): link-local incl. cloud metadata, multicast, unspecified.
var refusedAlways = []netip.Prefix{
	netip.MustParsePrefix("169.254.0.0/16"), netip.MustParsePrefix("224.0.0.0/4"), netip.MustParsePrefix("0.0.0.0/32"),
	netip.MustParsePrefix("::/128"), netip.MustParsePrefix("fe80::/10"), netip.MustParsePrefix("ff00::/8"),
	// Cloud metadata outside link-local.
	netip.MustParsePrefix("fd00:ec2::254/128"), netip.MustParsePrefix("100.100.100.200/32"),
	netip.MustParsePrefix("192.0.0.192/32"),
	// IPv6 forms carrying an IPv4 address (::1 aside, which is loopback).
	netip.MustParsePrefix("::2/127"), netip.MustParsePrefix("::100/120"), netip.MustParsePrefix("::1:0/112"),
	netip.MustParsePrefix("64:ff9b::/96"), netip.MustParsePrefix("64:ff9b:1::/48"), netip.MustParsePrefix("2002::/16"),
	netip.MustParsePrefix("2001::/32"),
}

func within(ip netip.Addr, ps []netip.Prefix) bool {
	for _, p := range ps {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// FuzzAddressPolicy checks the SSRF guard against the independent lists
// above, in both modes, through Check and through the dialer's control
// hook (which sees "ip:port" strings).
func FuzzAddressPolicy(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "10.1.2.3", "169.254.169.254", "::ffff:169.254.169.254", "::1", "fe80::1",
		"8.8.8.8", "2606:4700::1111", "100.64.0.1", "0.0.0.0", "::", "ff02::1", "64:ff9b::7f00:1", "2002:7f00:1::",
		"192.0.0.8", "255.255.255.255", "fd00::1", "172.31.255.255", "172.32.0.0", "fd00:ec2::254", "100.100.100.200",
		"192.0.0.192", "::a9fe:a9fe", "64:ff9b:1::a9fe:a9fe", "2001:0:4136:e378:8000:63bf:5601:5601", "fec0::1"} {
		f.Add([]byte(netip.MustParseAddr(s).AsSlice()), uint16(443))
	}
	f.Fuzz(func(t *testing.T, raw []byte, port uint16) {
		ip, ok := netip.AddrFromSlice(raw)
		if !ok {
			return
		}
		u := ip.Unmap()
		strict := AddressPolicy{}.Check(ip)
		lenient := AddressPolicy{AllowPrivate: true}.Check(ip)
		if within(u, refusedStrict) && strict == nil {
			t.Fatalf("production policy allows %s", ip)
		}
		if within(u, refusedAlways) && lenient == nil {
			t.Fatalf("dev policy allows %s", ip)
		}
		if strict == nil && lenient != nil {
			t.Fatalf("dev policy is stricter than production for %s", ip)
		}
		for _, err := range []error{strict, lenient} {
			if err != nil && !errors.Is(err, ErrBlockedAddress) {
				t.Fatalf("error %v does not wrap ErrBlockedAddress", err)
			}
		}
		addr := netip.AddrPortFrom(ip, port).String()
		if got := (AddressPolicy{}).control("tcp", addr, nil); (got == nil) != (strict == nil) {
			t.Fatalf("control(%s) = %v, Check = %v", addr, got, strict)
		}
	})
}
