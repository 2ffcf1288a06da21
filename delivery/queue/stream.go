package queue

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// streamWait is how long one Stream.Next waits before returning nothing,
// so the caller can send a keep-alive.
const streamWait = 15 * time.Second

// Stream leases a queue's messages one at a time for a long-lived
// consumer (Server-Sent Events), like a pull of one that always waits.
// It holds a waiting slot of its tenant and queue until Close.
type Stream struct {
	s        *Service
	tenantID uuid.UUID
	ep       endpointInfo
	p        pullParams
	release  func()
	// last is what the latest Next leased.
	last []leasedRow
}

// OpenStream checks the queue and the lease length (visibilitySeconds 0
// means the default), takes a waiting slot and returns a Stream; Close
// it when done. Errors: EINVALID, ENOTFOUND, ERATELIMIT (no slot free).
func (s *Service) OpenStream(ctx context.Context, tenantID, endpointID uuid.UUID, visibilitySeconds int) (*Stream, error) {
	in := PullInput{}
	if visibilitySeconds != 0 {
		in.VisibilitySeconds = &visibilitySeconds
	}
	p, err := in.validate()
	if err != nil {
		return nil, err
	}
	release, err := s.slots.acquire(tenantID, endpointID)
	if err != nil {
		return nil, err
	}
	ep, err := s.queueEndpoint(ctx, tenantID, endpointID)
	if err != nil {
		release()
		return nil, err
	}
	p.wait = streamWait
	return &Stream{s: s, tenantID: tenantID, ep: ep, p: p, release: release}, nil
}

// Next leases the next message, waiting up to 15 s; it returns none when
// the wait ends, ctx ends or the Service stops (see Done). A message
// leased as ctx ends goes back to the queue at once.
func (st *Stream) Next(ctx context.Context) ([]Message, error) {
	msgs, rows, err := st.s.pullRows(ctx, st.tenantID, st.ep, st.p)
	st.last = rows
	return msgs, err
}

// Unsent hands the messages of the latest Next back to the queue at once,
// as if never leased, when they could not be written to the consumer.
func (st *Stream) Unsent(ctx context.Context) {
	st.s.release(ctx, st.tenantID, st.ep.ID, st.last)
	st.last = nil
}

// Close gives the stream's waiting slot back; it may be called more
// than once.
func (st *Stream) Close() { st.release() }
