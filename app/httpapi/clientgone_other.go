//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package httpapi

import (
	"context"
	"net"
)

// watchClient cannot peek at sockets on this platform: the context ends
// only with parent, and leases of a vanished long-poll run out as usual.
func watchClient(parent context.Context, _ net.Conn) (ctx context.Context, stop func()) {
	return context.WithCancel(parent)
}
