package load

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	kafkago "github.com/segmentio/kafka-go"
)

// Topics names the topics at brokers whose names begin with prefix, and
// counts their partitions.
//
// A bench's topics are dropped when it ends. Those of a run killed
// before its cleanup stay, and every later run shares the broker with
// their partitions (docs/benchmarks.md, "Running the bench").
func Topics(ctx context.Context, brokers []string, prefix string) (names []string, partitions int, err error) {
	if prefix == "" {
		return nil, 0, errors.New("a topic prefix is required")
	}
	client := &kafkago.Client{Addr: kafkago.TCP(brokers...), Timeout: 10 * time.Second}
	md, err := client.Metadata(ctx, &kafkago.MetadataRequest{})
	if err != nil {
		return nil, 0, fmt.Errorf("list the topics at %s: %w", strings.Join(brokers, ","), err)
	}
	for _, t := range md.Topics {
		if strings.HasPrefix(t.Name, prefix) {
			names = append(names, t.Name)
			partitions += len(t.Partitions)
		}
	}
	slices.Sort(names)
	return names, partitions, nil
}

// DropTopics deletes the topics at brokers whose names begin with prefix
// and returns their names. It speaks Kafka's protocol itself, so it needs
// no Kafka tools where it runs (a worktree without the jars, a machine
// that only reaches the brokers).
func DropTopics(ctx context.Context, brokers []string, prefix string) ([]string, error) {
	names, _, err := Topics(ctx, brokers, prefix)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	client := &kafkago.Client{Addr: kafkago.TCP(brokers...), Timeout: 30 * time.Second}
	res, err := client.DeleteTopics(ctx, &kafkago.DeleteTopicsRequest{Topics: names})
	if err != nil {
		return nil, fmt.Errorf("delete %d topics %s*: %w", len(names), prefix, err)
	}
	var errs []error
	for name, e := range res.Errors {
		if e != nil && !errors.Is(e, kafkago.UnknownTopicOrPartition) {
			errs = append(errs, fmt.Errorf("delete topic %s: %w", name, e))
		}
	}
	return names, errors.Join(errs...)
}
