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
type AddressPolicy struct {
	// AllowPrivate lifts the loopback and private-range refusal for dev and
	// tests (FERRY_ALLOW_PRIVATE_ENDPOINTS). Link-local (cloud metadata),
	// multicast and unspecified addresses stay refused.
	AllowPrivate bool
}

// Check returns ErrBlockedAddress (wrapped) when ip may not be dialled.
func (p AddressPolicy) Check(ip netip.Addr) error {
	ip = ip.Unmap() // ::ffff:10.0.0.1 is 10.0.0.1
	switch {
	case !ip.IsValid(), ip.IsUnspecified(), ip.IsMulticast(), ip.IsInterfaceLocalMulticast(),
		ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		return fmt.Errorf("%w: %s", ErrBlockedAddress, ip)
	case ip.IsLoopback(), ip.IsPrivate(), isSharedOrReserved(ip):
		if p.AllowPrivate {
			return nil
		}
		return fmt.Errorf("%w: %s", ErrBlockedAddress, ip)
	}
	return nil
}

var reservedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),     // "this network"
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),  // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"), // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),   // reserved, incl. broadcast
	netip.MustParsePrefix("64:ff9b::/96"),  // NAT64 can reach private IPv4
	netip.MustParsePrefix("2002::/16"),     // 6to4 embeds IPv4
}

func isSharedOrReserved(ip netip.Addr) bool {
	for _, p := range reservedPrefixes {
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
