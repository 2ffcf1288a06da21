package opevents

import (
	"context"
	"log/slog"
	"time"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/internal/clock"
)

// Pending transformations (delivery.FinishPendingTransforms) a process
// left behind are swept this often, once this old, this many at a time.
const (
	sweepEvery = 30 * time.Second
	sweepAfter = time.Minute
	sweepBatch = 100
)

// Sweeper finishes the pending transformations of deliveries a process
// stopped before running (after its commit, Emitter runs them itself).
type Sweeper struct {
	db     *gorm.DB
	router *delivery.Router
	relay  delivery.Enqueuer
	log    *slog.Logger
	clock  clock.Clock
}

// NewSweeper returns a Sweeper; relay nil leaves the finished deliveries
// to the outbox sweeper, clk nil is the system clock.
func NewSweeper(db *gorm.DB, router *delivery.Router, relay delivery.Enqueuer, log *slog.Logger, clk clock.Clock) *Sweeper {
	return &Sweeper{db: db, router: router, relay: relay, log: log, clock: clock.Or(clk)}
}

// Run sweeps every 30 s until ctx ends.
func (s *Sweeper) Run(ctx context.Context) error {
	t := s.clock.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C():
		}
		if err := s.RunOnce(ctx); err != nil {
			s.log.Warn("sweep pending transformations", "err", err)
		}
	}
}

// RunOnce finishes every pending transformation older than a minute, a
// batch at a time. Errors: the first batch's that failed.
func (s *Sweeper) RunOnce(ctx context.Context) error {
	for ctx.Err() == nil {
		fctx, cancel := context.WithTimeout(ctx, finishTimeout)
		n, err := delivery.FinishPendingTransforms(fctx, s.db, s.router, s.relay, sweepAfter, sweepBatch, s.clock.Now())
		cancel()
		if err != nil {
			return err
		}
		if n < sweepBatch {
			return nil
		}
	}
	return nil
}
