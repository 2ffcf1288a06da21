package kafka

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// With Config.Topics set, the writers' metadata, refreshed several
// times a second, holds those topics alone, not every topic of the
// cluster; writes to them succeed and a write elsewhere fails.
func TestWritersAskMetadataForTheirTopicsOnly(t *testing.T) {
	t.Parallel()
	brokers := testenv.Kafka(t)
	cfg := Config{Brokers: brokers, TopicPrefix: testenv.TopicPrefix(t, brokers), Partitions: 2,
		Topics: []string{model.TopicDeliveries, model.TopicDead}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := EnsureTopics(ctx, cfg, []string{model.TopicDeliveries, model.TopicDead, "other"}); err != nil {
		t.Fatal(err)
	}
	w, s := openWriters(t, cfg)

	job := func() model.Job {
		return model.Job{DeliveryID: uuid.New(), EventID: uuid.New(), EndpointID: uuid.New(), TenantID: uuid.New(), Attempt: 1}
	}
	if err := w.Publish(ctx, []model.Message{{Topic: model.TopicDeliveries, Job: job()}, {Topic: model.TopicDead, Job: job()}}); err != nil {
		t.Fatalf("publish to the writer's topics: %v", err)
	}
	acked := make(chan error, 1)
	if err := s.Send(ctx, []model.Message{{Topic: model.TopicDeliveries, Job: job()}}, func(_ []model.Message, err error) { acked <- err }); err != nil {
		t.Fatal(err)
	}
	if err := <-acked; err != nil {
		t.Fatalf("stream to the writer's topics: %v", err)
	}

	want := []string{cfg.topic(model.TopicDead), cfg.topic(model.TopicDeliveries)}
	for name, rt := range map[string]kafkago.RoundTripper{"writer": w.w.Transport, "stream": s.transport} {
		md, err := (&kafkago.Client{Addr: kafkago.TCP(brokers...), Transport: rt}).Metadata(ctx, &kafkago.MetadataRequest{})
		if err != nil {
			t.Fatalf("%s metadata: %v", name, err)
		}
		var got []string
		for _, topic := range md.Topics {
			got = append(got, topic.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s's metadata holds topics %v, want %v", name, got, want)
		}
	}

	short, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	if err := w.Publish(short, []model.Message{{Topic: "other", Job: job()}}); err == nil {
		t.Error("a write to a topic outside Config.Topics succeeded")
	}
}

// openWriters opens the synchronous Writer and the Stream on cfg, both
// closed when t ends.
func openWriters(t *testing.T, cfg Config) (*Writer, *Stream) {
	t.Helper()
	w, err := NewWriter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	s, err := NewStream(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return w, s
}
