package kafka

import (
	"context"
	"fmt"

	kafkago "github.com/segmentio/kafka-go"
)

// GroupLag is, for each named topic (unprefixed), how many of its
// messages Ferry's consumer group has not yet committed: the sum over
// partitions of the end offset minus the group's committed offset (the
// whole partition when the group has committed nothing). It reads the
// cluster, so any process sees the same figure, whichever partitions it
// holds.
func GroupLag(ctx context.Context, cfg Config, names []string) (map[string]int64, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	client := cfg.adminClient()
	defer closeIdle(client)
	full := make([]string, len(names))
	for i, n := range names {
		full[i] = cfg.topic(n)
	}
	md, err := client.Metadata(ctx, &kafkago.MetadataRequest{Topics: full})
	if err != nil {
		return nil, fmt.Errorf("kafka metadata: %w", err)
	}
	partitions := make(map[string][]int, len(md.Topics))
	ends := &kafkago.ListOffsetsRequest{Topics: map[string][]kafkago.OffsetRequest{}}
	for _, t := range md.Topics {
		if t.Error != nil {
			continue
		}
		for _, p := range t.Partitions {
			partitions[t.Name] = append(partitions[t.Name], p.ID)
			ends.Topics[t.Name] = append(ends.Topics[t.Name], kafkago.FirstOffsetOf(p.ID), kafkago.LastOffsetOf(p.ID))
		}
	}
	endsResp, err := client.ListOffsets(ctx, ends)
	if err != nil {
		return nil, fmt.Errorf("list offsets: %w", err)
	}
	lag := make(map[string]int64, len(names))
	for i, name := range names {
		topic := full[i]
		if len(partitions[topic]) == 0 {
			continue
		}
		// One group per topic (see newReader).
		committed, err := client.OffsetFetch(ctx, &kafkago.OffsetFetchRequest{GroupID: cfg.GroupID + "." + name,
			Topics: map[string][]int{topic: partitions[topic]}})
		if err != nil {
			return nil, fmt.Errorf("committed offsets of %s: %w", topic, err)
		}
		at := make(map[int]int64)
		for _, p := range committed.Topics[topic] {
			if p.Error == nil {
				at[p.Partition] = p.CommittedOffset
			}
		}
		var sum int64
		for _, p := range endsResp.Topics[topic] {
			if p.Error != nil {
				continue
			}
			from, ok := at[p.Partition]
			if !ok || from < p.FirstOffset {
				// Nothing committed (-1), or committed offsets older than
				// what retention kept: the group starts at the first offset.
				from = p.FirstOffset
			}
			sum += max(p.LastOffset-from, 0)
		}
		lag[name] = sum
	}
	return lag, nil
}
