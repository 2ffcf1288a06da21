package tests

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestSingleEndpointNotSerialisedBehindAttemptLog proves that an
// endpoint's lane takes its next job as soon as an HTTP exchange ends,
// without waiting for the attempt log to commit that attempt.
//
// Counting concurrent requests alone cannot show it: lane workers that
// wait for the commit still send up to max_in_flight requests at once,
// they just send fewer per second. So the test stops the attempt log's
// commits outright: a transaction holds LOCK TABLE attempts IN SHARE
// MODE, which the log's COPY into attempts waits for. One endpoint at
// default settings (max_in_flight 16) and a receiver that answers after
// 20 ms then get 400 events. Lanes that do not wait for the commit
// deliver all 400 while nothing can be logged (≈ 0.5 s of receiver time
// at 16 in flight); lanes that wait deliver max_in_flight requests and
// stop. The receiver also checks that concurrency exceeds 1 and never
// exceeds max_in_flight. Once the lock goes, every attempt must be
// logged and every delivery succeed: at-least-once is unchanged.
func TestSingleEndpointNotSerialisedBehindAttemptLog(t *testing.T) {
	const (
		events      = 400
		maxInFlight = 16 // Ferry's default
		answerAfter = 20 * time.Millisecond
		blockedFor  = 10 * time.Second // upper bound on waiting while the log is blocked
	)
	f := startFerry(t, testConfig(t))
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	rc := newHookServer(t, func(_ int, _ hit, w http.ResponseWriter) {
		time.Sleep(answerAfter)
		w.WriteHeader(http.StatusOK)
	})
	session, api := signUp(t, f, "one-endpoint@example.com")
	tenant := tenantID(t, session)
	ep := createEndpoint(t, api, map[string]any{"url": rc.URL})
	var got struct {
		MaxInFlight int `json:"max_in_flight"`
	}
	api.must(200, "GET", "/endpoints/"+ep.ID, nil, &got)
	if got.MaxInFlight != maxInFlight {
		t.Fatalf("default max_in_flight is %d, this test assumes %d", got.MaxInFlight, maxInFlight)
	}

	// Warm up: one delivery end to end, logged, so consumers are in
	// their groups and caches are filled before the log is blocked.
	warm := sendEvent(t, api, "warm", map[string]any{"i": -1})
	waitStatus(t, api, warm.ID, "succeeded", 60*time.Second)
	var logged int
	if err := db.QueryRow(`SELECT count(*) FROM attempts WHERE tenant_id = $1`, tenant).Scan(&logged); err != nil || logged != 1 {
		t.Fatalf("attempts after warm-up: %d (%v), want 1", logged, err)
	}

	// Block the attempt log's commits.
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("lock connection: %v", err)
	}
	defer conn.Close()
	lock, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	unlocked := false
	unlock := func() {
		if !unlocked {
			unlocked = true
			_ = lock.Rollback()
		}
	}
	defer unlock()
	if _, err := lock.ExecContext(ctx, `LOCK TABLE attempts IN SHARE MODE`); err != nil {
		t.Fatalf("lock attempts: %v", err)
	}

	before := rc.count()
	start := time.Now()
	newEventPoster(f, api, 16).postMany(t, events, 16, "burst")
	accepted := time.Since(start)
	for time.Since(start) < blockedFor && rc.count()-before < events {
		time.Sleep(10 * time.Millisecond)
	}
	hits := rc.all()[before:]
	var span time.Duration
	if len(hits) > 1 {
		span = hits[len(hits)-1].At.Sub(hits[0].At)
	}
	var loggedWhileBlocked int
	if err := lock.QueryRowContext(ctx, `SELECT count(*) FROM attempts WHERE tenant_id = $1`, tenant).Scan(&loggedWhileBlocked); err != nil {
		t.Fatalf("count attempts: %v", err)
	}
	maxIn := rc.maxInFlight()
	t.Logf("attempt log blocked: %d of %d deliveries reached the receiver in %s (events accepted in %s; arrivals spread over %s), "+
		"at most %d in flight, %d attempts logged meanwhile", len(hits), events, time.Since(start).Round(time.Millisecond),
		accepted.Round(time.Millisecond), span.Round(time.Millisecond), maxIn, loggedWhileBlocked-1)
	if loggedWhileBlocked != 1 {
		t.Fatalf("%d attempts were logged while attempts was locked: the lock did not block the attempt log", loggedWhileBlocked-1)
	}
	if len(hits) < events {
		t.Errorf("only %d of %d deliveries reached the receiver within %s while the attempt log could not commit: "+
			"the lane waits for the attempt log's commit before it takes its next job (serialised behind the commit)",
			len(hits), events, blockedFor)
	}
	if maxIn < 2 {
		t.Errorf("at most %d request in flight at the receiver, want more than 1 (max_in_flight %d)", maxIn, maxInFlight)
	}
	if maxIn > maxInFlight {
		t.Errorf("%d requests in flight at once, over max_in_flight %d", maxIn, maxInFlight)
	}

	// Unblock: every attempt is logged and every delivery succeeds.
	unlock()
	released := time.Now()
	var st map[string]int
	testenv.Eventually(t, 60*time.Second, func() bool {
		st = deliveryStatuses(t, db, tenant)
		return st["succeeded"] == events+1
	}, "deliveries %v, want %d succeeded", st, events+1)
	if err := db.QueryRow(`SELECT count(DISTINCT delivery_id) FROM attempts WHERE tenant_id = $1`, tenant).Scan(&logged); err != nil {
		t.Fatalf("count attempts: %v", err)
	}
	if logged != events+1 {
		t.Errorf("%d deliveries have a logged attempt, want %d", logged, events+1)
	}
	t.Logf("after the unlock: all %d deliveries succeeded and logged in %s", events+1, time.Since(released).Round(time.Millisecond))
}
