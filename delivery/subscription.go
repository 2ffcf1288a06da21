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

// subscribedEndpoint is an endpoint an event is routed to, with its kind
// (http endpoints get a job, queue endpoints a queued delivery).
type subscribedEndpoint struct {
	ID   uuid.UUID
	Kind Kind
}

// subscribedEndpoints returns, in creation order, the tenant's enabled
// endpoints (of either kind) subscribed to ev's type whose filter accepts ev.
func (s *Service) subscribedEndpoints(tx *gorm.DB, tenantID uuid.UUID, ev Event) ([]subscribedEndpoint, error) {
	matches, err := s.subscriptions(tx, []uuid.UUID{tenantID}, []Event{ev})
	if err != nil {
		return nil, fmt.Errorf("select endpoints for %s: %w", ev.Type, err)
	}
	out := make([]subscribedEndpoint, len(matches))
	for i, m := range matches {
		out[i] = subscribedEndpoint{ID: m.EndpointID, Kind: m.Kind}
	}
	return out, nil
}

// batchMatch is an endpoint subscribed to the I-th event of a batch
// (counting from 1).
type batchMatch struct {
	I          int
	EndpointID uuid.UUID
	Kind       Kind
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
// whose filter accepts it, ordered by event, then endpoint creation.
//
// One query serves one event or a whole batch. It looks up each distinct
// (tenant, type) pair once, however many events of the batch share it,
// and probes the GIN index once per pair: the LATERAL subquery with
// OFFSET 0 is run per pair with its tenant and keys as parameters (left
// to itself, the planner would hash-join the pairs with every endpoint of
// the table and test each one's patterns).
func (s *Service) subscriptions(tx *gorm.DB, tenants []uuid.UUID, evs []Event) ([]batchMatch, error) {
	type pair struct {
		tenantID uuid.UUID
		typ      string
	}
	pairIndex := make(map[pair]int, len(evs)) // pair → its position, from 1
	eventPair := make([]int, len(evs))
	var pairTenants []uuid.UUID
	var pairKeys []string
	for i, ev := range evs {
		k := pair{tenants[i], ev.Type}
		j, ok := pairIndex[k]
		if !ok {
			b, err := json.Marshal(routing.Keys(ev.Type))
			if err != nil {
				return nil, fmt.Errorf("encode subscription keys: %w", err)
			}
			pairTenants, pairKeys = append(pairTenants, k.tenantID), append(pairKeys, string(b))
			j = len(pairTenants)
			pairIndex[k] = j
		}
		eventPair[i] = j
	}
	found, err := queryRows(tx, `SELECT p.j::int, m.id, m.kind, m.filter
		FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS p(tenant_id, keys, j)
		CROSS JOIN LATERAL (
			SELECT e.id, e.kind, e.filter, e.created_at FROM endpoints e
			WHERE e.tenant_id = p.tenant_id AND `+
		fmt.Sprintf(subscriptionCond, "ARRAY(SELECT jsonb_array_elements_text(p.keys::jsonb))")+`
			OFFSET 0) m
		ORDER BY p.j, m.created_at, m.id`,
		func(m *batchMatch) []any { return []any{&m.I, &m.EndpointID, &m.Kind, &m.Filter} }, pgval.Array(pairTenants), pgval.Array(pairKeys))
	if err != nil {
		return nil, err
	}
	byPair := make([][]batchMatch, len(pairTenants)+1)
	for _, f := range found {
		byPair[f.I] = append(byPair[f.I], f)
	}
	var out []batchMatch
	for i, ev := range evs {
		var in *routing.Input // decoded on first use
		for _, f := range byPair[eventPair[i]] {
			if f.Filter != "" && in == nil {
				in = routing.Prepare(routingEvent(ev))
			}
			if s.accepts(tenants[i], ev, in, f.EndpointID, f.Filter) {
				out = append(out, batchMatch{I: i + 1, EndpointID: f.EndpointID, Kind: f.Kind, Filter: f.Filter})
			}
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
	return routing.Event{ID: ev.ID.String(), Type: ev.Type, CreatedAt: ev.CreatedAt, Data: ev.Data, Request: ev.request}
}

// FilterErrors returns how many filter evaluations failed in this process
// (each counted as not matched).
func (s *Service) FilterErrors() int64 { return s.filters.EvalErrors() }
