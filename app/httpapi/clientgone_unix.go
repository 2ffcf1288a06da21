//go:build linux || darwin || freebsd || netbsd || openbsd

package httpapi

import (
	"context"
	"errors"
	"net"
	"syscall"
	"time"
)

// watchClient returns a context that ends when the client on conn hangs
// up, for long-polls and streams that must not lease messages for a
// consumer that has gone. fasthttp runs a handler on its connection's
// goroutine and reads nothing from the connection meanwhile, so it never
// notices a client closing during a long handler (valyala/fasthttp#468,
// #965; RequestCtx.Done only ends at server shutdown). Here a goroutine
// waits in the runtime's network poller until the socket is readable and
// then peeks at it (MSG_PEEK leaves any bytes for fasthttp): end of stream
// or an error means the client is gone; bytes (a pipelined request) end
// the watch without a verdict.
//
// Call stop before the handler returns: it ends the poller wait by moving
// the read deadline to now, which fasthttp resets before reading the next
// request on the connection (it sets the idle and read timeouts the
// server is configured with for each request). A connection that is not
// a plain socket (TLS terminated here) is not watched.
func watchClient(parent context.Context, conn net.Conn) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return ctx, cancel
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return ctx, cancel
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		gone := false
		var buf [1]byte
		// The error is the deadline stop sets, or one that says nothing
		// of the client; only what the peek saw counts.
		_ = rc.Read(func(fd uintptr) bool {
			n, _, err := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
			switch {
			case errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EINTR):
				return false // nothing yet: wait in the poller
			case err != nil || n == 0:
				gone = true
			}
			return true
		})
		if gone {
			cancel()
		}
	}()
	return ctx, func() {
		_ = conn.SetReadDeadline(time.Now())
		<-done
		cancel()
	}
}
