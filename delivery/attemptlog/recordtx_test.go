package attemptlog

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// TestRecordTxFeedsStatsAndHealthButNeverDisablesAQueue logs a pull
// queue's failed leases through RecordTx, in a transaction of the
// caller's, for longer than DisableAfter: the attempts land, the hourly
// rollup counts them exactly, the endpoint is marked failing, and it
// stays enabled; a success then clears failing_since.
func TestRecordTxFeedsStatsAndHealthButNeverDisablesAQueue(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	t0 := time.Now().UTC().Add(-10 * 24 * time.Hour).Truncate(24 * time.Hour)
	clk := clock.NewManual(t0)
	if err := NewPartitions(db, PartitionConfig{Ahead: 12}, deliverytest.Logger(), clk).Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	l := New(db, Config{DisableAfter: 5 * 24 * time.Hour}, deliverytest.Logger(), clk)
	s := deliverytest.Seed(t, db, t0)
	if err := db.Exec(`UPDATE endpoints SET kind = 'queue', url = '' WHERE id = ?`, s.EndpointID).Error; err != nil {
		t.Fatal(err)
	}
	record := func(at time.Time, rec Record) {
		t.Helper()
		clk.Set(at)
		ctx := context.Background()
		var after func(context.Context)
		err := pgval.WithConn(ctx, db, func(pc *pgx.Conn) error {
			return pgx.BeginFunc(ctx, pc, func(tx pgx.Tx) error {
				var err error
				after, err = l.RecordTx(ctx, tx, []Record{rec})
				return err
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		after(ctx)
	}
	nack := func(n int, at time.Time) Record {
		rec := failedAttempt(s, n, at)
		rec.ResponseStatus, rec.ResponseHeaders, rec.ResponseBody = nil, nil, ""
		rec.ErrorClass, rec.ErrorMessage = "nack", "nacked by the consumer"
		return rec
	}
	day := 24 * time.Hour
	record(t0, nack(1, t0))
	record(t0.Add(6*day), nack(2, t0.Add(6*day)))

	var h struct {
		Enabled      bool
		FailingSince *time.Time
	}
	health := func() {
		t.Helper()
		if err := db.Raw(`SELECT enabled, failing_since FROM endpoints WHERE id = ?`, s.EndpointID).Scan(&h).Error; err != nil {
			t.Fatal(err)
		}
	}
	health()
	if !h.Enabled || h.FailingSince == nil || !h.FailingSince.Equal(t0) {
		t.Fatalf("after six days of nacks: enabled %v failing_since %v, want enabled and failing since %v", h.Enabled, h.FailingSince, t0)
	}
	var attempts int64
	if err := db.Raw(`SELECT count(*) FROM attempts WHERE delivery_id = ?`, s.DeliveryID).Scan(&attempts).Error; err != nil {
		t.Fatal(err)
	}
	if attempts != 2 {
		t.Fatalf("%d attempts logged, want 2", attempts)
	}
	var roll struct {
		Attempts       int64
		AttemptsFailed int64
		ByErrorClass   string
	}
	if err := db.Raw(`SELECT attempts, attempts_failed, by_error_class::text AS by_error_class FROM endpoint_stats_hourly
		WHERE endpoint_id = ? AND hour = ?`, s.EndpointID, t0).Scan(&roll).Error; err != nil {
		t.Fatal(err)
	}
	if roll.Attempts != 1 || roll.AttemptsFailed != 1 || roll.ByErrorClass != `{"nack": 1}` {
		t.Errorf("rollup of the first hour: %+v, want 1 attempt, 1 failed, {\"nack\": 1}", roll)
	}

	ack := nack(3, t0.Add(6*day+time.Hour))
	ack.Outcome, ack.Status, ack.NextAttemptAt, ack.ErrorClass, ack.ErrorMessage = model.OutcomeSuccess, model.StatusSucceeded, nil, "", ""
	record(t0.Add(6*day+time.Hour), ack)
	health()
	if !h.Enabled || h.FailingSince != nil {
		t.Fatalf("after an ack: enabled %v failing_since %v, want enabled and not failing", h.Enabled, h.FailingSince)
	}
}
