// Package topics lists and drops the Kafka topics whose names begin with a
// prefix: the cleanup of a bench run (ferry-load topics) and of a test's
// topics (testenv.TopicPrefix).
package topics

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	kafkago "github.com/segmentio/kafka-go"
)

// List names the topics at brokers whose names begin with prefix, and
// counts their partitions.
func List(ctx context.Context, brokers []string, prefix string) (names []string, partitions int, err error) {
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

// Drop deletes the topics at brokers whose names begin with prefix and
// returns their names. It speaks Kafka's protocol itself, so it needs no
// Kafka tools where it runs (a worktree without the jars, a machine that
// only reaches the brokers).
func Drop(ctx context.Context, brokers []string, prefix string) ([]string, error) {
	names, _, err := List(ctx, brokers, prefix)
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
