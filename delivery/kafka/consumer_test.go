package kafka

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/delivery/dispatch"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// heldSubmitter records jobs and lets the test decide when each is done.
type heldSubmitter struct {
	mu   sync.Mutex
	got  []submitted
	seen chan struct{}
}

type submitted struct {
	job  model.Job
	at   time.Time
	done func()
}

var _ Submitter = (*heldSubmitter)(nil)

func (s *heldSubmitter) Submit(_ context.Context, job model.Job, done func()) error {
	s.mu.Lock()
	s.got = append(s.got, submitted{job: job, at: time.Now(), done: done})
	s.mu.Unlock()
	s.seen <- struct{}{}
	return nil
}

func committedOffset(t *testing.T, cfg Config, group, topic string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := &kafkago.Client{Addr: kafkago.TCP(cfg.Brokers...)}
	res, err := client.OffsetFetch(ctx, &kafkago.OffsetFetchRequest{GroupID: group, Topics: map[string][]int{topic: {0}}})
	if err != nil {
		t.Fatalf("offset fetch: %v", err)
	}
	for _, p := range res.Topics[topic] {
		return p.CommittedOffset
	}
	return -1
}

// TestConsumerCommitsOnlyDoneJobsAndWaitsForDue checks, against the real
// broker, that (1) a fetched job's offset is not committed until the
// dispatcher reports it done, then is; and (2) a tier consumer holds a job
// until its due time, longer than the group session timeout, without
// losing its group membership (no extra rebalance) and without handing
// the job out early.
func TestConsumerCommitsOnlyDoneJobsAndWaitsForDue(t *testing.T) {
	t.Parallel()
	brokers := testenv.Kafka(t)
	cfg := Config{Brokers: brokers, TopicPrefix: testenv.TopicPrefix(t, brokers), GroupID: testenv.Name("g"), Partitions: 1}
	tier := dispatch.Tier{Name: "retry-30s", Delay: 12 * time.Second} // > the 10 s session timeout
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := EnsureTopics(ctx, cfg, []string{model.TopicDeliveries, tier.Name}); err != nil {
		t.Fatal(err)
	}
	w, err := NewWriter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	now := time.Now().UTC()
	first := model.Job{DeliveryID: uuid.New(), EndpointID: uuid.New(), Attempt: 1, Trigger: model.TriggerInitial, AcceptedAt: now}
	retry := model.Job{DeliveryID: uuid.New(), EndpointID: uuid.New(), Attempt: 2, Trigger: model.TriggerRetry,
		EnqueuedAt: now, DueAt: now.Add(tier.Delay)}
	var msgs []model.Message
	for _, m := range []struct {
		topic string
		job   model.Job
	}{{model.TopicDeliveries, first}, {tier.Name, retry}} {
		msgs = append(msgs, model.Message{Topic: m.topic, Job: m.job})
	}
	if err := w.Publish(ctx, msgs); err != nil {
		t.Fatal(err)
	}
	// Nothing committed yet: each group lags by the whole topic.
	assertGroupLag(t, cfg, map[string]int64{model.TopicDeliveries: 1, tier.Name: 1})

	sub := &heldSubmitter{seen: make(chan struct{}, 10)}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	c, err := NewConsumer(cfg, sub, []dispatch.Tier{tier}, log)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		_ = c.Run(runCtx)
	}()
	defer func() {
		stop()
		<-runDone
		_ = c.Close(context.Background())
	}()

	select {
	case <-sub.seen:
	case <-time.After(30 * time.Second):
		t.Fatal("deliveries job not consumed")
	}
	deliveriesGroup, deliveriesTopic := cfg.GroupID+"."+model.TopicDeliveries, cfg.TopicPrefix+model.TopicDeliveries
	// Run a commit pass ourselves rather than sleeping through ticks of the
	// loop: whatever the loop would commit now, this commits too.
	for _, r := range c.readers {
		c.commit(ctx, r)
	}
	if off := committedOffset(t, cfg, deliveriesGroup, deliveriesTopic); off > 0 {
		t.Fatalf("offset %d committed before the job was done", off)
	}
	sub.mu.Lock()
	sub.got[0].done()
	sub.mu.Unlock()
	testenv.Eventually(t, 10*time.Second, func() bool { return committedOffset(t, cfg, deliveriesGroup, deliveriesTopic) == 1 },
		"offset not committed after the job was done")
	assertGroupLag(t, cfg, map[string]int64{model.TopicDeliveries: 0, tier.Name: 1})

	select {
	case <-sub.seen:
	case <-time.After(30 * time.Second):
		t.Fatal("tier job not handed out")
	}
	sub.mu.Lock()
	got := sub.got[1]
	sub.mu.Unlock()
	if got.job.DeliveryID != retry.DeliveryID {
		t.Fatalf("second job %+v", got.job)
	}
	if got.at.Before(retry.DueAt) {
		t.Errorf("tier job handed out %s before it was due", retry.DueAt.Sub(got.at))
	}
	if late := got.at.Sub(retry.DueAt); late > 2*time.Second {
		t.Errorf("tier job handed out %s late", late)
	}
	for _, r := range c.readers {
		if r.tier != nil {
			r.mu.Lock()
			n := r.generations
			r.mu.Unlock()
			if n > 1 {
				t.Errorf("tier group had %d generations while waiting: group membership lost", n)
			}
		}
	}
	tierGroup, tierTopic := cfg.GroupID+"."+tier.Name, cfg.TopicPrefix+tier.Name
	if off := committedOffset(t, cfg, tierGroup, tierTopic); off > 0 {
		t.Errorf("tier offset %d committed before the job was done", off)
	}
	got.done()
	testenv.Eventually(t, 10*time.Second, func() bool { return committedOffset(t, cfg, tierGroup, tierTopic) == 1 },
		"tier offset not committed after the job was done")
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func assertGroupLag(t *testing.T, cfg Config, want map[string]int64) {
	t.Helper()
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	got, err := GroupLag(context.Background(), cfg, names)
	if err != nil {
		t.Fatal(err)
	}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("lag of %s = %d, want %d (all: %v)", n, got[n], w, got)
		}
	}
}
