package testenv

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"
)

// TopicPrefix returns a unique topic prefix (ending in ".") for one test
// and deletes every topic carrying it when the test ends. Without the
// deletion a suite leaves thousands of partitions on the shared broker,
// whose open segment files exhaust its file descriptors.
func TopicPrefix(t testing.TB, brokers []string) string {
	t.Helper()
	prefix := Name("t") + "."
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := deleteTopics(ctx, brokers, prefix); err != nil {
			t.Logf("delete topics %s*: %v", prefix, err)
		}
	})
	return prefix
}

func deleteTopics(ctx context.Context, brokers []string, prefix string) error {
	client := &kafkago.Client{Addr: kafkago.TCP(brokers...), Timeout: 20 * time.Second}
	meta, err := client.Metadata(ctx, &kafkago.MetadataRequest{})
	if err != nil {
		return err
	}
	var names []string
	for _, topic := range meta.Topics {
		if strings.HasPrefix(topic.Name, prefix) {
			names = append(names, topic.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	_, err = client.DeleteTopics(ctx, &kafkago.DeleteTopicsRequest{Addr: net.Addr(kafkago.TCP(brokers[0])), Topics: names})
	return err
}
