package kafka

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// A busy broker names a new partition's leader seconds before it serves
// the partition (it creates hundreds of partition logs one after the
// other): EnsureTopics must wait for the latter, or the first writes
// after a start fail. Four processes start at once here, as parallel
// tests or a fleet's first deploy do.
func TestEnsureTopicsReturnsOnceEveryPartitionIsWritable(t *testing.T) {
	brokers := testenv.Kafka(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for range 4 {
		cfg := Config{Brokers: brokers, TopicPrefix: testenv.TopicPrefix(t, brokers), Partitions: 8}
		names := make([]string, 25)
		for i := range names {
			names[i] = fmt.Sprintf("t%d", i)
		}
		wg.Go(func() {
			if err := EnsureTopics(ctx, cfg, names); err != nil {
				t.Error(err)
				return
			}
			w := &kafkago.Writer{Addr: kafkago.TCP(brokers...), MaxAttempts: 1, RequiredAcks: kafkago.RequireAll,
				Balancer: kafkago.BalancerFunc(func(m kafkago.Message, _ ...int) int { return m.Partition })}
			defer w.Close()
			var msgs []kafkago.Message
			for _, n := range names {
				for p := range cfg.Partitions {
					msgs = append(msgs, kafkago.Message{Topic: cfg.TopicPrefix + n, Partition: p, Value: []byte("x")})
				}
			}
			if err := w.WriteMessages(ctx, msgs...); err != nil {
				t.Errorf("first write after EnsureTopics: %v", err)
			}
		})
	}
	wg.Wait()
}
