package queue

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestWaitSlots: a waiter is refused when its queue or its tenant holds
// as many slots as allowed, with a Retry-After; a slot released (once,
// however often release is called) can be taken again.
func TestWaitSlots(t *testing.T) {
	t.Parallel()
	tenant, other := uuid.New(), uuid.New()
	q1, q2, q3, q4 := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	type take struct {
		tenant, queue uuid.UUID
		ok            bool
	}
	for _, tt := range []struct {
		name                string
		perTenant, perQueue int
		takes               []take
	}{
		{"queue cap", 10, 2, []take{{tenant, q1, true}, {tenant, q1, true}, {tenant, q1, false}, {tenant, q2, true}}},
		{"tenant cap over its queues", 3, 2, []take{{tenant, q1, true}, {tenant, q1, true}, {tenant, q2, true},
			{tenant, q3, false}, {other, q4, true}}},
		{"another tenant is not counted", 1, 5, []take{{tenant, q1, true}, {other, q4, true}, {tenant, q2, false}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWaitSlots(tt.perTenant, tt.perQueue)
			var releases []func()
			for i, tk := range tt.takes {
				release, err := w.acquire(tk.tenant, tk.queue)
				if tk.ok {
					require.NoError(t, err, "take %d", i)
					releases = append(releases, release)
					continue
				}
				var fe *ferry.Error
				require.ErrorAs(t, err, &fe, "take %d", i)
				require.Equal(t, ferry.ERATELIMIT, fe.Code)
				require.Equal(t, waitRetryAfter, fe.RetryAfterSeconds)
			}
			// Releasing twice frees one slot, not two.
			tk := tt.takes[0]
			tenantHeld, queueHeld := w.held(tk.tenant, tk.queue)
			releases[0]()
			releases[0]()
			gotTenant, gotQueue := w.held(tk.tenant, tk.queue)
			require.Equal(t, []int{tenantHeld - 1, queueHeld - 1}, []int{gotTenant, gotQueue})
			release, err := w.acquire(tk.tenant, tk.queue)
			require.NoError(t, err, "the released slot")
			release()
			for _, r := range releases[1:] {
				r()
			}
			require.Empty(t, w.tenants)
			require.Empty(t, w.queues)
		})
	}
}

// TestWaitSlotsReleasedOnEveryExit: long-polls and streams hold a slot
// while they wait and give it back however they end: the consumer gone
// (ctx), an error, a stream closed, or the Service stopping.
func TestWaitSlotsReleasedOnEveryExit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.pullOne(t, 3600) // the seeded message is out of the way
	other := uuid.New()
	require.NoError(t, b.db.Exec(`INSERT INTO endpoints (id, tenant_id, url, kind) VALUES (?, ?, '', 'queue')`,
		other, b.seed.TenantID).Error)
	svc, stop := b.running(t, "slots", func(c *Config) { c.MaxWaitersPerTenant, c.MaxWaitersPerQueue = 3, 2 })
	tenant, q := b.seed.TenantID, b.seed.EndpointID
	wait, zero := MaxWaitSeconds, 0
	holding := func(wantTenant, wantQueue int) {
		t.Helper()
		testenv.Eventually(t, 10*time.Second, func() bool {
			gotTenant, gotQueue := svc.Holding(tenant, q)
			return gotTenant == wantTenant && gotQueue == wantQueue
		}, "the slots held")
	}
	// poll starts a long-poll on queue until ctx ends; done receives its
	// error when it returns.
	poll := func(ctx context.Context, queue uuid.UUID) <-chan error {
		done := make(chan error, 1)
		go func() {
			_, err := svc.Pull(ctx, tenant, queue, PullInput{WaitSeconds: &wait})
			done <- err
		}()
		return done
	}
	refused := func(err error) {
		t.Helper()
		var fe *ferry.Error
		require.ErrorAs(t, err, &fe)
		require.Equal(t, ferry.ERATELIMIT, fe.Code)
		require.Positive(t, fe.RetryAfterSeconds)
	}

	// Two long-polls fill the queue; a third, and a stream, are refused;
	// a pull that does not wait needs no slot.
	ctx, gone := context.WithCancel(context.Background())
	first, second := poll(ctx, q), poll(ctx, q)
	holding(2, 2)
	_, err := svc.Pull(ctx, tenant, q, PullInput{WaitSeconds: &wait})
	refused(err)
	_, err = svc.OpenStream(ctx, tenant, q, 0)
	refused(err)
	_, err = svc.Pull(ctx, tenant, q, PullInput{WaitSeconds: &zero})
	require.NoError(t, err)
	// The tenant's third slot, on its other queue; then the tenant is full.
	onOther := poll(ctx, other)
	testenv.Eventually(t, 10*time.Second, func() bool { n, _ := svc.Holding(tenant, q); return n == 3 }, "the tenant's third slot")
	_, err = svc.Pull(ctx, tenant, other, PullInput{WaitSeconds: &wait})
	refused(err)

	// The consumers go away: every slot comes back.
	gone()
	for _, done := range []<-chan error{first, second, onOther} {
		// A long-poll whose consumer left between two statements may
		// return the cancellation instead of an empty pull.
		if err := <-done; err != nil {
			require.ErrorIs(t, err, context.Canceled)
		}
	}
	holding(0, 0)

	// Errors give the slot back: an unknown queue, for a long-poll and a
	// stream.
	_, err = svc.Pull(context.Background(), tenant, uuid.New(), PullInput{WaitSeconds: &wait})
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(err))
	_, err = svc.OpenStream(context.Background(), tenant, uuid.New(), 0)
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(err))
	n, _ := svc.Holding(tenant, q)
	require.Zero(t, n)

	// A stream holds its slot from open to Close, between its waits too.
	st, err := svc.OpenStream(context.Background(), tenant, q, 0)
	require.NoError(t, err)
	holding(1, 1)
	st.Close()
	st.Close()
	holding(0, 0)

	// Shutdown: a waiting long-poll and a waiting stream return when the
	// Service stops, and the long-poll's slot is back; the stream's comes
	// back with Close, which its HTTP handler defers.
	st, err = svc.OpenStream(context.Background(), tenant, q, 0)
	require.NoError(t, err)
	polling := poll(context.Background(), q)
	var streamed sync.WaitGroup
	streamed.Add(1)
	go func() {
		defer streamed.Done()
		defer st.Close()
		if _, err := st.Next(context.Background()); err != nil {
			t.Error(err)
		}
	}()
	testenv.Eventually(t, 10*time.Second, func() bool { return svc.Waiting() == 2 }, "both waiting")
	stop()
	require.NoError(t, <-polling)
	streamed.Wait()
	holding(0, 0)
}

// TestIdleWaitersShareOneRecheck: idle long-polls run no lease statement
// while nothing is announced; what re-checks a queue is one statement
// per re-check (each PollInterval) for the whole process, whether one
// consumer waits or fifty. When a nacked message falls due, the re-check
// the test clock's PollInterval tick starts wakes one of them, which
// leases it: one lease statement, not fifty. The test steps the
// re-checks itself; the clock moves only to make the message due.
func TestIdleWaitersShareOneRecheck(t *testing.T) {
	t.Parallel()
	b := setup(t)
	m := b.pullOne(t, 3600)
	// The clock passes PollInterval once, when the test makes the nacked
	// message due.
	svc := b.replica(t, "idle", func(c *Config) { c.PollInterval, c.MaxWaitersPerQueue = time.Minute, 100 })
	max, wait := 10, MaxWaitSeconds

	// start starts n long-polls; they return on got when ctx ends.
	start := func(ctx context.Context, n int) <-chan []Message {
		got := make(chan []Message, n)
		for range n {
			go func() {
				msgs, err := svc.Pull(ctx, b.seed.TenantID, b.seed.EndpointID, PullInput{Max: &max, WaitSeconds: &wait})
				if err != nil && ctx.Err() == nil {
					t.Error(err)
				}
				got <- msgs
			}()
		}
		return got
	}
	const steps = 5
	for _, n := range []int{1, 50} {
		ctx, cancel := context.WithCancel(context.Background())
		leases0 := counted(svc.cfg.Metrics.Leases)
		got := start(ctx, n)
		testenv.Eventually(t, 10*time.Second, func() bool {
			return parked(svc) == n && counted(svc.cfg.Metrics.Leases) == leases0+int64(n) // each one's first look
		}, "the long-polls parked")
		leases, rechecks := counted(svc.cfg.Metrics.Leases), counted(svc.cfg.Metrics.Rechecks)
		for range steps {
			require.NoError(t, svc.recheck(ctx))
		}
		require.Zero(t, woken(svc), "%d idle long-polls: a re-check woke one", n)
		require.Equal(t, leases, counted(svc.cfg.Metrics.Leases), "%d idle long-polls ran lease statements", n)
		// Run re-checks once more when its listener connects, which may
		// fall in the steps.
		ran := counted(svc.cfg.Metrics.Rechecks) - rechecks
		require.True(t, ran == steps || ran == steps+1, "%d idle long-polls: %d re-check statements for %d re-checks", n, ran, steps)
		if n == 1 {
			cancel()
			<-got
			continue
		}

		// The leased message is nacked for a minute: nothing is due yet.
		delay := 60
		res, err := svc.Nack(ctx, b.seed.TenantID, b.seed.EndpointID, NackInput{Receipts: []string{m.Receipt}, DelaySeconds: &delay})
		require.NoError(t, err)
		require.Equal(t, ReceiptNacked, res[0].Status)
		require.NoError(t, svc.recheck(ctx))
		require.Zero(t, woken(svc), "a message not yet due woke a long-poll")
		require.Equal(t, leases, counted(svc.cfg.Metrics.Leases), "a message not yet due woke a long-poll")
		// The delay ends: one long-poll leases it, the others keep waiting.
		b.clock.Set(b.t0.Add(61 * time.Second))
		select {
		case msgs := <-got:
			require.Len(t, msgs, 1)
			require.Equal(t, m.ID, msgs[0].ID)
			require.Equal(t, 2, msgs[0].Attempt)
		case <-time.After(10 * time.Second):
			t.Fatal("no long-poll leased the message whose delay ended")
		}
		require.Equal(t, leases+1, counted(svc.cfg.Metrics.Leases), "lease statements when the nacked message fell due")
		require.Equal(t, n-1, svc.Waiting())
		cancel()
		for range n - 1 {
			<-got
		}
	}
}

// TestRecheckWakesOnlyQueuesWithDueMessages: the re-check wakes a waiter
// of a queue only when a lease would take something there now.
func TestRecheckWakesOnlyQueuesWithDueMessages(t *testing.T) {
	t.Parallel()
	b := setup(t)
	now := b.t0.Add(time.Second)
	b.clock.Set(now)
	for _, tt := range []struct {
		name  string
		sql   []string // run with the seeded ids of the case's queue: endpoint, delivery
		wakes bool
	}{
		{"a pending message", nil, true},
		{"a nacked message not yet due", []string{`UPDATE deliveries SET status = 'retrying', next_attempt_at = now() + interval '1 hour' WHERE id = @delivery`}, false},
		{"a nacked message due", []string{`UPDATE deliveries SET status = 'retrying', next_attempt_at = @t0 WHERE id = @delivery`}, true},
		{"a leased message", []string{`UPDATE deliveries SET lease_id = gen_random_uuid(), leased_at = @t0, lease_until = CAST(@t0 AS timestamptz) + interval '30 seconds',
			next_attempt_at = CAST(@t0 AS timestamptz) + interval '30 seconds' WHERE id = @delivery`}, false},
		{"a succeeded message", []string{`UPDATE deliveries SET status = 'succeeded' WHERE id = @delivery`}, false},
		{"a disabled queue", []string{`UPDATE endpoints SET enabled = false WHERE id = @endpoint`}, false},
		{"an ordered queue", []string{`UPDATE endpoints SET max_in_flight = 1 WHERE id = @endpoint`}, true},
		{"an ordered queue with a live lease", []string{
			`UPDATE endpoints SET max_in_flight = 1 WHERE id = @endpoint`,
			`INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at, lease_id, leased_at, lease_until)
				SELECT gen_random_uuid(), tenant_id, event_id, endpoint_id, created_at - interval '1 second', gen_random_uuid(), @t0,
					CAST(@t0 AS timestamptz) + interval '30 seconds' FROM deliveries WHERE id = @delivery`}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			seed := deliverytest.Seed(t, b.db, b.t0)
			args := map[string]any{"endpoint": seed.EndpointID, "delivery": seed.DeliveryID, "t0": b.t0}
			for _, q := range append([]string{`UPDATE endpoints SET kind = 'queue', url = '' WHERE id = @endpoint`}, tt.sql...) {
				require.NoError(t, b.db.Exec(q, args).Error)
			}
			sub := b.svc.listener.subscribe(seed.TenantID, seed.EndpointID)
			defer sub.cancel()
			require.NoError(t, b.svc.recheck(context.Background()))
			select {
			case <-sub.wake():
				require.True(t, tt.wakes, "woken")
			default:
				require.False(t, tt.wakes, "not woken")
			}
		})
	}
}

// counted reads a counter, for tests that check what the queues cost.
func counted(c prometheus.Counter) int64 {
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		panic(err)
	}
	return int64(m.GetCounter().GetValue())
}
