package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/queue"
)

// Defaults of Deps.
const (
	defaultWriteTimeout       = 30 * time.Second
	defaultStreamAuthInterval = 30 * time.Second
)

// queueStream serves Server-Sent Events: each leased message is an
// "event: message" whose data is the message as pull returns it; a
// comment line keeps the connection alive while the queue is empty. The
// stream ends when the client goes away, Ferry shuts down, or the
// credential that opened it no longer would (checked every
// StreamAuthInterval: then an "event: error" in the API's error shape is
// the last thing sent). A client that hangs up gets nothing more leased;
// a message leased but not written goes back to the queue at once (one
// written into the socket just before the client vanished returns when
// its lease runs out).
//
// fasthttp applies the server's WriteTimeout as one deadline for the
// whole response, set when the handler returns, which would cut every
// stream at WriteTimeout. So each write of the stream moves the
// connection's write deadline to WriteTimeout from then: a stream lasts
// as long as its client reads, and a client that stops reading is still
// cut off WriteTimeout into a write it does not take.
func (s *server) queueStream(c *fiber.Ctx) error {
	id, err := queueID(c)
	if err != nil {
		return err
	}
	vis := 0
	if v := c.Query("visibility_seconds"); v != "" {
		if vis, err = strconv.Atoi(v); err != nil || vis == 0 {
			return ferry.Invalid("visibility_seconds", "visibility_seconds must be between 1 and %d", queue.MaxVisibilitySeconds)
		}
	}
	cred, err := s.credentialOf(c)
	if err != nil {
		return err
	}
	tenantID := principal(c).TenantID
	stream, err := s.Queues.OpenStream(c.UserContext(), tenantID, id, vis)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Accel-Buffering", "no")
	// The fiber.Ctx is not valid once the handler returns: the writer
	// runs on its own context, ended when the client hangs up, the queue
	// service stops or the credential is revoked. The connection stays
	// valid while the writer runs. fasthttp starts the writer at once,
	// whatever happens to the response, so its deferred Close always
	// gives the stream's waiting slot back.
	sw := &streamWriter{conn: c.Context().Conn(), writeTimeout: s.writeTimeout()}
	done := s.Queues.Done()
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer stream.Close()
		sw.w = w
		// The server's read deadline was for reading the request; the
		// watch for a client hanging up must last as long as the stream.
		_ = sw.conn.SetReadDeadline(time.Time{})
		base, cancel := context.WithCancelCause(context.Background())
		defer cancel(nil)
		ctx, stop := watchClient(base, sw.conn)
		defer stop()
		go s.guardStream(ctx, cancel, done, cred, tenantID, id)
		if !sw.send(": stream open\n\n") {
			return
		}
		for ctx.Err() == nil {
			msgs, err := stream.Next(ctx)
			if err != nil {
				s.Log.Warn("queue stream failed", "err", err, "tenant_id", tenantID, "endpoint_id", id)
				sw.sendError(err)
				return
			}
			if !sw.events(msgs) {
				// Leased but not delivered: back to the queue at once.
				stream.Unsent(context.Background())
				return
			}
		}
		if cause := context.Cause(base); cause != nil && !errors.Is(cause, context.Canceled) {
			sw.sendError(cause)
		}
	})
	return nil
}

// guardStream ends a stream (cancel) when the queue service stops, and
// re-checks every StreamAuthInterval that the stream's credential would
// still open it: a revoked API key or consumer token, an ended session,
// a removed member or a lowered role end it with that error as cause.
// It returns when ctx ends.
func (s *server) guardStream(ctx context.Context, cancel context.CancelCauseFunc, done <-chan struct{}, cred credential,
	tenantID, endpointID uuid.UUID) {
	t := time.NewTicker(s.streamAuthInterval())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-done:
			cancel(nil)
			return
		case <-t.C:
			if err := s.recheckQueueCredential(ctx, cred, tenantID, endpointID); err != nil {
				if ctx.Err() == nil {
					cancel(err)
				}
				return
			}
		}
	}
}

// recheckQueueCredential re-runs the lookup queueAuth made: a consumer
// token must be live and still name this queue; an API key or session
// must still authenticate a caller of the tenant allowed to consume.
// Errors: EUNAUTHORIZED, EFORBIDDEN, wrapped database errors.
func (s *server) recheckQueueCredential(ctx context.Context, cred credential, tenantID, endpointID uuid.UUID) error {
	gone := ferry.Errorf(ferry.EUNAUTHORIZED, "the credential that opened this stream no longer grants access to this queue")
	if cred.session == "" && queue.LooksLikeToken(cred.bearer) {
		scope, err := s.Queues.Authenticate(ctx, cred.bearer)
		if err != nil {
			return err
		}
		if scope.TenantID != tenantID || scope.EndpointID != endpointID {
			return gone
		}
		return nil
	}
	p, err := s.principalOf(ctx, cred)
	if err != nil {
		return err
	}
	if err := permit(p, sessionOrKey, queueConsumeRole); err != nil {
		return err
	}
	if p.TenantID != tenantID {
		return gone
	}
	return nil
}

// streamWriter writes a stream's events, each flushed at once under its
// own write deadline (see queueStream).
type streamWriter struct {
	conn         net.Conn
	writeTimeout time.Duration
	w            *bufio.Writer
}

// send writes and flushes text; false means the client is gone.
func (sw *streamWriter) send(text string) bool {
	// The flush hands the bytes to the server's goroutine, which writes
	// them to the connection: the deadline it meets is this one.
	_ = sw.conn.SetWriteDeadline(time.Now().Add(sw.writeTimeout))
	if _, err := sw.w.WriteString(text); err != nil {
		return false
	}
	return sw.w.Flush() == nil
}

// events writes msgs as SSE message events, or a keep-alive comment
// when there are none; false means the client is gone.
func (sw *streamWriter) events(msgs []queue.Message) bool {
	if len(msgs) == 0 {
		return sw.send(": keep-alive\n\n")
	}
	var b []byte
	for _, m := range msgs {
		data, err := json.Marshal(m)
		if err != nil {
			return false
		}
		b = append(b, "event: message\ndata: "...)
		b = append(b, data...)
		b = append(b, "\n\n"...)
	}
	return sw.send(string(b))
}

// sendError ends the stream with an "event: error" whose data is the
// API's error body: the code and message of a *ferry.Error (a revoked
// credential is unauthorized), and for anything else a generic one (its
// cause is not the client's business).
func (sw *streamWriter) sendError(err error) {
	var fe *ferry.Error
	if !errors.As(err, &fe) {
		fe = &ferry.Error{Code: ferry.EINTERNAL, Message: "stream failed"}
		if unavailable(err) {
			fe = &ferry.Error{Code: ferry.EUNAVAILABLE, Message: "Ferry cannot reach its database right now; reconnect shortly"}
		}
	}
	data, mErr := json.Marshal(errorBody{Error: errorDetail{Code: fe.Code, Message: fe.Message, Field: fe.Field}})
	if mErr != nil {
		return
	}
	sw.send("event: error\ndata: " + string(data) + "\n\n")
}

// writeTimeout is the server's WriteTimeout.
func (s *server) writeTimeout() time.Duration {
	if s.WriteTimeout > 0 {
		return s.WriteTimeout
	}
	return defaultWriteTimeout
}

// streamAuthInterval is how often a stream re-checks its credential.
func (s *server) streamAuthInterval() time.Duration {
	if s.StreamAuthInterval > 0 {
		return s.StreamAuthInterval
	}
	return defaultStreamAuthInterval
}
