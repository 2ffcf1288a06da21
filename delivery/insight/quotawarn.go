package insight

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/clock"
)

// QuotaUsage is what quota warnings ask billing; app plugs billing in.
type QuotaUsage interface {
	// MonthlyEvents returns the tenant's events this month against its
	// plan. Errors: ENOTFOUND, wrapped database errors.
	MonthlyEvents(ctx context.Context, tenantID uuid.UUID) (MonthlyUsage, error)
}

// MonthlyUsage is a tenant's use of its monthly events.
type MonthlyUsage struct {
	// Period is the first instant of the month (UTC).
	Period time.Time
	Used   int64
	Limit  int64
	// HardCap is true when the plan refuses events past Limit; only such
	// plans are warned about.
	HardCap bool
}

// QuotaWarnerConfig tunes the QuotaWarner.
type QuotaWarnerConfig struct {
	// Interval between checks of the tenants that sent events since the
	// last one (default 2 s).
	Interval time.Duration
	// Events stores the warnings and does what follows their commit.
	Events Emitter
}

// QuotaWarner emits ferry.quota.warning when a tenant on a hard-capped
// plan reaches 80 % and 100 % of its monthly events: once per threshold
// and month (the idempotency key names both). It checks the tenants
// ingest told it about (EventsAccepted), off the ingest path, so an event
// costs a map insert; the warning follows within Interval.
type QuotaWarner struct {
	db    *gorm.DB
	usage QuotaUsage
	cfg   QuotaWarnerConfig
	log   *slog.Logger
	clock clock.Clock

	mu      sync.Mutex
	touched map[uuid.UUID]struct{}
}

// NewQuotaWarner returns a QuotaWarner; call Run to start it. clk nil is
// the system clock.
func NewQuotaWarner(db *gorm.DB, usage QuotaUsage, cfg QuotaWarnerConfig, log *slog.Logger, clk clock.Clock) *QuotaWarner {
	cfg.Interval = cmp.Or(cfg.Interval, 2*time.Second)
	return &QuotaWarner{db: db, usage: usage, cfg: cfg, log: log, clock: clock.Or(clk), touched: map[uuid.UUID]struct{}{}}
}

// EventsAccepted notes that tenantID's usage grew; it never blocks on I/O.
func (w *QuotaWarner) EventsAccepted(tenantID uuid.UUID) {
	w.mu.Lock()
	w.touched[tenantID] = struct{}{}
	w.mu.Unlock()
}

// Run checks the noted tenants every Interval until ctx ends.
func (w *QuotaWarner) Run(ctx context.Context) error {
	t := w.clock.NewTicker(w.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C():
		}
		w.RunOnce(ctx)
	}
}

// RunOnce checks the tenants noted since the last check; one whose check
// fails is noted again, for the next.
func (w *QuotaWarner) RunOnce(ctx context.Context) {
	w.mu.Lock()
	tenants := w.touched
	w.touched = map[uuid.UUID]struct{}{}
	w.mu.Unlock()
	for id := range tenants {
		if err := w.Check(ctx, id); err != nil && ctx.Err() == nil {
			w.log.Warn("quota warning check failed", "tenant_id", id, "err", err)
			w.EventsAccepted(id) // try again next time
		}
	}
}

// Check emits the quota warnings tenantID is due. Errors: wrapped
// database errors and those of QuotaUsage.
func (w *QuotaWarner) Check(ctx context.Context, tenantID uuid.UUID) error {
	u, err := w.usage.MonthlyEvents(ctx, tenantID)
	if err != nil {
		return fmt.Errorf("monthly usage of tenant %s: %w", tenantID, err)
	}
	if !u.HardCap || u.Limit <= 0 {
		return nil
	}
	var evs []model.OperationalEvent
	period := u.Period.UTC().Format("2006-01")
	for _, pct := range []int{80, 100} {
		if u.Used*100 >= u.Limit*int64(pct) {
			evs = append(evs, model.OperationalEvent{TenantID: tenantID, Type: model.OpQuotaWarning,
				Key:  fmt.Sprintf("%s:%s:%d", model.OpQuotaWarning, period, pct),
				Data: model.QuotaWarningData{Period: period, Percent: pct, Used: u.Used, Limit: u.Limit}})
		}
	}
	if len(evs) == 0 {
		return nil
	}
	emitted, err := w.cfg.Events.EmitInOwnTx(ctx, evs)
	if err != nil {
		return err
	}
	for _, ev := range emitted {
		w.log.Info("quota warning emitted", "tenant_id", tenantID, "key", ev.Key)
	}
	return nil
}

// Emitter stores operational events in a transaction of its own and
// returns those it emitted (opevents.Emitter).
type Emitter interface {
	EmitInOwnTx(ctx context.Context, evs []model.OperationalEvent) ([]model.OperationalEvent, error)
}
