// Package opevents emits operational events: Ferry tells a tenant about
// its own account (endpoint health, exhausted deliveries, quota) with
// events of the tenant itself, delivered to the tenant's endpoints that
// subscribe to them (docs/api.md: Operational events). The Emitter stores
// them inside the transaction that caused them (delivery.EmitOperational),
// and after the commit hands their deliveries to the relay, runs the
// transformations that could not run inside it, and tells the Notifier.
// The Sweeper finishes the transformations a stopped process left behind.
package opevents

import (
	"context"
	"log/slog"
	"time"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/internal/clock"
)

// Notifier hears of operational events once they are committed, to tell
// people about them (email). It must not block for long: it runs on the
// goroutine that committed the event. app wires the mailer when there is
// one; NopNotifier is the default.
type Notifier interface {
	OperationalEvent(ctx context.Context, ev model.OperationalEvent)
}

// NopNotifier tells nobody.
type NopNotifier struct{}

// OperationalEvent does nothing.
func (NopNotifier) OperationalEvent(context.Context, model.OperationalEvent) {}

// finishTimeout bounds running the transformations of one commit's
// operational events, or one sweep's batch.
const finishTimeout = time.Minute

// Emitter stores operational events and does what follows their commit.
type Emitter struct {
	db *gorm.DB
	// router applies endpoints' filters and transformations (nil: every
	// subscribed endpoint, untransformed).
	router *delivery.Router
	// relay publishes the events' deliveries once committed; nil leaves
	// them to the outbox sweeper.
	relay    delivery.Enqueuer
	notifier Notifier
	log      *slog.Logger
	clock    clock.Clock
}

// NewEmitter returns an Emitter. router, relay and notifier may be nil;
// clk nil is the system clock.
func NewEmitter(db *gorm.DB, router *delivery.Router, relay delivery.Enqueuer, notifier Notifier, log *slog.Logger,
	clk clock.Clock) *Emitter {
	if notifier == nil {
		notifier = NopNotifier{}
	}
	return &Emitter{db: db, router: router, relay: relay, notifier: notifier, log: log, clock: clock.Or(clk)}
}

// Emit stores evs in tx, an open transaction other work shares (the
// attempt log's batch), and returns what to run once tx has committed.
// It satisfies attemptlog.Follower. Errors: wrapped database errors.
func (e *Emitter) Emit(ctx context.Context, tx store.Tx, evs []model.OperationalEvent, now time.Time) (after func(context.Context), err error) {
	if len(evs) == 0 {
		return func(context.Context) {}, nil
	}
	emitted, jobs, pending, err := delivery.EmitOperational(ctx, tx, e.router, evs, now)
	if err != nil {
		return nil, err
	}
	return e.after(emitted, jobs, pending), nil
}

// EmitInOwnTx stores evs in a transaction of its own, does what follows
// at once, and returns the events it emitted (an event whose idempotency
// key the tenant already holds is not emitted again).
func (e *Emitter) EmitInOwnTx(ctx context.Context, evs []model.OperationalEvent) ([]model.OperationalEvent, error) {
	var emitted []model.OperationalEvent
	var after func(context.Context)
	err := e.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var jobs []model.Job
		var pending delivery.PendingTransforms
		var err error
		emitted, jobs, pending, err = delivery.EmitOperational(ctx, store.Gorm(tx), e.router, evs, e.clock.Now())
		if err != nil {
			return err
		}
		after = e.after(emitted, jobs, pending)
		return nil
	})
	if err != nil {
		return nil, err
	}
	after(ctx)
	return emitted, nil
}

func (e *Emitter) after(emitted []model.OperationalEvent, jobs []model.Job, pending delivery.PendingTransforms) func(context.Context) {
	return func(ctx context.Context) {
		if len(jobs) > 0 && e.relay != nil {
			e.relay.Enqueue(jobs)
		}
		if len(pending) > 0 {
			// Off the committing goroutine: the next batch, whoever's
			// work it holds, does not wait on these transformations.
			go e.finish(context.WithoutCancel(ctx), pending)
		}
		for _, ev := range emitted {
			e.notifier.OperationalEvent(ctx, ev)
		}
	}
}

// finish runs the transformations of operational events' deliveries made
// by a committed transaction and hands those deliveries to the relay;
// what fails here, the Sweeper finishes.
func (e *Emitter) finish(ctx context.Context, pending delivery.PendingTransforms) {
	ctx, cancel := context.WithTimeout(ctx, finishTimeout)
	defer cancel()
	if err := delivery.FinishTransforms(ctx, e.db, e.router, e.relay, pending, e.clock.Now()); err != nil {
		e.log.Warn("operational events' transformations not finished; the sweep retries them", "err", err)
	}
}
