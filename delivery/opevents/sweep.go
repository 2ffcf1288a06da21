package opevents

import (
	"context"
	"log/slog"
	"time"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
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
	now    func() time.Time
	log    *slog.Logger
}

// NewSweeper returns a Sweeper; relay nil leaves the finished deliveries
// to the outbox sweeper, now nil is time.Now.
func NewSweeper(db *gorm.DB, router *delivery.Router, relay delivery.Enqueuer, now func() time.Time, log *slog.Logger) *Sweeper {
	if now == nil {
		now = time.Now
	}
	return &Sweeper{db: db, router: router, relay: relay, now: now, log: log}
}

// Run sweeps every 30 s until ctx ends.
func (s *Sweeper) Run(ctx context.Context) error {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
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
		n, err := delivery.FinishPendingTransforms(fctx, s.db, s.router, s.relay, sweepAfter, sweepBatch, s.now())
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
