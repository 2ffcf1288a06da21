package attemptlog

import (
	"context"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
)

// TestAttemptLogStoresTruncationMarks checks the marks for cut response
// headers and body are written with the attempt, and default to false.
func TestAttemptLogStoresTruncationMarks(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	now := time.Now().UTC()
	if err := NewPartitions(db, PartitionConfig{}, deliverytest.Logger(), nil).Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	l := startAttemptLog(t, db, Config{}, nil)
	for _, c := range []struct{ headers, body bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		rec := failedAttempt(deliverytest.Seed(t, db, now), 1, now)
		rec.ResponseHeadersTruncated, rec.ResponseBodyTruncated = c.headers, c.body
		if err := l.Record(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		var got struct{ ResponseHeadersTruncated, ResponseBodyTruncated bool }
		if err := db.Raw(`SELECT response_headers_truncated, response_body_truncated FROM attempts WHERE id = ?`, rec.ID).
			Scan(&got).Error; err != nil {
			t.Fatal(err)
		}
		if got.ResponseHeadersTruncated != c.headers || got.ResponseBodyTruncated != c.body {
			t.Errorf("stored marks %+v, want headers %v, body %v", got, c.headers, c.body)
		}
	}
}
