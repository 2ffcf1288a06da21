package testenv

import (
	"context"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/topics"
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
		if _, err := topics.Drop(ctx, brokers, prefix); err != nil {
			t.Logf("delete topics %s*: %v", prefix, err)
		}
	})
	return prefix
}
