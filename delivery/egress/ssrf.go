package egress

import (
	"errors"
	"fmt"
	"net/netip"
	"syscall"
)

// ErrBlockedAddress is returned by the dialer when an endpoint resolves to
// an address the SSRF guard refuses.
var ErrBlockedAddress = errors.New("address not allowed")

// AddressPolicy decides which resolved addresses Ferry may connect to.
// It is applied by the dialer at connect time, after DNS, so a name that
// resolves to a public address at creation and a private one later (DNS
// rebinding) is still refused.
//
// Three tiers:
//   - always refused, whatever the mode: unspecified, multicast,
//     link-local (169.254.0.0/16, fe80::/10, which hold most cloud
//     metadata services), every other known cloud-metadata address
//     (fd00:ec2::/32, 100.100.100.200, 192.0.0.192, 168.63.129.16), and
//     every IPv6 form that carries an IPv4 address inside it (IPv4-
//     compatible ::/96, SIIT ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and
//     64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32), since the IPv4
//     inside would bypass the IPv4 rules. IPv4-mapped addresses
//     (::ffff:a.b.c.d) are judged as the IPv4 address they map;
//   - refused unless AllowPrivate: loopback, private (RFC 1918, fc00::/7),
//     shared and reserved ranges, documentation and benchmarking ranges,
//     site-local fec0::/10 and the IETF protocol block 2001::/23;
//   - everything else (public unicast) is allowed.
type AddressPolicy struct {
	// AllowPrivate lifts the loopback and private-range refusal for dev and
	// tests (FERRY_ALLOW_PRIVATE_ENDPOINTS). The always-refused tier stays
	// refused.
	AllowPrivate bool
}

// Check returns ErrBlockedAddress (wrapped) when ip may not be dialled.
func (p AddressPolicy) Check(ip netip.Addr) error {
	if !ip.IsValid() {
		return fmt.Errorf("%w: invalid address", ErrBlockedAddress)
	}
	ip = ip.Unmap().WithZone("") // ::ffff:10.0.0.1 is 10.0.0.1
	if alwaysRefused(ip) {
		return fmt.Errorf("%w: %s", ErrBlockedAddress, ip)
	}
	if !p.AllowPrivate && privateOrReserved(ip) {
		return fmt.Errorf("%w: %s", ErrBlockedAddress, ip)
	}
	return nil
}

// metadataPrefixes are cloud instance-metadata and platform services
// outside the link-local ranges.
var metadataPrefixes = []netip.Prefix{
	netip.MustParsePrefix("fd00:ec2::/32"),      // AWS IMDS, DNS and time over IPv6
	netip.MustParsePrefix("100.100.100.200/32"), // Alibaba Cloud metadata
	netip.MustParsePrefix("192.0.0.192/32"),     // Oracle Cloud metadata
	netip.MustParsePrefix("168.63.129.16/32"),   // Azure wire server
}

// embeddingPrefixes are IPv6 ranges whose addresses carry an IPv4 address
// that a translator or tunnel would reach.
var embeddingPrefixes = []netip.Prefix{
	netip.MustParsePrefix("::/96"),           // IPv4-compatible (deprecated)
	netip.MustParsePrefix("::ffff:0:0:0/96"), // SIIT IPv4-translated
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64 well-known prefix
	netip.MustParsePrefix("64:ff9b:1::/48"),  // NAT64 local-use prefix
	netip.MustParsePrefix("2002::/16"),       // 6to4
	netip.MustParsePrefix("2001::/32"),       // Teredo
}

// reservedPrefixes are refused unless private addresses are allowed.
var reservedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, incl. broadcast
	netip.MustParsePrefix("100::/64"),        // discard
	netip.MustParsePrefix("2001::/23"),       // IETF protocol assignments
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}

// alwaysRefused reports the addresses no mode may dial.
func alwaysRefused(ip netip.Addr) bool {
	if ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast() ||
		ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() {
		return true
	}
	if ip.IsLoopback() { // ::1 lies in ::/96 but is plain loopback
		return false
	}
	return inAny(ip, metadataPrefixes) || inAny(ip, embeddingPrefixes)
}

// privateOrReserved reports loopback, private and reserved addresses.
func privateOrReserved(ip netip.Addr) bool {
	return ip.IsLoopback() || ip.IsPrivate() || inAny(ip, reservedPrefixes)
}

func inAny(ip netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// control is a net.Dialer Control function enforcing the policy on the
// address actually being connected to.
func (p AddressPolicy) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: unparsable %q", ErrBlockedAddress, address)
	}
	return p.Check(ap.Addr())
}
