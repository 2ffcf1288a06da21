package queue

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/internal/seal"
	"github.com/ferry-dev/ferry/tests/testenv"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/driver/postgres"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/dispatch"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/opevents"
)

// TestListenerSkipsItsOwnIngestNotifications: a payload naming this
// process is skipped; the id alone (older senders, replay, the sweeper,
// settles) and one naming another process wake a waiter.
func TestListenerSkipsItsOwnIngestNotifications(t *testing.T) {
	t.Parallel()
	q := uuid.New()
	sep := model.QueueSenderSep
	for _, tt := range []struct {
		name    string
		payload string
		wakes   bool
	}{
		{"id alone", q.String(), true},
		{"another process", q.String() + sep + "other", true},
		{"this process", q.String() + sep + "me", false},
		{"another queue", uuid.NewString(), false},
		{"garbage", "not a queue" + sep + "other", false},
		{"empty", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			l := newListener("postgres://unused", "me", prometheus.NewCounter(prometheus.CounterOpts{Name: "skipped"}), deliverytest.Logger())
			sub := l.subscribe(uuid.New(), q)
			defer sub.cancel()
			l.notified(tt.payload)
			select {
			case <-sub.wake():
				if !tt.wakes {
					t.Errorf("%q woke the waiter", tt.payload)
				}
			default:
				if tt.wakes {
					t.Errorf("%q did not wake the waiter", tt.payload)
				}
			}
		})
	}
}

type nopRelay struct{}

func (nopRelay) Enqueue([]model.Job) {}

var _ delivery.Enqueuer = nopRelay{}

// replica is a queue Service with its own listener on b's database, as
// another Ferry process would have, running until the test ends; tune,
// if given, changes its Config.
func (b testBundle) replica(t *testing.T, instance string, tune ...func(*Config)) *Service {
	t.Helper()
	svc, _ := b.running(t, instance, tune...)
	return svc
}

// running is replica, with stop, which ends the Service's Run (as a
// shutdown does) and waits for it to return.
func (b testBundle) running(t *testing.T, instance string, tune ...func(*Config)) (svc *Service, stop func()) {
	t.Helper()
	cipher, err := seal.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	attempts := attemptlog.New(b.db, attemptlog.Config{Events: opevents.NewEmitter(b.db, nil, nil, nil, deliverytest.Logger(), b.clock)}, deliverytest.Logger(), b.clock)
	cfg := Config{DatabaseURL: b.db.Dialector.(*postgres.Dialector).DSN, Policy: dispatch.RetryPolicy{Scale: 1},
		Attempts: attempts, Instance: instance, PollInterval: time.Hour, SweepInterval: time.Hour}
	for _, f := range tune {
		f(&cfg)
	}
	svc, err = New(b.db, cipher, cfg, deliverytest.Logger(), b.clock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = svc.Run(ctx) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	// Listening once a notification reaches a waiter of a queue of its own.
	probe := svc.listener.subscribe(uuid.New(), uuid.New())
	defer probe.cancel()
	testenv.Eventually(t, 10*time.Second, func() bool {
		if err := b.db.Exec(`SELECT pg_notify(?, ?)`, model.QueueChannel, probe.endpointID.String()).Error; err != nil {
			t.Fatal(err)
		}
		select {
		case <-probe.wake():
			return true
		case <-time.After(50 * time.Millisecond):
			return false
		}
	}, "the replica's listener never listened")
	return svc, stop
}

// woken returns how many of s's long-polls hold a wake-up or are no
// longer parked in their wait.
func woken(s *Service) int {
	s.listener.mu.Lock()
	defer s.listener.mu.Unlock()
	n := 0
	for _, ws := range s.listener.waiters {
		for _, w := range ws {
			if len(w.ch) > 0 || !w.parked {
				n++
			}
		}
	}
	return n
}

// parked returns how many of s's long-polls are parked in their wait.
func parked(s *Service) int {
	s.listener.mu.Lock()
	defer s.listener.mu.Unlock()
	n := 0
	for _, ws := range s.listener.waiters {
		for _, w := range ws {
			if w.parked {
				n++
			}
		}
	}
	return n
}

// TestIngestWakesOneWaiterOfItsOwnProcess: an ingest wakes a long-poll
// of its own process directly and NOTIFYs the other replicas; its own
// listener skips that NOTIFY, so no second waiter of the ingesting
// process runs an empty lease, while another replica's waiter is woken.
func TestIngestWakesOneWaiterOfItsOwnProcess(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The seeded message is out of the way: leased for an hour.
	b.pullOne(t, 3600)
	a, other := b.replica(t, "replica-a"), b.replica(t, "replica-b")
	cipher, err := seal.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	ingest, err := delivery.NewService(b.db, cipher, nopRelay{}, nil, delivery.Config{AllowHTTP: true, Queues: a},
		deliverytest.Logger(), nil)
	if err != nil {
		t.Fatal(err)
	}

	// Two long-polls on the ingesting replica, one on the other; the
	// test clock stands still, so they wait until ctx ends.
	got := make(chan []Message, 3)
	max, wait := 10, MaxWaitSeconds
	poll := func(s *Service) {
		go func() {
			msgs, err := s.Pull(ctx, b.seed.TenantID, b.seed.EndpointID, PullInput{Max: &max, WaitSeconds: &wait})
			if err != nil && ctx.Err() == nil {
				t.Error(err)
			}
			got <- msgs
		}()
	}
	poll(a)
	poll(a)
	poll(other)
	testenv.Eventually(t, 10*time.Second, func() bool {
		return parked(a) == 2 && parked(other) == 1 && counted(a.cfg.Metrics.Leases) == 2 && counted(other.cfg.Metrics.Leases) == 1
	}, "three long-polls past their first lease, parked in their wait")

	if _, _, err := ingest.Ingest(ctx, b.seed.TenantID, delivery.EventInput{Type: "seed.created", Data: json.RawMessage(`{"n":2}`)}); err != nil {
		t.Fatal(err)
	}
	msgs := <-got
	if len(msgs) != 1 {
		t.Fatalf("a long-poll got %d messages, want the one ingested", len(msgs))
	}
	// The NOTIFY reached the other replica (its waiter leased once more)
	// and the ingesting one, which skipped it.
	testenv.Eventually(t, 10*time.Second, func() bool { return counted(other.cfg.Metrics.Leases) >= 2 },
		"the other replica's wake-up")
	// Once the ingesting replica has skipped its own NOTIFY, nothing can
	// wake its second waiter: its lease count is final.
	testenv.Eventually(t, 10*time.Second, func() bool { return counted(a.listener.skipped) == 1 },
		"the ingesting replica's own NOTIFY")
	if n := counted(a.cfg.Metrics.Leases); n != 3 {
		t.Errorf("the ingesting replica ran %d leases, want 3 (two first looks, one wake-up)", n)
	}
}
