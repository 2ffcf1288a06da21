package outbox_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/outbox"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// stuckStreamer acks every job at once except those of one endpoint (a
// partition without a leader), which it holds until released, failing
// them once first as a stream that gave up would.
type stuckStreamer struct {
	stuck uuid.UUID

	mu       sync.Mutex
	held     []heldSend
	failOnce bool
	sends    int
}

type heldSend struct {
	msgs []model.Message
	ack  func([]model.Message, error)
}

func (s *stuckStreamer) Send(_ context.Context, msgs []model.Message, ack func([]model.Message, error)) error {
	var free, stuck []model.Message
	for _, m := range msgs {
		if m.Job.EndpointID == s.stuck {
			stuck = append(stuck, m)
		} else {
			free = append(free, m)
		}
	}
	s.mu.Lock()
	s.sends++
	if len(stuck) > 0 {
		s.held = append(s.held, heldSend{stuck, ack})
	}
	s.mu.Unlock()
	if len(free) > 0 {
		go ack(free, nil)
	}
	return nil
}

// release answers the held sends: with an error the first time (the
// relay must send them again), then with success.
func (s *stuckStreamer) release() {
	s.mu.Lock()
	held := s.held
	s.held = nil
	var err error
	if !s.failOnce {
		s.failOnce, err = true, errors.New("no leader for partition")
	}
	s.mu.Unlock()
	for _, h := range held {
		h.ack(h.msgs, err)
	}
}

func (s *stuckStreamer) heldCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, h := range s.held {
		n += len(h.msgs)
	}
	return n
}

// A streaming relay keeps publishing while one endpoint's partition has
// no leader: the other endpoints' outbox rows are deleted at once, the
// stuck ones stay until Kafka takes them, a batch the stream gave up on
// is sent again, and Drain waits for all of it.
func TestStreamingRelayIsNotHeldByOnePartition(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	ctx := context.Background()
	stuck, healthy := deliverytest.Seed(t, db, time.Now()), deliverytest.Seed(t, db, time.Now())
	st := &stuckStreamer{stuck: stuck.EndpointID}
	r := outbox.NewRelay(db, nil, outbox.RelayConfig{Stream: st, SweepAfter: time.Hour}, deliverytest.Logger(), nil)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = r.Run(runCtx)
	}()
	defer func() {
		cancel()
		<-done
	}()

	var jobs []model.Job
	for i := range 20 {
		s := healthy
		if i%4 == 0 {
			s = stuck
		}
		at := time.Now().UTC().Truncate(time.Microsecond).Add(time.Duration(i) * time.Microsecond)
		jobs = append(jobs, model.Job{DeliveryID: s.DeliveryID, EventID: s.EventID, EndpointID: s.EndpointID, TenantID: s.TenantID,
			Attempt: 1, Trigger: model.TriggerInitial, AcceptedAt: at, OutboxAt: at})
	}
	if err := store.InsertOutbox(ctx, store.Gorm(db), jobs); err != nil {
		t.Fatal(err)
	}
	r.Enqueue(jobs)

	rows := func(endpoint uuid.UUID) int {
		var n int64
		if err := db.Raw(`SELECT count(*) FROM outbox WHERE job->>'endpoint_id' = ?`, endpoint.String()).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return int(n)
	}
	testenv.Eventually(t, 10*time.Second, func() bool { return rows(healthy.EndpointID) == 0 },
		"the healthy endpoint's rows are deleted while another partition is stuck")
	if got := rows(stuck.EndpointID); got != 5 || st.heldCount() != 5 {
		t.Fatalf("stuck endpoint: %d rows, %d held; want 5 and 5", got, st.heldCount())
	}
	st.release() // fails them: the relay sends them again
	testenv.Eventually(t, 10*time.Second, func() bool { return st.heldCount() == 5 }, "the given-up batch is sent again")
	if got := rows(stuck.EndpointID); got != 5 {
		t.Fatalf("%d stuck rows after a failed send, want 5 (kept)", got)
	}
	drained := make(chan struct{})
	go func() {
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		r.Drain(dctx)
		close(drained)
	}()
	st.release()
	<-drained
	if got := rows(stuck.EndpointID); got != 0 {
		t.Errorf("%d stuck rows after Kafka took them, want 0", got)
	}
}
