package queue

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/ferry-dev/ferry/internal/seal"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/driver/postgres"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/dispatch"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
)

// TestListenerSkipsItsOwnIngestNotifications: a payload naming this
// process is skipped; the id alone (older senders, replay, the sweeper,
// settles) and one naming another process wake a waiter.
func TestListenerSkipsItsOwnIngestNotifications(t *testing.T) {
	t.Parallel()
	q := uuid.New()
	sep := delivery.QueueSenderSep
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

func (nopRelay) Enqueue([]delivery.Job) {}

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
	attempts := attemptlog.New(b.db, attemptlog.Config{}, deliverytest.Logger(), b.clock)
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
	for deadline := time.Now().Add(10 * time.Second); ; {
		if err := b.db.Exec(`SELECT pg_notify(?, ?)`, delivery.QueueChannel, probe.endpointID.String()).Error; err != nil {
			t.Fatal(err)
		}
		select {
		case <-probe.wake():
			return svc, stop
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the replica's listener never listened")
		}
	}
}

// eventually waits up to 10 s for cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
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
	eventually(t, "three parked long-polls", func() bool {
		return a.Waiting() == 2 && other.Waiting() == 1 && counted(a.cfg.Metrics.Leases) == 2 && counted(other.cfg.Metrics.Leases) == 1
	})
	time.Sleep(50 * time.Millisecond) // past their first lease, into their wait

	if _, _, err := ingest.Ingest(ctx, b.seed.TenantID, delivery.EventInput{Type: "seed.created", Data: json.RawMessage(`{"n":2}`)}); err != nil {
		t.Fatal(err)
	}
	msgs := <-got
	if len(msgs) != 1 {
		t.Fatalf("a long-poll got %d messages, want the one ingested", len(msgs))
	}
	// The NOTIFY reached the other replica (its waiter leased once more)
	// and the ingesting one, which skipped it.
	eventually(t, "the other replica's wake-up", func() bool { return counted(other.cfg.Metrics.Leases) >= 2 })
	time.Sleep(100 * time.Millisecond) // a second waiter, if woken, would lease now
	if n := counted(a.cfg.Metrics.Leases); n != 3 {
		t.Errorf("the ingesting replica ran %d leases, want 3 (two first looks, one wake-up)", n)
	}
	eventually(t, "the ingesting replica's own NOTIFY", func() bool { return counted(a.listener.skipped) == 1 })
}
