package load

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	kafkago "github.com/segmentio/kafka-go"
)

// Leaders are the partition leaders of one topic: what a failover run
// records before it disturbs a broker, so each job's latency can be
// attributed to a partition that lost its leader or one that did not.
type Leaders struct {
	Topic string
	// ByPartition maps each partition to the node id leading it.
	ByPartition map[int]int
}

// ReadLeaders asks the cluster at brokers who leads each partition of
// topic.
func ReadLeaders(ctx context.Context, brokers []string, topic string) (Leaders, error) {
	client := &kafkago.Client{Addr: kafkago.TCP(brokers...)}
	md, err := client.Metadata(ctx, &kafkago.MetadataRequest{Topics: []string{topic}})
	if err != nil {
		return Leaders{}, fmt.Errorf("metadata of %s: %w", topic, err)
	}
	l := Leaders{Topic: topic, ByPartition: map[int]int{}}
	for _, t := range md.Topics {
		if t.Name != topic || t.Error != nil {
			continue
		}
		for _, p := range t.Partitions {
			l.ByPartition[p.ID] = p.Leader.ID
		}
	}
	if len(l.ByPartition) == 0 {
		return Leaders{}, fmt.Errorf("topic %s has no partitions", topic)
	}
	return l, nil
}

// PartitionOf is the partition Ferry's writer sends an endpoint's jobs to:
// kafka-go's Hash balancer over the endpoint id, the key of every job.
func (l Leaders) PartitionOf(endpointID string) int {
	parts := make([]int, 0, len(l.ByPartition))
	for p := range l.ByPartition {
		parts = append(parts, p)
	}
	slices.Sort(parts)
	return (&kafkago.Hash{}).Balance(kafkago.Message{Key: []byte(endpointID)}, parts...)
}

// ChaosEvent is one thing a chaos script did to the cluster, read from
// the lines "<what> <node> <unix ms>" it appends to its events file
// (kill, stop, started).
type ChaosEvent struct {
	What string
	Node int
	At   time.Time
}

// ReadChaosEvents reads a chaos script's events file.
func ReadChaosEvents(path string) ([]ChaosEvent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("chaos events: %w", err)
	}
	defer f.Close()
	var out []ChaosEvent
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			continue
		}
		node, err1 := strconv.Atoi(fields[1])
		ms, err2 := strconv.ParseInt(fields[2], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("chaos events: bad line %q", sc.Text())
		}
		out = append(out, ChaosEvent{What: fields[0], Node: node, At: time.UnixMilli(ms)})
	}
	return out, sc.Err()
}

// FailoverReport splits a run's delivery latencies by whether the
// endpoint's partition of the deliveries topic was led, when the run
// started, by a broker the chaos script killed or stopped.
type FailoverReport struct {
	Events []ChaosEvent `json:"events"`
	// Disturbed are the nodes killed or stopped.
	Disturbed []int `json:"disturbed_nodes"`
	// AffectedPartitions were led by a disturbed node.
	AffectedPartitions []int `json:"affected_partitions"`
	// AffectedEndpoints and HealthyEndpoints count the run's endpoints
	// on each side.
	AffectedEndpoints int `json:"affected_endpoints"`
	HealthyEndpoints  int `json:"healthy_endpoints"`
	// All, Healthy and Affected are scheduled send → first 2xx.
	All      Latency `json:"all"`
	Healthy  Latency `json:"healthy"`
	Affected Latency `json:"affected"`
	// AfterFirstDisturbance are the latencies of events scheduled from
	// the first kill or stop on (healthy and affected).
	HealthyAfter  Latency `json:"healthy_after_disturbance"`
	AffectedAfter Latency `json:"affected_after_disturbance"`
	// SlowSeconds are the seconds of scheduled send time whose slowest
	// delivery took over a second: when in the run the tail was made.
	SlowSeconds []SlowSecond `json:"slow_seconds,omitempty"`
}

// SlowSecond is one second of a failover run's sending, by scheduled
// send time, and how its deliveries fared.
type SlowSecond struct {
	At       time.Time `json:"at"`
	Latency  Latency   `json:"latency"`
	Affected int       `json:"affected_over_1s"` // deliveries over 1 s on partitions that lost their leader
	Healthy  int       `json:"healthy_over_1s"`
}

// AnalyseFailover splits arrivals (of endpoints named in endpointIDs) by
// whether the endpoint's partition was led by a node that events kill or
// stop. sched gives each event's scheduled send time.
func AnalyseFailover(l Leaders, events []ChaosEvent, endpointIDs map[string]string, arrivals []Arrival,
	sched func(seq int64) (time.Time, bool)) FailoverReport {
	r := FailoverReport{Events: events}
	disturbed := map[int]bool{}
	var first time.Time
	for _, e := range events {
		if e.What == "kill" || e.What == "stop" {
			if !disturbed[e.Node] {
				r.Disturbed = append(r.Disturbed, e.Node)
			}
			disturbed[e.Node] = true
			if first.IsZero() || e.At.Before(first) {
				first = e.At
			}
		}
	}
	for p, leader := range l.ByPartition {
		if disturbed[leader] {
			r.AffectedPartitions = append(r.AffectedPartitions, p)
		}
	}
	slices.Sort(r.AffectedPartitions)
	affected := map[string]bool{}
	for name, id := range endpointIDs {
		a := disturbed[l.ByPartition[l.PartitionOf(id)]]
		affected[name] = a
		if a {
			r.AffectedEndpoints++
		} else {
			r.HealthyEndpoints++
		}
	}
	var all, healthy, aff, healthyAfter, affAfter []int64
	type second struct {
		lat                       []int64
		slowAffected, slowHealthy int
	}
	seconds := map[int64]*second{}
	for _, a := range arrivals {
		isAffected, known := affected[a.Endpoint]
		if !known {
			continue
		}
		all = append(all, a.LatencyUS)
		after := false
		at, ok := sched(a.Seq)
		if ok && !first.IsZero() && !at.Before(first) {
			after = true
		}
		if ok {
			sec := seconds[at.Unix()]
			if sec == nil {
				sec = &second{}
				seconds[at.Unix()] = sec
			}
			sec.lat = append(sec.lat, a.LatencyUS)
			if a.LatencyUS > 1e6 {
				if isAffected {
					sec.slowAffected++
				} else {
					sec.slowHealthy++
				}
			}
		}
		if isAffected {
			aff = append(aff, a.LatencyUS)
			if after {
				affAfter = append(affAfter, a.LatencyUS)
			}
		} else {
			healthy = append(healthy, a.LatencyUS)
			if after {
				healthyAfter = append(healthyAfter, a.LatencyUS)
			}
		}
	}
	r.All, r.Healthy, r.Affected = Summarise(all), Summarise(healthy), Summarise(aff)
	r.HealthyAfter, r.AffectedAfter = Summarise(healthyAfter), Summarise(affAfter)
	for unix, sec := range seconds {
		if sec.slowAffected+sec.slowHealthy > 0 {
			r.SlowSeconds = append(r.SlowSeconds, SlowSecond{At: time.Unix(unix, 0), Latency: Summarise(sec.lat),
				Affected: sec.slowAffected, Healthy: sec.slowHealthy})
		}
	}
	slices.SortFunc(r.SlowSeconds, func(a, b SlowSecond) int { return a.At.Compare(b.At) })
	return r
}

// UnderReplicated names the partitions ("topic-N") of md whose in-sync
// replicas are fewer than their replicas, or that have no leader.
func UnderReplicated(md *kafkago.MetadataResponse) []string {
	var out []string
	for _, t := range md.Topics {
		for _, p := range t.Partitions {
			if p.Error != nil || p.Leader.ID < 0 || len(p.Isr) < len(p.Replicas) {
				out = append(out, fmt.Sprintf("%s-%d", t.Name, p.ID))
			}
		}
	}
	slices.Sort(out)
	return out
}

// AwaitInSync returns once every partition of every topic at brokers has
// all its replicas in sync and has stayed so for stable: a rolling
// restart's next broker waits for that, not for the first moment the
// in-sync sets are whole, because a broker that just started drops out of
// them and rejoins while its JVM warms up. It asks the cluster's metadata
// every poll; a broker that does not answer counts as not in sync.
func AwaitInSync(ctx context.Context, brokers []string, stable, poll time.Duration) error {
	client := &kafkago.Client{Addr: kafkago.TCP(brokers...), Timeout: 2 * time.Second}
	var since time.Time
	var last []string
	for {
		md, err := client.Metadata(ctx, &kafkago.MetadataRequest{})
		var under []string
		if err == nil {
			under = UnderReplicated(md)
		}
		switch {
		case err != nil:
			since, last = time.Time{}, []string{err.Error()}
		case len(under) > 0:
			since, last = time.Time{}, under
		case since.IsZero():
			since = time.Now()
		case time.Since(since) >= stable:
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("in-sync replicas not whole for %s (last: %s): %w", stable, strings.Join(last, ", "), ctx.Err())
		case <-time.After(poll):
		}
	}
}
