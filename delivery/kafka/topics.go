package kafka

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	kafkago "github.com/segmentio/kafka-go"
)

// EnsureTopics creates the named topics (unprefixed names) when missing.
func EnsureTopics(ctx context.Context, cfg Config, names []string) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	client := cfg.adminClient()
	defer closeIdle(client)
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
	topics := make([]string, 0, len(names))
	for topic, err := range resp.Errors {
		if err != nil && !errors.Is(err, kafkago.TopicAlreadyExists) {
			return fmt.Errorf("create topic %s: %w", topic, err)
		}
		topics = append(topics, topic)
	}
	return waitForLeaders(ctx, client, topics)
}

// waitForLeaders returns once every partition of topics has a leader
// that serves it. The cluster's metadata names a new partition's leader
// before that broker has created the partition's log, and until it has,
// the partition answers "Not Leader For Partition"; on a busy broker that
// lasts seconds (tens of topics created at once). So a partition counts
// as ready only once its leader answers for its offsets.
func waitForLeaders(ctx context.Context, client *kafkago.Client, topics []string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		ready, err := leadersElected(ctx, client, topics)
		if ready {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("topics have no leaders yet (last error: %v): %w", err, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func leadersElected(ctx context.Context, client *kafkago.Client, topics []string) (bool, error) {
	md, err := client.Metadata(ctx, &kafkago.MetadataRequest{Topics: topics})
	if err != nil {
		return false, err
	}
	if len(md.Topics) != len(topics) {
		return false, fmt.Errorf("metadata lists %d of %d topics", len(md.Topics), len(topics))
	}
	for _, t := range md.Topics {
		if t.Error != nil || len(t.Partitions) == 0 {
			return false, fmt.Errorf("topic %s: %v", t.Name, t.Error)
		}
		for _, p := range t.Partitions {
			if p.Error != nil || p.Leader.ID < 0 || p.Leader.Host == "" {
				return false, fmt.Errorf("topic %s partition %d: no leader (%v)", t.Name, p.ID, p.Error)
			}
		}
	}
	return partitionsServed(ctx, client, md.Topics)
}

// partitionsServed asks every partition's leader for the partition's
// first offset: only a leader that has the partition's log answers.
func partitionsServed(ctx context.Context, client *kafkago.Client, topics []kafkago.Topic) (bool, error) {
	req := &kafkago.ListOffsetsRequest{Topics: map[string][]kafkago.OffsetRequest{}}
	want := 0
	for _, t := range topics {
		for _, p := range t.Partitions {
			req.Topics[t.Name] = append(req.Topics[t.Name], kafkago.FirstOffsetOf(p.ID))
			want++
		}
	}
	res, err := client.ListOffsets(ctx, req)
	if err != nil {
		return false, err
	}
	served := 0
	for topic, parts := range res.Topics {
		for _, p := range parts {
			if p.Error != nil || p.FirstOffset < 0 {
				return false, fmt.Errorf("topic %s partition %d: not served yet (%v)", topic, p.Partition, p.Error)
			}
			served++
		}
	}
	if served != want {
		return false, fmt.Errorf("%d of %d partitions answer for their offsets", served, want)
	}
	return true, nil
}

// Ping asks the cluster for its metadata; it fails when no broker answers.
func Ping(ctx context.Context, cfg Config) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	client := cfg.adminClient()
	defer closeIdle(client)
	if _, err := client.Metadata(ctx, &kafkago.MetadataRequest{Topics: []string{}}); err != nil {
		return fmt.Errorf("kafka metadata: %w", err)
	}
	return nil
}

// adminClient returns a client for admin requests (topics, metadata)
// with the configured TLS and SASL.
func (c Config) adminClient() *kafkago.Client {
	return &kafkago.Client{Addr: kafkago.TCP(c.Brokers...), Transport: c.conn.roundTripper()}
}

// closeIdle releases a secured admin client's own connection pool; the
// default transport's pool is shared and stays.
func closeIdle(client *kafkago.Client) {
	if t, ok := client.Transport.(*kafkago.Transport); ok {
		t.CloseIdleConnections()
	}
}

// Cluster is what the brokers say of Ferry's topics (ferry doctor).
type Cluster struct {
	Brokers int
	Topics  []TopicState
}

// TopicState describes one topic as the cluster's metadata has it.
type TopicState struct {
	Name   string // with the configured prefix
	Exists bool
	// Partitions is the partition count; Replicas the smallest replica
	// count over them.
	Partitions int
	Replicas   int
	// Leaderless partitions accept no reads or writes; UnderReplicated
	// ones have fewer in-sync replicas than replicas (a broker is down or
	// behind).
	Leaderless      int
	UnderReplicated int
}

// Describe reads the metadata of the named topics (unprefixed names)
// without creating or changing anything.
func Describe(ctx context.Context, cfg Config, names []string) (Cluster, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Cluster{}, err
	}
	client := cfg.adminClient()
	defer closeIdle(client)
	full := make([]string, len(names))
	for i, n := range names {
		full[i] = cfg.topic(n)
	}
	md, err := client.Metadata(ctx, &kafkago.MetadataRequest{Topics: full})
	if err != nil {
		return Cluster{}, fmt.Errorf("kafka metadata: %w", err)
	}
	byName := make(map[string]kafkago.Topic, len(md.Topics))
	for _, t := range md.Topics {
		byName[t.Name] = t
	}
	c := Cluster{Brokers: len(md.Brokers), Topics: make([]TopicState, len(full))}
	for i, name := range full {
		st := TopicState{Name: name}
		t, ok := byName[name]
		if ok && t.Error == nil && len(t.Partitions) > 0 {
			st.Exists, st.Partitions = true, len(t.Partitions)
			for j, p := range t.Partitions {
				if j == 0 || len(p.Replicas) < st.Replicas {
					st.Replicas = len(p.Replicas)
				}
				if p.Error != nil || p.Leader.ID < 0 || p.Leader.Host == "" {
					st.Leaderless++
				}
				if len(p.Isr) < len(p.Replicas) {
					st.UnderReplicated++
				}
			}
		}
		c.Topics[i] = st
	}
	return c, nil
}
