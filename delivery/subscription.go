package delivery

import (
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// Subscription lookup at fan-out. An endpoint's event_types hold exact
// types and wildcard patterns ("order.*", "*"); routing.Keys lists every
// pattern that matches an event type, so "is this endpoint subscribed"
// is `subscription ?| keys` (subscription: event_types, with an empty
// list, which means every type, as ["*"]), which the GIN index
// endpoints_subscription_idx (tenant_id, subscription) answers without
// reading the tenant's other endpoints (migrations/00050_routing.sql).
// Filters are then evaluated in Go, only on the endpoints it returned. A
// customer's endpoint receives only the events sent for that customer;
// the tenant's own endpoints (no customer) receive every event they
// subscribe to.

// subscriptionCond is the SQL condition on endpoints e for an event whose
// matching patterns are the text[] parameter that follows.
const subscriptionCond = `e.enabled AND e.deleted_at IS NULL AND e.subscription ?| %s`

// batchMatch is an endpoint subscribed to the I-th event of a batch
// (counting from 1) whose filter accepts it.
type batchMatch struct {
	I              int
	EndpointID     uuid.UUID
	Kind           Kind
	Filter         string
	Transformation string
	// Headers are the endpoint's custom headers, read only when it has a
	// transformation (they are its input).
	Headers pgval.JSON[map[string]string]
	// Transformed is the transformation's result, once run.
	Transformed *Transformed
	// deferred: the transformation runs after the transaction that makes
	// the delivery commits (deferTransforms).
	deferred bool
}

// pending is m's deferred transformation for the delivery id of
// tenantID's event ev.
func (m *batchMatch) pending(id, tenantID uuid.UUID, ev Event) pendingTransform {
	return pendingTransform{DeliveryID: id, TenantID: tenantID, EndpointID: m.EndpointID, src: m.Transformation,
		headers: m.Headers.V, ev: ev}
}

// route finds, in tx, the endpoints each request of batch not routed yet
// goes to (routeQuery). It runs no transformation: a request whose
// matches need one leaves its transaction or batch to run them
// (Service.transformMatches) and comes back with the results, so that
// nobody waits on a tenant's transformations but that tenant's own
// events. Routes read in a transaction that then rolled back are still
// good: they are reads of committed endpoints. The read comes before
// billing's counters are locked, on the connection that then writes
// (the group commit reads in its first round trip, queueRoute): reading
// on another pooled connection cost an extra connection per batch, and
// measurably slowed the noisy-neighbour test's drain.
func (s *Service) route(tx *gorm.DB, batch []*ingestRequest) error {
	q, err := s.subscriptionQuery(batch)
	if err != nil || len(q.todo) == 0 {
		return err
	}
	found, err := queryRows(tx, q.sql, scanFields, q.args...)
	if err != nil {
		return fmt.Errorf("select endpoints: %w", err)
	}
	q.apply(s, found)
	return nil
}

// queueRoute queues onto b the routing of batch's requests not routed
// yet, as route does in a transaction; they are routed when b has run.
func (s *Service) queueRoute(b *pgx.Batch, batch []*ingestRequest) error {
	q, err := s.subscriptionQuery(batch)
	if err != nil || len(q.todo) == 0 {
		return err
	}
	b.Queue(q.sql, q.args...).Query(func(rows pgx.Rows) error {
		found, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (batchMatch, error) {
			var m batchMatch
			return m, row.Scan(scanFields(&m)...)
		})
		if err != nil {
			return fmt.Errorf("select endpoints: %w", err)
		}
		q.apply(s, found)
		return nil
	})
	return nil
}

// routeQuery is the subscription lookup of some requests: the
// endpoints of each request's tenant subscribed to its event whose
// filter accepts it, ordered by event, then endpoint creation.
//
// One query serves one event or a whole batch. It looks up each distinct
// (tenant, type) pair once, however many events of the batch share it,
// and probes the GIN index once per pair: the LATERAL subquery with
// OFFSET 0 is run per pair with its tenant and keys as parameters (left
// to itself, the planner would hash-join the pairs with every endpoint of
// the table and test each one's patterns).
type routeQuery struct {
	sql  string
	args []any
	todo []*ingestRequest
	// eventPair[i] is the position (from 1) of todo[i]'s pair.
	eventPair []int
	pairs     int
}

// subscriptionQuery is the routeQuery of batch's requests not routed
// yet; its todo is empty when there are none.
func (s *Service) subscriptionQuery(batch []*ingestRequest) (routeQuery, error) {
	var todo []*ingestRequest
	for _, r := range batch {
		if !r.routed {
			todo = append(todo, r)
		}
	}
	if len(todo) == 0 {
		return routeQuery{}, nil
	}
	type pair struct {
		tenantID uuid.UUID
		typ      string
		customer uuid.UUID // uuid.Nil: the event is the tenant's own
	}
	pairIndex := make(map[pair]int, len(todo)) // pair → its position, from 1
	q := routeQuery{todo: todo, eventPair: make([]int, len(todo))}
	var pairTenants []uuid.UUID
	var pairKeys []string
	var pairCustomers []*string
	for i, r := range todo {
		k := pair{r.tenantID, r.ev.Type, uuid.Nil}
		if r.ev.customerID != nil {
			k.customer = *r.ev.customerID
		}
		j, ok := pairIndex[k]
		if !ok {
			b, err := json.Marshal(routing.Keys(r.ev.Type))
			if err != nil {
				return routeQuery{}, fmt.Errorf("encode subscription keys: %w", err)
			}
			pairTenants, pairKeys = append(pairTenants, k.tenantID), append(pairKeys, string(b))
			var customer *string
			if k.customer != uuid.Nil {
				c := k.customer.String()
				customer = &c
			}
			pairCustomers = append(pairCustomers, customer)
			j = len(pairTenants)
			pairIndex[k] = j
		}
		q.eventPair[i] = j
	}
	q.pairs = len(pairTenants)
	q.sql = `SELECT p.j::int, m.id, m.kind, m.filter, m.transformation,
			CASE WHEN m.transformation <> '' THEN m.headers END
		FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS p(tenant_id, keys, customer_id, j)
		CROSS JOIN LATERAL (
			SELECT e.id, e.kind, e.filter, e.transformation, e.headers, e.created_at FROM endpoints e
			WHERE e.tenant_id = p.tenant_id AND (e.customer_id IS NULL OR e.customer_id = p.customer_id::uuid) AND ` +
		fmt.Sprintf(subscriptionCond, "ARRAY(SELECT jsonb_array_elements_text(p.keys::jsonb))") + `
			OFFSET 0) m
		ORDER BY p.j, m.created_at, m.id`
	q.args = []any{pgval.Array(pairTenants), pgval.Array(pairKeys), pgval.Array(pairCustomers)}
	return q, nil
}

// scanFields are the destinations of a routeQuery row.
func scanFields(m *batchMatch) []any {
	return []any{&m.I, &m.EndpointID, &m.Kind, &m.Filter, &m.Transformation, &m.Headers}
}

// apply routes q's requests to the endpoints found (q's rows, whose I is
// the pair's position) whose filters accept their events.
func (q routeQuery) apply(s *Service, found []batchMatch) {
	byPair := make([][]batchMatch, q.pairs+1)
	for _, f := range found {
		byPair[f.I] = append(byPair[f.I], f)
	}
	for i, r := range q.todo {
		r.matches, r.routed = nil, true
		var in *routing.Input // decoded on first use
		for _, f := range byPair[q.eventPair[i]] {
			if f.Filter != "" && in == nil {
				in = routing.Prepare(routingEvent(r.ev))
			}
			if s.router.accepts(r.tenantID, r.ev, in, f.EndpointID, f.Filter) {
				f.I = i + 1
				r.matches = append(r.matches, f)
			}
		}
	}
}

// queryRows runs query in tx's transaction and scans every row into a T
// through fields. It bypasses GORM's placeholder rewriting, which would
// take the jsonb ?| operator for a parameter.
func queryRows[T any](tx *gorm.DB, query string, fields func(*T) []any, args ...any) ([]T, error) {
	rows, err := tx.Statement.ConnPool.QueryContext(tx.Statement.Context, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(fields(&v)...); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// routingEvent is ev as filters see it.
func routingEvent(ev Event) routing.Event {
	return routing.Event{ID: ev.ID.String(), Type: ev.Type, CreatedAt: ev.CreatedAt, Data: ev.Data, Request: ev.request}
}

// FilterErrors returns how many filter evaluations failed in this process
// (each counted as not matched).
func (s *Service) FilterErrors() int64 { return s.router.filters.EvalErrors() }
