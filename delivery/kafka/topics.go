package kafka

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	kafkago "github.com/segmentio/kafka-go"
)

// EnsureTopics creates the named topics (unprefixed names) when missing.
func EnsureTopics(ctx context.Context, cfg Config, names []string) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	client := &kafkago.Client{Addr: kafkago.TCP(cfg.Brokers...)}
	req := &kafkago.CreateTopicsRequest{}
	for _, n := range names {
		tc := kafkago.TopicConfig{Topic: cfg.topic(n), NumPartitions: cfg.Partitions, ReplicationFactor: cfg.ReplicationFactor}
		if cfg.MinInsyncReplicas > 0 {
			tc.ConfigEntries = append(tc.ConfigEntries, kafkago.ConfigEntry{
				ConfigName: "min.insync.replicas", ConfigValue: strconv.Itoa(cfg.MinInsyncReplicas)})
		}
		req.Topics = append(req.Topics, tc)
	}
	resp, err := client.CreateTopics(ctx, req)
	if err != nil {
		return fmt.Errorf("create topics: %w", err)
	}
	for topic, err := range resp.Errors {
		if err != nil && !errors.Is(err, kafkago.TopicAlreadyExists) {
			return fmt.Errorf("create topic %s: %w", topic, err)
		}
	}
	return nil
}

// Ping asks the cluster for its metadata; it fails when no broker answers.
func Ping(ctx context.Context, cfg Config) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	client := &kafkago.Client{Addr: kafkago.TCP(cfg.Brokers...)}
	if _, err := client.Metadata(ctx, &kafkago.MetadataRequest{Topics: []string{}}); err != nil {
		return fmt.Errorf("kafka metadata: %w", err)
	}
	return nil
}
