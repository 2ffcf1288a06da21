package load

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// Latencies split by whether the endpoint's partition was led by the
// killed broker, and by whether the event was sent before the kill.
func TestAnalyseFailover(t *testing.T) {
	l := Leaders{Topic: "deliveries", ByPartition: map[int]int{0: 1, 1: 2, 2: 3}}
	ids := map[string]string{}
	byPartition := map[int]string{}
	// Find endpoint ids landing on partitions 1 (led by node 2) and 0.
	for i := 0; len(byPartition) < 3; i++ {
		id := "00000000-0000-0000-0000-" + leftPad(i)
		p := l.PartitionOf(id)
		if _, ok := byPartition[p]; !ok {
			byPartition[p] = id
		}
	}
	ids["ok-0"], ids["ok-1"] = byPartition[0], byPartition[1]
	killAt := time.UnixMilli(10_000)
	events := []ChaosEvent{{What: "kill", Node: 2, At: killAt}}
	sched := map[int64]time.Time{1: time.UnixMilli(5_000), 2: time.UnixMilli(11_000), 3: time.UnixMilli(5_000), 4: time.UnixMilli(11_000)}
	arrivals := []Arrival{
		{Seq: 1, Endpoint: "ok-0", LatencyUS: 10_000},
		{Seq: 2, Endpoint: "ok-0", LatencyUS: 20_000},
		{Seq: 3, Endpoint: "ok-1", LatencyUS: 9_000_000},
		{Seq: 4, Endpoint: "ok-1", LatencyUS: 30_000},
		{Seq: 5, Endpoint: "unknown", LatencyUS: 1},
	}
	r := AnalyseFailover(l, events, ids, arrivals, func(seq int64) (time.Time, bool) { s, ok := sched[seq]; return s, ok })
	if len(r.AffectedPartitions) != 1 || r.AffectedPartitions[0] != 1 || r.AffectedEndpoints != 1 || r.HealthyEndpoints != 1 {
		t.Fatalf("affected %v, %d endpoints affected, %d healthy", r.AffectedPartitions, r.AffectedEndpoints, r.HealthyEndpoints)
	}
	if r.All.N != 4 || r.Healthy.N != 2 || r.Affected.N != 2 || r.Affected.Max != 9000 || r.Healthy.Max != 20 {
		t.Errorf("latencies: all %+v healthy %+v affected %+v", r.All, r.Healthy, r.Affected)
	}
	if r.HealthyAfter.N != 1 || r.AffectedAfter.N != 1 || r.AffectedAfter.Max != 30 {
		t.Errorf("after the kill: healthy %+v affected %+v", r.HealthyAfter, r.AffectedAfter)
	}
	if len(r.SlowSeconds) != 1 || !r.SlowSeconds[0].At.Equal(time.Unix(5, 0)) || r.SlowSeconds[0].Affected != 1 ||
		r.SlowSeconds[0].Healthy != 0 || r.SlowSeconds[0].Latency.N != 2 {
		t.Errorf("slow seconds: %+v", r.SlowSeconds)
	}
}

func leftPad(i int) string {
	s := "000000000000" + strconv.Itoa(i)
	return s[len(s)-12:]
}

func TestReadChaosEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events")
	if err := os.WriteFile(path, []byte("stop 1 1000\nstarted 1 2500\n\nkill 2 3000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	evs, err := ReadChaosEvents(path)
	if err != nil || len(evs) != 3 || evs[0].What != "stop" || evs[1].At.UnixMilli() != 2500 || evs[2].Node != 2 {
		t.Fatalf("%+v %v", evs, err)
	}
	if err := os.WriteFile(path, []byte("kill two 3000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadChaosEvents(path); err == nil {
		t.Error("a bad line was accepted")
	}
}

// A partition is under-replicated when an in-sync replica is missing or
// it has no leader; whole partitions are not named.
func TestUnderReplicated(t *testing.T) {
	b := func(ids ...int) []kafkago.Broker {
		out := make([]kafkago.Broker, len(ids))
		for i, id := range ids {
			out[i] = kafkago.Broker{ID: id}
		}
		return out
	}
	md := &kafkago.MetadataResponse{Topics: []kafkago.Topic{
		{Name: "deliveries", Partitions: []kafkago.Partition{
			{ID: 0, Leader: kafkago.Broker{ID: 1}, Replicas: b(1, 2, 3), Isr: b(1, 2, 3)},
			{ID: 1, Leader: kafkago.Broker{ID: 2}, Replicas: b(2, 3, 1), Isr: b(2, 3)},
			{ID: 2, Leader: kafkago.Broker{ID: -1}, Replicas: b(3, 1, 2), Isr: b(3, 1, 2)},
		}},
		{Name: "dead", Partitions: []kafkago.Partition{
			{ID: 0, Leader: kafkago.Broker{ID: 3}, Replicas: b(3, 1, 2), Isr: b(3, 1, 2)},
		}},
	}}
	got := UnderReplicated(md)
	want := []string{"deliveries-1", "deliveries-2"}
	if !slices.Equal(got, want) {
		t.Fatalf("under-replicated %v, want %v", got, want)
	}
}

// Against a real broker: a cluster whose partitions are all in sync is
// waited on for the stable time and no longer; one the client cannot
// reach never counts as in sync.
func TestAwaitInSync(t *testing.T) {
	brokers := testenv.Kafka(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	t0 := time.Now()
	if err := AwaitInSync(ctx, brokers, 500*time.Millisecond, 50*time.Millisecond); err != nil {
		t.Fatalf("a healthy cluster: %v", err)
	}
	if took := time.Since(t0); took < 500*time.Millisecond || took > 10*time.Second {
		t.Fatalf("returned after %s; want the stable time, 500ms, and a little more", took)
	}

	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := AwaitInSync(ctx, []string{"127.0.0.1:1"}, 100*time.Millisecond, 50*time.Millisecond)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("an unreachable cluster: %v, want the deadline", err)
	}
}
