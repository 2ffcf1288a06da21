package dispatch

import (
	"context"
	"sync"
	"testing"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/opevents"
)

// fakeEnqueuer records what ingest hands to the relay.
type fakeEnqueuer struct {
	mu   sync.Mutex
	jobs []model.Job
}

var _ delivery.Enqueuer = (*fakeEnqueuer)(nil)

func (f *fakeEnqueuer) Enqueue(jobs []model.Job) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.jobs = append(f.jobs, jobs...)
}

func (f *fakeEnqueuer) all() []model.Job {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]model.Job(nil), f.jobs...)
}

// newAttemptLog returns an attempt log that writes nothing until its Run
// is started.
func newAttemptLog(db *gorm.DB) *attemptlog.Log {
	return attemptlog.New(db, attemptlog.Config{Events: opevents.NewEmitter(db, nil, nil, nil, deliverytest.Logger(), nil)}, deliverytest.Logger(), nil)
}

// startAttemptLog runs an attempt log until the test ends.
func startAttemptLog(t *testing.T, db *gorm.DB) *attemptlog.Log {
	t.Helper()
	l := newAttemptLog(db)
	deliverytest.Run(t, context.Background(), l.Run)
	return l
}

// runDispatcher runs d until the test ends.
func runDispatcher(t *testing.T, ctx context.Context, d *Dispatcher) {
	t.Helper()
	deliverytest.Run(t, ctx, d.Run)
}
