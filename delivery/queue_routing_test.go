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

// TestQueueEndpointsRouting: queue endpoints take part in routing like
// http ones (wildcards, CEL filters, operational events), on the
// single-event and the group-commit path, yet their deliveries get no
// outbox row and no job.
func TestQueueEndpointsRouting(t *testing.T) {
	t.Parallel()
	db := openTestDB(t)
	relay := &collectingRelay{}
	s := newTestService(t, db, relay, nil)
	tenantID, _ := seedTenant(t, db)
	ctx := context.Background()
	queueEP, _, err := s.CreateEndpoint(ctx, tenantID, EndpointInput{Kind: KindQueue, EventTypes: []string{"order.*", "ferry.*"},
		Filter: `event.type.startsWith("ferry.") || event.data.amount > 1000`})
	require.NoError(t, err)
	httpEP, _, err := s.CreateEndpoint(ctx, tenantID, EndpointInput{URL: "https://example.com/h", EventTypes: []string{"order.*"}})
	require.NoError(t, err)

	check := func(evID uuid.UUID, wantQueue bool) {
		t.Helper()
		var rows []struct {
			EndpointID uuid.UUID
			Outbox     bool
		}
		require.NoError(t, db.Raw(`SELECT d.endpoint_id, EXISTS (SELECT 1 FROM outbox o WHERE o.delivery_id = d.id) AS outbox
			FROM deliveries d WHERE d.event_id = ?`, evID).Scan(&rows).Error)
		gotQueue := false
		for _, r := range rows {
			switch r.EndpointID {
			case queueEP.ID:
				gotQueue = true
				require.False(t, r.Outbox, "a queue delivery has no outbox row")
			case httpEP.ID:
			default:
				t.Fatalf("unexpected endpoint %s", r.EndpointID)
			}
		}
		require.Equal(t, wantQueue, gotQueue)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, amount := range []int{10, 5000} {
		ev, _, err := s.Ingest(ctx, tenantID, EventInput{Type: "order.created", Data: []byte(fmt.Sprintf(`{"amount":%d}`, amount)),
			IdempotencyKey: fmt.Sprint("q", i)})
		require.NoError(t, err)
		check(ev.ID, amount > 1000)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ev, _, err := s.Ingest(ctx, tenantID, EventInput{Type: "order.created", Data: []byte(fmt.Sprintf(`{"amount":%d}`, amount))})
				if !assertNoError(t, err) {
					return
				}
				mu.Lock()
				defer mu.Unlock()
				check(ev.ID, amount > 1000)
			}()
		}
	}
	wg.Wait()
	relay.mu.Lock()
	for _, j := range relay.jobs {
		require.Equal(t, httpEP.ID, j.EndpointID, "no job for a queue endpoint")
	}
	relay.mu.Unlock()

	// Operational events reach queue endpoints subscribed to ferry.*, as
	// queued deliveries.
	conn, err := pgx.Connect(ctx, db.Dialector.(*postgres.Dialector).DSN)
	require.NoError(t, err)
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	require.NoError(t, err)
	emitted, jobs, _, err := EmitOperational(ctx, tx, nil, []model.OperationalEvent{{TenantID: tenantID, About: httpEP.ID,
		Type: model.OpPrefix + "endpoint.failing", Key: uuid.NewString(), Data: map[string]any{"x": 1}}}, time.Now())
	require.NoError(t, err)
	require.NoError(t, tx.Commit(ctx))
	require.Len(t, emitted, 1)
	require.Empty(t, jobs)
	var evIDs []uuid.UUID
	require.NoError(t, db.Raw(`SELECT id FROM events WHERE tenant_id = ? AND type LIKE 'ferry.%'`, tenantID).Scan(&evIDs).Error)
	require.Len(t, evIDs, 1)
	check(evIDs[0], true)
}
