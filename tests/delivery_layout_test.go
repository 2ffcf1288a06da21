package tests

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/dispatch"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/tests/testenv"

	kafkago "github.com/segmentio/kafka-go"
)

// TestKafkaLayout checks the topics Ferry creates at start-up (deliveries,
// every retry tier, dead) with the configured partition count, that jobs
// on the deliveries topic are keyed by endpoint id (so each endpoint's jobs
// share a partition), and that a dropping status sends the delivery to the
// dead topic after exactly one attempt, recorded as dropped.
func TestKafkaLayout(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.KafkaPartitions = 3
	f := startFerry(t, cfg)

	client := &kafkago.Client{Addr: kafkago.TCP(cfg.KafkaBrokers...)}
	want := []string{model.TopicDeliveries, model.TopicDead}
	for _, tier := range (dispatch.RetryPolicy{Scale: 1}).Tiers() {
		want = append(want, tier.Name)
	}
	names := make([]string, len(want))
	for i, n := range want {
		names[i] = cfg.KafkaTopicPrefix + n
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	md, err := client.Metadata(ctx, &kafkago.MetadataRequest{Topics: names})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, tp := range md.Topics {
		if tp.Error == nil {
			got[tp.Name] = len(tp.Partitions)
		}
	}
	for _, n := range names {
		if got[n] != 3 {
			t.Errorf("topic %s has %d partitions, want 3 (exists: %v)", n, got[n], got[n] > 0)
		}
	}
	if len(want) != 13 {
		t.Errorf("%d topics, want deliveries + 11 tiers + dead", len(want))
	}

	ok := newHookServer(t, nil)
	drop := newHookServer(t, func(n int, h hit, w http.ResponseWriter) { w.WriteHeader(422) })
	_, api := signUp(t, f, "layout@example.com")
	epOK := createEndpoint(t, api, map[string]any{"url": ok.URL, "event_types": []string{"a"}})
	epDrop := createEndpoint(t, api, map[string]any{"url": drop.URL, "event_types": []string{"b"}})
	var dropEvent acceptedEvent
	for i := 0; i < 10; i++ {
		sendEvent(t, api, "a", map[string]any{"i": i})
		if i == 0 {
			dropEvent = sendEvent(t, api, "b", map[string]any{"i": i})
		}
	}
	d := waitStatus(t, api, dropEvent.ID, "dropped", 30*time.Second)
	if d.AttemptCount != 1 || d.EndpointID != epDrop.ID {
		t.Errorf("dropped delivery %+v", d)
	}
	a := eventAttempts(t, api, dropEvent.ID)
	if len(a) != 1 || a[0].Outcome != "dropped" || a[0].ResponseStatus == nil || *a[0].ResponseStatus != 422 {
		t.Errorf("attempts of the dropped delivery %+v", a)
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return ok.count() == 10 }, "ok endpoint got %d", ok.count())
	// A dropped delivery's last step is the dead topic; a retry would
	// instead go to a retry tier and never reach it. Once the job is
	// there, no request can follow.
	testenv.Eventually(t, 30*time.Second, func() bool {
		for _, j := range topicJobs(t, f, model.TopicDead) {
			if j.DeliveryID.String() == d.ID {
				return true
			}
		}
		return false
	}, "dropped delivery not on the dead topic")
	if drop.count() != 1 {
		t.Errorf("dropping endpoint got %d requests, want exactly 1", drop.count())
	}

	partitionOf := map[string]map[int]bool{}
	for _, m := range readTopic(t, f, model.TopicDeliveries) {
		k := string(m.Key)
		if partitionOf[k] == nil {
			partitionOf[k] = map[int]bool{}
		}
		partitionOf[k][m.Partition] = true
	}
	if len(partitionOf) != 2 || len(partitionOf[epOK.ID]) != 1 || len(partitionOf[epDrop.ID]) != 1 {
		t.Errorf("deliveries keyed %v, want the two endpoint ids, each on one partition", partitionOf)
	}
	dead := topicJobs(t, f, model.TopicDead)
	if len(dead) != 1 || dead[0].DeliveryID.String() != d.ID || dead[0].EndpointID.String() != epDrop.ID {
		t.Errorf("dead topic %+v, want the dropped delivery", dead)
	}
}
