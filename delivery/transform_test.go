package delivery

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
	"gorm.io/driver/postgres"

	"github.com/ferry-dev/ferry/delivery/model"
)

type storedTransform struct {
	EndpointID uuid.UUID
	Present    bool
	Cancelled  bool
	Error      *string
	Body       []byte
	Headers    *string
}

func storedTransforms(t *testing.T, s *Service, eventID uuid.UUID) map[uuid.UUID]storedTransform {
	t.Helper()
	var rows []storedTransform
	require.NoError(t, s.db.Raw(`SELECT d.endpoint_id, t.delivery_id IS NOT NULL AS present, coalesce(t.cancelled, false) AS cancelled,
			t.error, t.body, t.headers::text AS headers
		FROM deliveries d LEFT JOIN delivery_transforms t ON t.delivery_id = d.id WHERE d.event_id = ?`, eventID).Scan(&rows).Error)
	out := map[uuid.UUID]storedTransform{}
	for _, r := range rows {
		out[r.EndpointID] = r
	}
	return out
}

// TestFanOutStoresTransforms: at fan-out, on the single-event and the
// group-commit path, each delivery to an endpoint with a transformation
// gets its stored result (body and header changes, a cancel, or an
// error); deliveries to endpoints without one get no row.
func TestFanOutStoresTransforms(t *testing.T) {
	t.Parallel()
	db := openTestDB(t)
	s := newTestService(t, db, &collectingRelay{}, nil)
	tenantID, _ := seedTenant(t, db)
	ctx := context.Background()
	mk := func(src string) Endpoint {
		ep, _, err := s.CreateEndpoint(ctx, tenantID, EndpointInput{URL: "https://example.com/h", EventTypes: []string{"order.*"},
			Headers: map[string]string{"X-Team": "sales", "X-Drop": "1"}, Transformation: src})
		require.NoError(t, err)
		return ep
	}
	plain := mk("")
	reshape := mk(`function handler(w) { w.payload = {amount: w.event.data.amount}; w.headers["X-Amount"] = String(w.event.data.amount);
		delete w.headers["X-Drop"]; return w }`)
	cancel := mk(`function handler(w) { w.cancel = w.event.data.amount < 100; return w }`)
	throws := mk(`function handler(w) { throw new TypeError("bad " + w.event.type) }`)

	check := func(eventID uuid.UUID, amount int) {
		t.Helper()
		got := storedTransforms(t, s, eventID)
		require.Len(t, got, 4)
		require.False(t, got[plain.ID].Present, "no row without a transformation")
		r := got[reshape.ID]
		require.True(t, r.Present)
		require.Equal(t, fmt.Sprintf(`{"amount":%d}`, amount), string(r.Body))
		require.JSONEq(t, fmt.Sprintf(`{"X-Amount":"%d","X-Drop":null}`, amount), *r.Headers)
		require.Equal(t, amount < 100, got[cancel.ID].Cancelled)
		if amount >= 100 {
			require.Contains(t, string(got[cancel.ID].Body), `"type":"order.created"`, "the envelope, unchanged")
		}
		require.NotNil(t, got[throws.ID].Error)
		require.Contains(t, *got[throws.ID].Error, "TypeError: bad order.created")
	}
	ev, _, err := s.Ingest(ctx, tenantID, EventInput{Type: "order.created", Data: []byte(`{"amount":50}`), IdempotencyKey: "one"})
	require.NoError(t, err)
	check(ev.ID, 50)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			amount := 50 + 100*i
			ev, _, err := s.Ingest(ctx, tenantID, EventInput{Type: "order.created", Data: []byte(fmt.Sprintf(`{"amount":%d}`, amount))})
			if !assertNoError(t, err) {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			check(ev.ID, amount)
		}()
	}
	wg.Wait()
}

// TestOperationalEventsRouted: operational events honour endpoints'
// filters and transformations like any event. A transformation does not
// run in the emitting transaction: its delivery is pending there, with no
// outbox row, until FinishTransforms runs it after the commit; the sweep
// finishes what a stopped process left pending.
func TestOperationalEventsRouted(t *testing.T) {
	t.Parallel()
	db := openTestDB(t)
	s := newTestService(t, db, &collectingRelay{}, nil)
	tenantID, _ := seedTenant(t, db)
	ctx := context.Background()
	mk := func(filter, src string) Endpoint {
		ep, _, err := s.CreateEndpoint(ctx, tenantID, EndpointInput{URL: "https://example.com/h", EventTypes: []string{"ferry.*"},
			Filter: filter, Transformation: src})
		require.NoError(t, err)
		return ep
	}
	all := mk("", "")
	onlyDisabled := mk(`event.type == "ferry.endpoint.disabled"`, "")
	slack := mk("", `function handler(w) { w.payload = {text: w.event.type + " " + w.event.data.x}; return w }`)

	conn, err := pgx.Connect(ctx, db.Dialector.(*postgres.Dialector).DSN)
	require.NoError(t, err)
	defer conn.Close(ctx)
	emit := func() (*model.OperationalEvent, []model.Job, PendingTransforms) {
		t.Helper()
		tx, err := conn.Begin(ctx)
		require.NoError(t, err)
		emitted, jobs, pending, err := EmitOperational(ctx, tx, s.router, []model.OperationalEvent{{TenantID: tenantID,
			Type: model.OpEndpointFailing, Key: uuid.NewString(), Data: map[string]any{"x": 1}}}, s.now())
		require.NoError(t, err)
		require.NoError(t, tx.Commit(ctx))
		require.Len(t, emitted, 1)
		require.Len(t, jobs, 1, "the filter keeps ferry.endpoint.failing from one endpoint; the transformed one waits")
		require.Len(t, pending, 1)
		return &emitted[0], jobs, pending
	}
	outbox := func(deliveryID uuid.UUID) int {
		var n int
		require.NoError(t, db.Raw(`SELECT count(*) FROM outbox WHERE delivery_id = ?`, deliveryID).Scan(&n).Error)
		return n
	}

	_, jobs, pending := emit()
	got := storedTransforms(t, s, jobs[0].EventID)
	require.Len(t, got, 2)
	require.Contains(t, got, all.ID)
	require.NotContains(t, got, onlyDisabled.ID)
	require.False(t, got[all.ID].Present)
	require.True(t, got[slack.ID].Present)
	require.Nil(t, got[slack.ID].Body, "pending until finished")
	require.Zero(t, outbox(pending[0].DeliveryID), "nothing sends a pending delivery")

	var relay collectingRelay
	require.NoError(t, FinishTransforms(ctx, s.db, s.router, &relay, pending, s.now()))
	finished := relay.jobs
	require.Len(t, finished, 1)
	require.Equal(t, slack.ID, finished[0].EndpointID)
	require.Equal(t, `{"text":"ferry.endpoint.failing 1"}`, string(storedTransforms(t, s, jobs[0].EventID)[slack.ID].Body))
	require.Equal(t, 1, outbox(pending[0].DeliveryID))
	var again collectingRelay
	require.NoError(t, FinishTransforms(ctx, s.db, s.router, &again, pending, s.now()))
	require.Empty(t, again.jobs, "finished once only")

	// A process that stopped before finishing: the sweep does it.
	_, jobs, pending = emit()
	var swept collectingRelay
	n, err := FinishPendingTransforms(ctx, s.db, s.router, &swept, 0, 100, s.now().Add(time.Second))
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, 1)
	require.Len(t, swept.jobs, 1)
	require.Equal(t, pending[0].DeliveryID, swept.jobs[0].DeliveryID)
	require.Equal(t, `{"text":"ferry.endpoint.failing 1"}`, string(storedTransforms(t, s, jobs[0].EventID)[slack.ID].Body))
}

func TestHeaderOverrides(t *testing.T) {
	t.Parallel()
	before := map[string]string{"X-A": "1", "X-B": "2", "X-C": "3"}
	after := map[string]string{"X-A": "1", "X-B": "two", "X-D": "4"}
	o := headerOverrides(before, after)
	require.Len(t, o, 3)
	require.Equal(t, "two", *o["X-B"])
	require.Equal(t, "4", *o["X-D"])
	require.Nil(t, o["X-C"])
	// Applied to the endpoint's headers as they are later: an edit of a
	// header the transformation did not touch still takes effect.
	later := map[string]string{"X-A": "rotated", "X-B": "2", "X-C": "3"}
	require.Equal(t, map[string]string{"X-A": "rotated", "X-B": "two", "X-D": "4"}, ApplyHeaderOverrides(later, o))
}
