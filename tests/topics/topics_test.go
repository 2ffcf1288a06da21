package topics_test

import (
	"context"
	"slices"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/tests/testenv"
	"github.com/ferry-dev/ferry/tests/topics"
)

// Against a real broker: the topics of one prefix are listed with their
// partitions and dropped, and those of another prefix stay.
func TestDrop(t *testing.T) {
	brokers := testenv.Kafka(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	run := testenv.TopicPrefix(t, brokers) // drops what the test leaves
	mine, other := run+"a.", run+"b."
	client := &kafkago.Client{Addr: kafkago.TCP(brokers...), Timeout: 30 * time.Second}
	var create []kafkago.TopicConfig
	for _, name := range []string{mine + "deliveries", mine + "dead", other + "deliveries"} {
		create = append(create, kafkago.TopicConfig{Topic: name, NumPartitions: 3, ReplicationFactor: 1})
	}
	res, err := client.CreateTopics(ctx, &kafkago.CreateTopicsRequest{Topics: create})
	if err != nil {
		t.Fatal(err)
	}
	for name, err := range res.Errors {
		if err != nil {
			t.Fatalf("create %s: %v", name, err)
		}
	}

	names, partitions, err := topics.List(ctx, brokers, mine)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{mine + "dead", mine + "deliveries"}; !slices.Equal(names, want) || partitions != 6 {
		t.Fatalf("List = %v, %d partitions; want %v, 6", names, partitions, want)
	}

	dropped, err := topics.Drop(ctx, brokers, mine)
	if err != nil {
		t.Fatal(err)
	}
	if len(dropped) != 2 {
		t.Fatalf("dropped %v, want the two %s* topics", dropped, mine)
	}
	testenv.Eventually(t, 30*time.Second, func() bool {
		left, _, err := topics.List(ctx, brokers, mine)
		return err == nil && len(left) == 0
	}, "the %s* topics still listed", mine)
	if left, _, err := topics.List(ctx, brokers, other); err != nil || len(left) != 1 {
		t.Fatalf("the other prefix's topics: %v, %v; want its one topic kept", left, err)
	}

	if _, _, err := topics.List(ctx, brokers, ""); err == nil {
		t.Fatal("an empty prefix would name every topic; want an error")
	}
}
