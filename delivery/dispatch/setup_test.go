package dispatch

import (
	"context"
	"sync"
	"testing"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
)

// fakeEnqueuer records what ingest hands to the relay.
type fakeEnqueuer struct {
	mu   sync.Mutex
	jobs []delivery.Job
}

var _ delivery.Enqueuer = (*fakeEnqueuer)(nil)

func (f *fakeEnqueuer) Enqueue(jobs []delivery.Job) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.jobs = append(f.jobs, jobs...)
}

func (f *fakeEnqueuer) all() []delivery.Job {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]delivery.Job(nil), f.jobs...)
}

// startAttemptLog runs an attempt log until the test ends.
func startAttemptLog(t *testing.T, db *gorm.DB) *attemptlog.Log {
	t.Helper()
	l := attemptlog.New(db, attemptlog.Config{}, deliverytest.Logger(), nil)
	deliverytest.Run(t, context.Background(), l.Run)
	return l
}

// runDispatcher runs d until the test ends.
func runDispatcher(t *testing.T, ctx context.Context, d *Dispatcher) {
	t.Helper()
	deliverytest.Run(t, ctx, d.Run)
}
