package attemptlog

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/opevents"
	"github.com/ferry-dev/ferry/internal/clock"
)

func partitionsOf(t *testing.T, db *gorm.DB) []string {
	t.Helper()
	var names []string
	if err := db.Raw(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'attempts'`).Scan(&names).Error; err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

// TestPartitionsCreatedAheadAndDropped drives the partition job with an
// injected clock: it creates yesterday to three days ahead, and drops a
// day's partition (with its rows) once the whole day is past retention.
func TestPartitionsCreatedAheadAndDropped(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	clk := clock.NewManual(time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC))
	p := NewPartitions(db, PartitionConfig{Retention: 30 * 24 * time.Hour}, deliverytest.Logger(), clk)
	ctx := context.Background()
	if err := p.Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"attempts_p20260109", "attempts_p20260110", "attempts_p20260111", "attempts_p20260112", "attempts_p20260113"}
	if got := partitionsOf(t, db); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("partitions %v, want %v", got, want)
	}
	s := deliverytest.Seed(t, db, clk.Now())
	for i, day := range []int{9, 10, 13} {
		if err := db.Exec(`INSERT INTO attempts (id, tenant_id, delivery_id, event_id, endpoint_id, attempt_number, trigger,
			started_at, duration_ms, request_headers, outcome) VALUES (?, ?, ?, ?, ?, ?, 'initial', ?, 1, '{}', 'retry')`,
			uuid.New(), s.TenantID, s.DeliveryID, s.EventID, s.EndpointID, i+1, time.Date(2026, 1, day, 3, 0, 0, 0, time.UTC)).Error; err != nil {
			t.Fatalf("insert attempt on day %d: %v", day, err)
		}
	}

	// 2026-02-10 12:00 minus 30 days is 2026-01-11 12:00: the 9th and
	// 10th are wholly older and go; the 11th is partly inside and stays.
	clk.Set(time.Date(2026, 2, 10, 12, 0, 0, 0, time.UTC))
	if err := p.Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	got := partitionsOf(t, db)
	for _, gone := range []string{"attempts_p20260109", "attempts_p20260110"} {
		for _, n := range got {
			if n == gone {
				t.Errorf("expired partition %s still exists", gone)
			}
		}
	}
	for _, kept := range []string{"attempts_p20260111", "attempts_p20260113", "attempts_p20260209", "attempts_p20260213"} {
		found := false
		for _, n := range got {
			found = found || n == kept
		}
		if !found {
			t.Errorf("partition %s missing; have %v", kept, got)
		}
	}
	var left []int
	if err := db.Raw(`SELECT attempt_number FROM attempts ORDER BY 1`).Scan(&left).Error; err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(left) != "[3]" {
		t.Errorf("attempts left %v, want only the one of the 13th", left)
	}
}

func startAttemptLog(t *testing.T, db *gorm.DB, cfg Config, clk clock.Clock) *Log {
	t.Helper()
	if cfg.Events == nil {
		cfg.Events = opevents.NewEmitter(db, nil, nil, nil, deliverytest.Logger(), clk)
	}
	l := New(db, cfg, deliverytest.Logger(), clk)
	deliverytest.Run(t, context.Background(), l.Run)
	return l
}

func failedAttempt(s deliverytest.Seeded, n int, at time.Time) Record {
	status := 500
	next := at.Add(time.Minute)
	return Record{TenantID: s.TenantID, Status: model.StatusRetrying, FirstAttemptAt: at, Attempt: model.Attempt{
		ID: uuid.New(), DeliveryID: s.DeliveryID, EventID: s.EventID, EndpointID: s.EndpointID, AttemptNumber: n,
		Trigger: model.TriggerRetry, StartedAt: at, DurationMs: 12, RequestHeaders: http.Header{"Webhook-Id": {s.EventID.String()}},
		ResponseStatus: &status, ResponseHeaders: http.Header{"X-Reason": {"down"}}, ResponseBody: "down for maintenance",
		Outcome: model.OutcomeRetry, NextAttemptAt: &next,
	}}
}

// TestAttemptLogPacesItsBatches records one attempt after a quiet spell,
// which is written at once, then five more in quick succession right
// after it, 30 ms apart: they wait for the pace and share one
// transaction.
func TestAttemptLogPacesItsBatches(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	if err := NewPartitions(db, PartitionConfig{}, deliverytest.Logger(), nil).Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	const pace = 500 * time.Millisecond
	var mu sync.Mutex
	var sizes []int
	l := startAttemptLog(t, db, Config{Pace: pace, BatchSize: prometheus.ObserverFunc(func(n float64) {
		mu.Lock()
		sizes = append(sizes, int(n))
		mu.Unlock()
	})}, nil)
	seeds := make([]deliverytest.Seeded, 6)
	for i := range seeds {
		seeds[i] = deliverytest.Seed(t, db, now)
	}
	start := time.Now()
	if err := l.Record(context.Background(), failedAttempt(seeds[0], 1, now)); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took >= pace {
		t.Errorf("the first attempt took %s to log: nothing came before it", took)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 5)
	for i, s := range seeds[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(20+30*i) * time.Millisecond)
			errs <- l.Record(context.Background(), failedAttempt(s, 1, now))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sizes) != 2 || sizes[0] != 1 || sizes[1] != 5 {
		t.Errorf("batches of %v attempts, want [1 5]", sizes)
	}
	var logged int64
	if err := db.Raw(`SELECT count(*) FROM attempts WHERE delivery_id IN ?`, []uuid.UUID{seeds[1].DeliveryID, seeds[2].DeliveryID,
		seeds[3].DeliveryID, seeds[4].DeliveryID, seeds[5].DeliveryID}).Scan(&logged).Error; err != nil {
		t.Fatal(err)
	}
	if logged != 5 {
		t.Errorf("%d of the 5 paced attempts are in the log", logged)
	}
}

// TestAttemptLogWritesEveryFieldInBatches records many attempts at once
// and checks they share batches, every field of docs/contract.md#attempt-log
// is stored, and the
// delivery row follows the latest attempt.
func TestAttemptLogWritesEveryFieldInBatches(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	if err := NewPartitions(db, PartitionConfig{}, deliverytest.Logger(), nil).Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	var batches atomic.Int64
	l := startAttemptLog(t, db, Config{BatchSize: prometheus.ObserverFunc(func(float64) { batches.Add(1) })}, nil)
	const n = 200
	seeds := make([]deliverytest.Seeded, n)
	for i := range seeds {
		seeds[i] = deliverytest.Seed(t, db, now)
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range seeds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- l.Record(context.Background(), failedAttempt(seeds[i], 1, now))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if b := batches.Load(); b >= n/2 {
		t.Errorf("%d attempts took %d batches; concurrent attempts should share transactions", n, b)
	}
	var row struct {
		TenantID, DeliveryID, EventID, EndpointID uuid.UUID
		AttemptNumber                             int
		Trigger, Actor                            string
		StartedAt                                 time.Time
		DurationMs                                int
		RequestHeaders, ResponseHeaders           string
		ResponseStatus                            int
		ResponseBody, ErrorClass, ErrorMessage    string
		Outcome                                   string
		NextAttemptAt                             time.Time
	}
	s := seeds[7]
	if err := db.Raw(`SELECT tenant_id, delivery_id, event_id, endpoint_id, attempt_number, trigger, actor, started_at,
		duration_ms, request_headers::text, response_headers::text, response_status, response_body, error_class,
		error_message, outcome, next_attempt_at FROM attempts WHERE delivery_id = ?`, s.DeliveryID).Scan(&row).Error; err != nil {
		t.Fatal(err)
	}
	if row.TenantID != s.TenantID || row.EventID != s.EventID || row.EndpointID != s.EndpointID || row.AttemptNumber != 1 ||
		row.Trigger != "retry" || !row.StartedAt.Equal(now) || row.DurationMs != 12 || row.ResponseStatus != 500 ||
		row.ResponseBody != "down for maintenance" || row.Outcome != "retry" || !row.NextAttemptAt.Equal(now.Add(time.Minute)) ||
		!strings.Contains(row.RequestHeaders, s.EventID.String()) || !strings.Contains(row.ResponseHeaders, "down") {
		t.Errorf("stored attempt %+v", row)
	}
	var d struct {
		Status         string
		AttemptCount   int
		FirstAttemptAt time.Time
		NextAttemptAt  time.Time
	}
	if err := db.Raw(`SELECT status, attempt_count, first_attempt_at, next_attempt_at FROM deliveries WHERE id = ?`, s.DeliveryID).Scan(&d).Error; err != nil {
		t.Fatal(err)
	}
	if d.Status != "retrying" || d.AttemptCount != 1 || !d.FirstAttemptAt.Equal(now) || !d.NextAttemptAt.Equal(now.Add(time.Minute)) {
		t.Errorf("delivery %+v", d)
	}
	// An older attempt written late must not move the delivery back.
	late := failedAttempt(s, 1, now)
	late.Status = model.StatusDropped
	if err := l.Record(context.Background(), late); err != nil {
		t.Fatal(err)
	}
	if err := db.Raw(`SELECT status, attempt_count FROM deliveries WHERE id = ?`, s.DeliveryID).Scan(&d).Error; err != nil {
		t.Fatal(err)
	}
	if d.Status != "retrying" {
		t.Errorf("a duplicate attempt moved the delivery to %s", d.Status)
	}
}

// TestEndpointAutoDisabledAfterFailingDays drives endpoint health with an
// injected clock: failures for less than DisableAfter keep the endpoint,
// a success resets the count, and DisableAfter of nothing but failures
// disables it with a reason.
func TestEndpointAutoDisabledAfterFailingDays(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	t0 := time.Now().UTC().Add(-10 * 24 * time.Hour).Truncate(24 * time.Hour)
	clk := clock.NewManual(t0)
	if err := NewPartitions(db, PartitionConfig{Ahead: 12}, deliverytest.Logger(), clk).Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	l := startAttemptLog(t, db, Config{DisableAfter: 5 * 24 * time.Hour}, clk)
	s := deliverytest.Seed(t, db, t0)
	type health struct {
		Enabled        bool
		DisabledReason string
		FailingSince   *time.Time
	}
	check := func(step string, wantEnabled bool, wantFailingSince *time.Time) health {
		t.Helper()
		var h health
		if err := db.Raw(`SELECT enabled, disabled_reason, failing_since FROM endpoints WHERE id = ?`, s.EndpointID).Scan(&h).Error; err != nil {
			t.Fatal(err)
		}
		if h.Enabled != wantEnabled {
			t.Fatalf("%s: enabled = %v, want %v (reason %q)", step, h.Enabled, wantEnabled, h.DisabledReason)
		}
		if (h.FailingSince == nil) != (wantFailingSince == nil) || (h.FailingSince != nil && !h.FailingSince.Equal(*wantFailingSince)) {
			t.Fatalf("%s: failing_since = %v, want %v", step, h.FailingSince, wantFailingSince)
		}
		return h
	}
	n := 0
	at := func(d time.Duration, outcome model.Outcome) {
		t.Helper()
		n++
		clk.Set(t0.Add(d))
		rec := failedAttempt(s, n, t0.Add(d))
		if outcome == model.OutcomeSuccess {
			rec.Outcome, rec.Status, rec.NextAttemptAt = model.OutcomeSuccess, model.StatusSucceeded, nil
		}
		if err := l.Record(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
	}
	day := 24 * time.Hour
	at(0, model.OutcomeRetry)
	check("first failure", true, &t0)
	at(4*day, model.OutcomeRetry)
	check("failing 4 days", true, &t0)
	at(4*day+time.Hour, model.OutcomeSuccess)
	check("a success", true, nil)
	restart := t0.Add(4*day + 2*time.Hour)
	at(4*day+2*time.Hour, model.OutcomeRetry)
	check("failing again", true, &restart)
	at(9*day+time.Hour, model.OutcomeRetry)
	check("4d23h of failures", true, &restart)
	at(9*day+3*time.Hour, model.OutcomeRetry)
	h := check("5d1h of failures", false, &restart)
	if !strings.Contains(h.DisabledReason, "disabled automatically") {
		t.Errorf("disabled_reason %q", h.DisabledReason)
	}
}

// TestAttemptLogStoresHostileResponses checks a response whose headers
// carry NUL bytes and invalid UTF-8 is still logged, and that a row
// Postgres refuses (here: no partition for its time) fails alone instead
// of failing every attempt sharing its batch.
func TestAttemptLogStoresHostileResponses(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	now := time.Now().UTC()
	if err := NewPartitions(db, PartitionConfig{}, deliverytest.Logger(), nil).Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	l := startAttemptLog(t, db, Config{}, nil)
	hostile := failedAttempt(deliverytest.Seed(t, db, now), 1, now)
	hostile.ResponseHeaders = http.Header{"X-Nul\x00": {"a\x00b", "\xff\xfe"}}
	hostile.ErrorMessage = "bad \xff byte"
	hostile.ResponseBody = "nul \x00 body"
	good := failedAttempt(deliverytest.Seed(t, db, now), 1, now)
	unpartitioned := failedAttempt(deliverytest.Seed(t, db, now), 1, time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC))
	recs := []Record{hostile, good, unpartitioned}
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		errs := make([]error, len(recs))
		for i, rec := range recs {
			rec.ID = uuid.New()
			rec.AttemptNumber = round + 1
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = l.Record(context.Background(), rec)
			}()
		}
		wg.Wait()
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("round %d: hostile %v, good %v; want both stored", round, errs[0], errs[1])
		}
		if errs[2] == nil {
			t.Fatalf("round %d: an attempt outside every partition was stored", round)
		}
	}
	var n int
	if err := db.Raw(`SELECT count(*) FROM attempts`).Scan(&n).Error; err != nil || n != 6 {
		t.Fatalf("%d attempts stored (%v), want 6", n, err)
	}
}
