package opevents_test

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/opevents"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/delivery/routing/sandbox"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/internal/seal"
)

// relay records the jobs handed to it.
type relay struct {
	mu   sync.Mutex
	jobs []model.Job
}

func (r *relay) Enqueue(jobs []model.Job) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.jobs = append(r.jobs, jobs...)
}

func (r *relay) all() []model.Job {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]model.Job(nil), r.jobs...)
}

// notifier records the events it is told of.
type notifier struct {
	mu  sync.Mutex
	evs []model.OperationalEvent
}

func (n *notifier) OperationalEvent(_ context.Context, ev model.OperationalEvent) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.evs = append(n.evs, ev)
}

// TestEmitterAndSweeper: an operational event emitted in a transaction
// reaches a plain subscriber through the relay and the notifier once the
// emitter's after runs; the subscriber with a transformation gets its
// delivery only after the transformation ran outside the transaction. A
// process that stopped before running after leaves the transformed
// delivery pending: the Sweeper finishes it once it is a minute old, and
// only once.
func TestEmitterAndSweeper(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := deliverytest.DB(t)
	log := slog.New(slog.DiscardHandler)
	router, err := delivery.NewRouter(routing.Config{}, sandbox.Config{}, log)
	require.NoError(t, err)
	t.Cleanup(func() { router.Close() })
	cipher, err := seal.New(bytes.Repeat([]byte{3}, 32))
	require.NoError(t, err)
	clk := clock.NewManual(time.Now().UTC())
	svc, err := delivery.NewService(db, cipher, &relay{}, nil, delivery.Config{AllowHTTP: true, Router: router,
		AddressPolicy: egress.AddressPolicy{AllowPrivate: true}}, log, clk.Now)
	require.NoError(t, err)
	tenantID := uuid.New()
	require.NoError(t, db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 'ops')`, tenantID).Error)
	plain, _, err := svc.CreateEndpoint(ctx, tenantID, delivery.EndpointInput{URL: "http://127.0.0.1:9/plain", EventTypes: []string{"ferry.*"}})
	require.NoError(t, err)
	shaped, _, err := svc.CreateEndpoint(ctx, tenantID, delivery.EndpointInput{URL: "http://127.0.0.1:9/shaped", EventTypes: []string{"ferry.*"},
		Transformation: `function handler(w) { w.payload = {text: w.event.type}; return w }`})
	require.NoError(t, err)

	var rl relay
	var nt notifier
	em := opevents.NewEmitter(db, router, &rl, &nt, log, clk)
	emit := func() func(context.Context) {
		t.Helper()
		var after func(context.Context)
		require.NoError(t, db.Transaction(func(tx *gorm.DB) error {
			var err error
			after, err = em.Emit(ctx, store.Gorm(tx), []model.OperationalEvent{{TenantID: tenantID, Type: model.OpEndpointFailing,
				Key: uuid.NewString(), Data: map[string]any{"n": 1}}}, clk.Now())
			return err
		}))
		return after
	}
	endpointsOf := func(jobs []model.Job) []uuid.UUID {
		var ids []uuid.UUID
		for _, j := range jobs {
			ids = append(ids, j.EndpointID)
		}
		return ids
	}

	emit()(ctx)
	require.Eventually(t, func() bool { return len(rl.all()) == 2 }, 10*time.Second, 10*time.Millisecond,
		"the plain delivery at once, the transformed one once its transformation ran")
	require.ElementsMatch(t, []uuid.UUID{plain.ID, shaped.ID}, endpointsOf(rl.all()))
	require.Len(t, nt.evs, 1)

	// Stopped before after ran: nothing publishes the deliveries, and the
	// transformed one has no outbox row until the sweep runs it.
	rl = relay{}
	emit()
	sw := opevents.NewSweeper(db, router, &rl, log, clk)
	require.NoError(t, sw.RunOnce(ctx))
	require.Empty(t, rl.all(), "a pending transformation younger than a minute is left to its emitter")
	clk.Advance(2 * time.Minute)
	require.NoError(t, sw.RunOnce(ctx))
	require.Equal(t, []uuid.UUID{shaped.ID}, endpointsOf(rl.all()))
	require.NoError(t, sw.RunOnce(ctx))
	require.Len(t, rl.all(), 1, "finished once only")
}
