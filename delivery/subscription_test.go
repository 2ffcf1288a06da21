package delivery

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry"
)

// TestFanOutWildcardsAndFilters: fan-out honours exact types, prefix
// wildcards, "*", and CEL filters, on both the single-event and the
// group-commit path; a failing filter is "not matched" and never fails
// the ingest.
func TestFanOutWildcardsAndFilters(t *testing.T) {
	t.Parallel()
	db := openTestDB(t)
	s := newTestService(t, db, &collectingRelay{}, nil)
	tenantID, _ := seedTenant(t, db)
	ctx := context.Background()
	mk := func(name string, types []string, filter string) uuid.UUID {
		ep, _, err := s.CreateEndpoint(ctx, tenantID, EndpointInput{URL: "https://example.com/" + name, Description: name,
			EventTypes: types, Filter: filter})
		require.NoError(t, err, name)
		return ep.ID
	}
	eps := map[uuid.UUID]string{}
	for _, e := range []struct {
		name   string
		types  []string
		filter string
	}{
		{"orders", []string{"order.*"}, ""},
		{"all", []string{"*"}, ""},
		{"created", []string{"order.created"}, ""},
		{"invoices", []string{"invoice.*"}, ""},
		{"big-orders", []string{"order.*"}, "event.data.amount > 1000"},
		{"broken", []string{"order.*"}, "event.data.missing == 1"},
		{"ops", []string{"ferry.*"}, ""},
	} {
		eps[mk(e.name, e.types, e.filter)] = e.name
	}
	routed := func(evID uuid.UUID) []string {
		var ids []uuid.UUID
		require.NoError(t, db.Raw(`SELECT endpoint_id FROM deliveries WHERE event_id = ?`, evID).Scan(&ids).Error)
		var names []string
		for _, id := range ids {
			names = append(names, eps[id])
		}
		slices.Sort(names)
		return names
	}
	cases := []struct {
		typ, data string
		want      []string
	}{
		{"order.created", `{"amount":1500}`, []string{"all", "big-orders", "created", "orders"}},
		{"order.created", `{"amount":10}`, []string{"all", "created", "orders"}},
		{"order.refund.issued", `{"amount":2000}`, []string{"all", "big-orders", "orders"}},
		{"invoice.paid", `{"amount":5000}`, []string{"all", "invoices"}},
		{"orders.created", `{"amount":5000}`, []string{"all"}},
	}
	errorsBefore := s.FilterErrors()
	// Single-event path (an idempotency key takes it).
	for i, tc := range cases {
		ev, _, err := s.Ingest(ctx, tenantID, EventInput{Type: tc.typ, Data: []byte(tc.data), IdempotencyKey: fmt.Sprint("k", i)})
		require.NoError(t, err)
		require.Equal(t, tc.want, routed(ev.ID), "%s %s", tc.typ, tc.data)
	}
	require.Greater(t, s.FilterErrors(), errorsBefore, "the broken filter's errors are counted")
	// ... and shown on its endpoint until the filter is saved again.
	var broken uuid.UUID
	for id, name := range eps {
		if name == "broken" {
			broken = id
		}
	}
	require.NoError(t, s.FlushFilterErrors(ctx))
	ep, err := s.Endpoint(ctx, tenantID, broken)
	require.NoError(t, err)
	require.NotNil(t, ep.FilterErrors, "the broken filter's errors are not on its endpoint")
	require.EqualValues(t, 3, ep.FilterErrors.Count) // the three order.* events
	require.Contains(t, ep.FilterErrors.LastError, "missing")
	fixed := "has(event.data.missing) && event.data.missing == 1"
	ep, err = s.UpdateEndpoint(ctx, tenantID, broken, EndpointPatch{Filter: &fixed})
	require.NoError(t, err)
	require.Nil(t, ep.FilterErrors)
	ep, err = s.Endpoint(ctx, tenantID, broken)
	require.NoError(t, err)
	require.Nil(t, ep.FilterErrors, "a saved filter starts clean")
	// Group-commit path: concurrent ingests share one fan-out query.
	var wg sync.WaitGroup
	for range 8 {
		for _, tc := range cases {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ev, _, err := s.Ingest(ctx, tenantID, EventInput{Type: tc.typ, Data: []byte(tc.data)})
				if !assertNoError(t, err) {
					return
				}
				if got := routed(ev.ID); !slices.Equal(got, tc.want) {
					t.Errorf("%s %s: routed to %v, want %v", tc.typ, tc.data, got, tc.want)
				}
			}()
		}
	}
	wg.Wait()

	// A test event reaches the one endpoint it is sent to, whatever that
	// endpoint subscribes to, and no other: not "all", not "ops".
	var created uuid.UUID
	for id, name := range eps {
		if name == "created" {
			created = id
		}
	}
	ev, err := s.SendTestEvent(ctx, tenantID, created, nil)
	require.NoError(t, err)
	require.Equal(t, TestEventType, ev.Type)
	require.Equal(t, []string{"created"}, routed(ev.ID))
	_, _, err = s.Ingest(ctx, tenantID, EventInput{Type: TestEventType, Data: []byte(`{}`)})
	require.Equal(t, ferry.EINVALID, ferry.ErrorCode(err), "a tenant sends ferry.test to everyone: %v", err)
	_, err = s.SendTestEvent(ctx, tenantID, uuid.New(), nil)
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(err))
}

func assertNoError(t *testing.T, err error) bool {
	t.Helper()
	if err != nil {
		t.Error(err)
		return false
	}
	return true
}

// TestEndpointRoutingValidation: bad patterns and filters are refused
// with EINVALID naming the field; a filter's error carries the compiler's
// position.
func TestEndpointRoutingValidation(t *testing.T) {
	t.Parallel()
	db := openTestDB(t)
	s := newTestService(t, db, &collectingRelay{}, nil)
	tenantID, _ := seedTenant(t, db)
	ctx := context.Background()
	invalid := func(err error, field, contains string) {
		t.Helper()
		var fe *ferry.Error
		require.True(t, errors.As(err, &fe), "err = %v", err)
		require.Equal(t, ferry.EINVALID, fe.Code)
		require.Equal(t, field, fe.Field)
		require.Contains(t, fe.Message, contains)
	}
	for _, bad := range []string{"order.*.created", "**", "*order", ""} {
		_, _, err := s.CreateEndpoint(ctx, tenantID, EndpointInput{URL: "https://example.com/", EventTypes: []string{bad}})
		invalid(err, "event_types", "")
	}
	_, _, err := s.CreateEndpoint(ctx, tenantID, EndpointInput{URL: "https://example.com/", Filter: "event.data.amount >"})
	invalid(err, "filter", "1:")
	_, _, err = s.CreateEndpoint(ctx, tenantID, EndpointInput{URL: "https://example.com/", Filter: `"not a bool"`})
	invalid(err, "filter", "bool")

	ep, _, err := s.CreateEndpoint(ctx, tenantID, EndpointInput{URL: "https://example.com/", EventTypes: []string{"order.*"},
		Filter: "event.data.amount > 1000"})
	require.NoError(t, err)
	require.Equal(t, "event.data.amount > 1000", ep.Filter)
	bad := "event.data.amount > > 1"
	_, err = s.UpdateEndpoint(ctx, tenantID, ep.ID, EndpointPatch{Filter: &bad})
	invalid(err, "filter", "Syntax error")
	empty := ""
	ep, err = s.UpdateEndpoint(ctx, tenantID, ep.ID, EndpointPatch{Filter: &empty})
	require.NoError(t, err)
	require.Empty(t, ep.Filter)
	got, err := s.Endpoint(ctx, tenantID, ep.ID)
	require.NoError(t, err)
	require.Empty(t, got.Filter)
}
