package inbound

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
)

// Limits is what inbound needs from billing: the plan's bounds on a
// tenant's sources and on the bytes its sources capture per month, and a
// meter for those bytes. app plugs billing in.
type Limits interface {
	// CaptureLimits returns tenantID's bounds and this month's metered
	// usage. Errors: ENOTFOUND, wrapped database errors.
	CaptureLimits(ctx context.Context, tenantID uuid.UUID) (CaptureLimits, error)
	// MeterCapturedBytes adds the bytes captured per tenant to the month
	// of at. Errors: wrapped database errors.
	MeterCapturedBytes(ctx context.Context, usage map[uuid.UUID]int64, at time.Time) error
}

// CaptureLimits are a tenant's bounds on inbound sources.
type CaptureLimits struct {
	MaxSources    int
	BytesPerMonth int64
	// UsedBytes is this month's usage as metered when read.
	UsedBytes int64
	// MonthEnds is when the month's bytes start over.
	MonthEnds time.Time
}

// A capture is stored only while its tenant's month has bytes left, so a
// source flooded with requests (or a tenant keeping every request) cannot
// fill the database for everyone. Each process counts what it captures
// and adds it to billing's meter every JobInterval; it reads the metered
// total again at most every quotaTTL, so replicas learn of each other's
// captures within that time. A month's bytes can therefore be overshot by
// what all replicas capture in about quotaTTL + JobInterval, never more.
const (
	quotaTTL = 5 * time.Second
	// maxQuotaStates bounds the tenants whose state is kept; past it
	// stale states are dropped (they are read again when needed).
	maxQuotaStates = 100_000
)

// captureQuota counts captured bytes per tenant in this process.
type captureQuota struct {
	limits Limits

	mu      sync.Mutex
	states  map[uuid.UUID]*quotaState
	pending map[uuid.UUID]int64 // captured, not yet metered
}

// quotaState is a tenant's limits as read, and what this process has
// captured for it since.
type quotaState struct {
	limits    CaptureLimits
	loadedAt  time.Time
	sinceLoad int64
}

func newCaptureQuota(l Limits) *captureQuota {
	return &captureQuota{limits: l, states: map[uuid.UUID]*quotaState{}, pending: map[uuid.UUID]int64{}}
}

// state returns tenantID's quota state, read again when stale. Errors:
// what Limits.CaptureLimits returns.
func (q *captureQuota) state(ctx context.Context, tenantID uuid.UUID, now time.Time) (*quotaState, error) {
	q.mu.Lock()
	st, ok := q.states[tenantID]
	q.mu.Unlock()
	if ok && now.Sub(st.loadedAt) < quotaTTL && now.Before(st.limits.MonthEnds) {
		return st, nil
	}
	l, err := q.limits.CaptureLimits(ctx, tenantID)
	if err != nil {
		return nil, fmt.Errorf("capture limits of tenant %s: %w", tenantID, err)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.states) >= maxQuotaStates {
		for id, old := range q.states {
			if now.Sub(old.loadedAt) >= quotaTTL {
				delete(q.states, id)
			}
		}
	}
	// What was metered is in l.UsedBytes; what this process has not
	// metered yet is not.
	st = &quotaState{limits: l, loadedAt: now, sinceLoad: q.pending[tenantID]}
	q.states[tenantID] = st
	return st, nil
}

// allow returns EQUOTA when storing n more bytes for tenantID would go
// past its month's bytes.
func (q *captureQuota) allow(ctx context.Context, tenantID uuid.UUID, n int64, now time.Time) error {
	if q == nil {
		return nil
	}
	st, err := q.state(ctx, tenantID, now)
	if err != nil {
		return err
	}
	q.mu.Lock()
	used := st.limits.UsedBytes + st.sinceLoad
	q.mu.Unlock()
	if used+n > st.limits.BytesPerMonth {
		return &ferry.Error{Code: ferry.EQUOTA, RetryAfterSeconds: max(1, int(st.limits.MonthEnds.Sub(now).Seconds())),
			Message: fmt.Sprintf("this account's sources have captured their %s for the month; requests are refused until %s",
				ferry.FormatBytes(int(min(st.limits.BytesPerMonth, 1<<62))), st.limits.MonthEnds.Format("2006-01-02"))}
	}
	return nil
}

// record counts n bytes stored for tenantID.
func (q *captureQuota) record(tenantID uuid.UUID, n int64) {
	if q == nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending[tenantID] += n
	if st, ok := q.states[tenantID]; ok {
		st.sinceLoad += n
	}
}

// flush meters what was captured since the last flush; on failure it is
// kept for the next one.
func (q *captureQuota) flush(ctx context.Context, now time.Time) error {
	if q == nil {
		return nil
	}
	q.mu.Lock()
	usage := q.pending
	q.pending = map[uuid.UUID]int64{}
	q.mu.Unlock()
	if err := q.limits.MeterCapturedBytes(ctx, usage, now); err != nil {
		q.mu.Lock()
		for id, n := range usage {
			q.pending[id] += n
		}
		q.mu.Unlock()
		return err
	}
	return nil
}

// captureSize is what a capture costs against the month's bytes: its
// body, headers, path and query.
func captureSize(r requestRow) int64 {
	n := len(r.Body) + len(r.Path) + len(r.Query) + len(r.Method)
	for k, vs := range r.Headers.V {
		for _, v := range vs {
			n += len(k) + len(v)
		}
	}
	return int64(n)
}

// checkSourceLimit returns EPLANLIMIT when tenantID already has as many
// sources as its plan allows. It runs in tx, under a per-tenant lock
// held until tx ends, so concurrent creations cannot overshoot.
func (s *Service) checkSourceLimit(ctx context.Context, tx *gorm.DB, tenantID uuid.UUID) error {
	if s.quota == nil {
		return nil
	}
	// Hand-written: an advisory lock has no query-builder form.
	if err := tx.Exec(`SELECT pg_advisory_xact_lock(hashtextextended('ferry.sources:' || ?::text, 0))`, tenantID).Error; err != nil {
		return fmt.Errorf("lock sources of tenant %s: %w", tenantID, err)
	}
	l, err := s.quota.limits.CaptureLimits(ctx, tenantID)
	if err != nil {
		return fmt.Errorf("capture limits of tenant %s: %w", tenantID, err)
	}
	var n int64
	if err := tx.Model(&sourceRow{}).Scopes(forTenant(tenantID)).Where("deleted_at IS NULL").Count(&n).Error; err != nil {
		return fmt.Errorf("count sources of tenant %s: %w", tenantID, err)
	}
	if n >= int64(l.MaxSources) {
		return &ferry.Error{Code: ferry.EPLANLIMIT,
			Message: fmt.Sprintf("your plan allows %d sources; delete one or upgrade your plan", l.MaxSources)}
	}
	return nil
}
