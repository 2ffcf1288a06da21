package kafka

import (
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/tests/testenv"
)

func readAll(t *testing.T, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A Stream returns at once and acks every job, each exactly once, with
// each endpoint's jobs in the order they were sent, on the partition the
// synchronous Writer would choose.
func TestStreamAcksEveryJobInPartitionOrder(t *testing.T) {
	t.Parallel()
	brokers := testenv.Kafka(t)
	cfg := Config{Brokers: brokers, TopicPrefix: testenv.TopicPrefix(t, brokers), Partitions: 4}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := EnsureTopics(ctx, cfg, []string{model.TopicDeliveries}); err != nil {
		t.Fatal(err)
	}
	s, err := NewStream(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	endpoints := []uuid.UUID{uuid.New(), uuid.New(), uuid.New()}
	var mu sync.Mutex
	acked := map[uuid.UUID][]int{}
	all := make(chan struct{})
	n := 0
	const total = 300
	ack := func(msgs []model.Message, err error) {
		if err != nil {
			t.Errorf("ack error: %v", err)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, m := range msgs {
			acked[m.Job.EndpointID] = append(acked[m.Job.EndpointID], m.Job.Attempt)
			if n++; n == total {
				close(all)
			}
		}
	}
	for i := range total / 10 {
		var msgs []model.Message
		for j := range 10 {
			seq := i*10 + j
			msgs = append(msgs, model.Message{Topic: model.TopicDeliveries, Job: model.Job{DeliveryID: uuid.New(),
				EndpointID: endpoints[seq%3], Attempt: seq, Trigger: model.TriggerInitial}})
		}
		if err := s.Send(ctx, msgs, ack); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-all:
	case <-ctx.Done():
		t.Fatalf("acked %d of %d", n, total)
	}
	for ep, seqs := range acked {
		for i := 1; i < len(seqs); i++ {
			if seqs[i] < seqs[i-1] {
				t.Fatalf("endpoint %s acked out of order: %v", ep, seqs)
			}
		}
	}
	// Each endpoint's jobs are on one partition, the one the Writer's
	// hash picks, in the order sent.
	client := &kafkago.Client{Addr: kafkago.TCP(cfg.Brokers...)}
	parts := map[uuid.UUID]int{}
	for p := range 4 {
		res, err := client.Fetch(ctx, &kafkago.FetchRequest{Topic: cfg.topic(model.TopicDeliveries), Partition: p, Offset: 0, MaxBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		last := map[uuid.UUID]int{}
		for {
			rec, err := res.Records.ReadRecord()
			if err != nil {
				break
			}
			job, err := decodeJob(kafkago.Message{Value: readAll(t, rec.Value)})
			if err != nil {
				t.Fatal(err)
			}
			if prev, ok := parts[job.EndpointID]; ok && prev != p {
				t.Fatalf("endpoint %s on partitions %d and %d", job.EndpointID, prev, p)
			}
			parts[job.EndpointID] = p
			if seq, ok := last[job.EndpointID]; ok && job.Attempt < seq {
				t.Fatalf("partition %d holds endpoint %s's jobs out of order", p, job.EndpointID)
			}
			last[job.EndpointID] = job.Attempt
		}
	}
	if len(parts) != 3 {
		t.Errorf("found %d endpoints' jobs in the topic, want 3", len(parts))
	}
}
