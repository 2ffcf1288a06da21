// Package backoff retries an operation that must eventually succeed
// (publishing to Kafka, committing to Postgres) until its context ends.
package backoff

import (
	"context"
	"fmt"
	"time"
)

// Warner hears of each failure before the next try (*slog.Logger is one).
type Warner interface {
	Warn(msg string, args ...any)
}

// Until calls f until it succeeds or ctx ends, backing off from 50 ms up
// to 5 s. what names the operation in logs and in the returned error.
func Until(ctx context.Context, log Warner, what string, f func() error) error {
	delay := 50 * time.Millisecond
	for {
		err := f()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		log.Warn(what+" failed; retrying", "err", err, "backoff", delay)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%s: %w", what, err)
		case <-t.C:
		}
		delay = min(delay*2, 5*time.Second)
	}
}
