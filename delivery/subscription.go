package delivery

import (
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/internal/pgval"
	"github.com/ferry-dev/ferry/delivery/routing"
)

// Subscription lookup at fan-out. An endpoint's event_types hold exact
// types and wildcard patterns ("order.*", "*"); routing.Keys lists every
// pattern that matches an event type, so "is this endpoint subscribed"
// is `subscription ?| keys` (subscription: event_types, with an empty
// list, which means every type, as ["*"]), which the GIN index
// endpoints_subscription_idx (tenant_id, subscription) answers without
// reading the tenant's other endpoints (migrations/00050_routing.sql).
// Filters are then evaluated in Go, only on the endpoints it returned.

// subscriptionCond is the SQL condition on endpoints e for an event whose
// matching patterns are the text[] parameter that follows.
const subscriptionCond = `e.enabled AND e.deleted_at IS NULL AND e.subscription ?| %s`

// subscribedEndpoints returns, in creation order, the tenant's enabled
// endpoints subscribed to ev's type whose filter accepts ev.
func (s *Service) subscribedEndpoints(tx *gorm.DB, tenantID uuid.UUID, ev Event) ([]uuid.UUID, error) {
	matches, err := s.subscriptions(tx, []uuid.UUID{tenantID}, []Event{ev})
	if err != nil {
		return nil, fmt.Errorf("select endpoints for %s: %w", ev.Type, err)
	}
	ids := make([]uuid.UUID, len(matches))
	for i, m := range matches {
		ids[i] = m.EndpointID
	}
	return ids, nil
}

// batchMatch is an endpoint subscribed to the I-th event of a batch
// (counting from 1).
type batchMatch struct {
	I          int
	EndpointID uuid.UUID
	Filter     string
}

// subscribedEndpointsBatch is subscribedEndpoints for every event of an
// ingest batch in one query.
func (s *Service) subscribedEndpointsBatch(tx *gorm.DB, batch []*ingestRequest) ([]batchMatch, error) {
	tenants := make([]uuid.UUID, len(batch))
	evs := make([]Event, len(batch))
	for i, r := range batch {
		tenants[i], evs[i] = r.tenantID, r.ev
	}
	matches, err := s.subscriptions(tx, tenants, evs)
	if err != nil {
		return nil, fmt.Errorf("select endpoints: %w", err)
	}
	return matches, nil
}

// subscriptions returns the endpoints of tenants[i] subscribed to evs[i]
// whose filter accepts it, ordered by event, then endpoint creation. One
// query serves one event or a whole batch; the keys reach the index as a
// per-row parameter, which makes the planner probe the GIN index per
// event (with a constant key array it would rather read every endpoint
// of the tenant). The CTE builds each event's key array once: inline,
// the array would be rebuilt for every endpoint row the index returns.
func (s *Service) subscriptions(tx *gorm.DB, tenants []uuid.UUID, evs []Event) ([]batchMatch, error) {
	keys := make([]string, len(evs))
	for i, ev := range evs {
		b, err := json.Marshal(routing.Keys(ev.Type))
		if err != nil {
			return nil, fmt.Errorf("encode subscription keys: %w", err)
		}
		keys[i] = string(b)
	}
	matches, err := queryRows(tx, `WITH p AS MATERIALIZED (
			SELECT t.i, t.tenant_id, ARRAY(SELECT jsonb_array_elements_text(t.keys::jsonb)) AS keys
			FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS t(tenant_id, keys, i))
		SELECT p.i::int AS i, e.id AS endpoint_id, e.filter
		FROM p JOIN endpoints e ON e.tenant_id = p.tenant_id AND `+fmt.Sprintf(subscriptionCond, "p.keys")+`
		ORDER BY p.i, e.created_at, e.id`,
		func(m *batchMatch) []any { return []any{&m.I, &m.EndpointID, &m.Filter} }, pgval.Array(tenants), pgval.Array(keys))
	if err != nil {
		return nil, err
	}
	inputs := make([]*routing.Input, len(evs)) // decoded on first use
	out := matches[:0]
	for _, m := range matches {
		if m.Filter != "" && inputs[m.I-1] == nil {
			inputs[m.I-1] = routing.Prepare(routingEvent(evs[m.I-1]))
		}
		if s.accepts(tenants[m.I-1], evs[m.I-1], inputs[m.I-1], m.EndpointID, m.Filter) {
			out = append(out, m)
		}
	}
	return out, nil
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

// accepts evaluates an endpoint's filter on ev. An evaluation error is
// "not matched": it is logged (and counted by routing.Filters), never
// returned, so no filter can fail an ingest.
func (s *Service) accepts(tenantID uuid.UUID, ev Event, in *routing.Input, endpointID uuid.UUID, filter string) bool {
	if filter == "" {
		return true
	}
	ok, err := s.filters.Eval(filter, in)
	if err != nil {
		s.log.Warn("endpoint filter failed; event not routed to it", "tenant_id", tenantID, "event_id", ev.ID,
			"endpoint_id", endpointID, "err", err)
	}
	return ok
}

// routingEvent is ev as filters see it.
func routingEvent(ev Event) routing.Event {
	return routing.Event{ID: ev.ID.String(), Type: ev.Type, CreatedAt: ev.CreatedAt, Data: ev.Data}
}

// FilterErrors returns how many filter evaluations failed in this process
// (each counted as not matched).
func (s *Service) FilterErrors() int64 { return s.filters.EvalErrors() }
