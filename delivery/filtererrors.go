package delivery

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/internal/pgval"
)

// A filter that cannot be evaluated on an event (it reads a key the event
// lacks, compares a string with a number) does not match it, so no filter
// can fail an ingest; that is documented behaviour. It must not be silent
// either: each process counts such errors per endpoint and adds them to
// the endpoint every filterErrorFlush, with the latest message, and the
// API shows them on the endpoint until its filter is saved again.

// filterErrorFlush is how often a process adds its counted filter errors
// to the endpoints.
const filterErrorFlush = 5 * time.Second

// maxTalliedEndpoints bounds the endpoints counted between two flushes;
// past it, new endpoints' errors wait for the next interval's count (the
// log line and the process counter still see every one).
const maxTalliedEndpoints = 10_000

// FilterErrors is how often an endpoint's filter failed to evaluate since
// it was last saved (each time the event was not sent to it), and the
// latest error.
type FilterErrors struct {
	Count     int64     `json:"count"`      // events the filter failed on since it was saved
	LastError string    `json:"last_error"` // the latest evaluation error
	LastAt    time.Time `json:"last_at"`    // when the latest one happened
}

// filterTally counts one endpoint's filter errors since the last flush.
type filterTally struct {
	tenantID uuid.UUID
	n        int64
	last     string
}

// filterErrorLog counts filter errors per endpoint in this process.
type filterErrorLog struct {
	mu      sync.Mutex
	tallies map[uuid.UUID]*filterTally
}

func (l *filterErrorLog) add(tenantID, endpointID uuid.UUID, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tallies == nil {
		l.tallies = map[uuid.UUID]*filterTally{}
	}
	t, ok := l.tallies[endpointID]
	if !ok {
		if len(l.tallies) >= maxTalliedEndpoints {
			return
		}
		t = &filterTally{tenantID: tenantID}
		l.tallies[endpointID] = t
	}
	t.n++
	t.last = msg
}

func (l *filterErrorLog) take() map[uuid.UUID]*filterTally {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.tallies
	l.tallies = nil
	return out
}

// RunFilterErrors adds the filter errors this process counted to their
// endpoints every few seconds, until ctx ends (then once more).
func (s *Service) RunFilterErrors(ctx context.Context) error {
	t := time.NewTicker(filterErrorFlush)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			return s.FlushFilterErrors(fctx)
		case <-t.C:
			if err := s.FlushFilterErrors(ctx); err != nil && ctx.Err() == nil {
				s.log.WarnContext(ctx, "record filter errors", "err", err)
			}
		}
	}
}

// FlushFilterErrors adds the filter errors counted since the last flush
// to their endpoints, in one statement. Errors: wrapped database errors
// (the counts are then dropped: they are a diagnostic, not a ledger).
func (s *Service) FlushFilterErrors(ctx context.Context) error {
	tallies := s.router.filterErrors.take()
	if len(tallies) == 0 {
		return nil
	}
	ids, tenants, counts, msgs := make([]uuid.UUID, 0, len(tallies)), make([]uuid.UUID, 0, len(tallies)),
		make([]int64, 0, len(tallies)), make([]string, 0, len(tallies))
	for id, t := range tallies {
		ids, tenants, counts, msgs = append(ids, id), append(tenants, t.tenantID), append(counts, t.n), append(msgs, t.last)
	}
	// Hand-written: every counted endpoint in one UPDATE.
	err := s.db.WithContext(ctx).Exec(`UPDATE endpoints e SET filter_errors = e.filter_errors + v.n,
			last_filter_error = v.msg, last_filter_error_at = ?
		FROM unnest(?::uuid[], ?::uuid[], ?::bigint[], ?::text[]) AS v(id, tenant_id, n, msg)
		WHERE e.id = v.id AND e.tenant_id = v.tenant_id`,
		s.now().UTC(), pgval.Array(ids), pgval.Array(tenants), pgval.Array(counts), pgval.Array(msgs)).Error
	if err != nil {
		return fmt.Errorf("record filter errors of %d endpoints: %w", len(tallies), err)
	}
	return nil
}
