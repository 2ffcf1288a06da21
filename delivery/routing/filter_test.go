package routing

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestFilters(t *testing.T) {
	t.Parallel()
	f, err := NewFilters(Config{})
	require.NoError(t, err)
	ev := Event{ID: "evt_1", Type: "order.created", CreatedAt: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC),
		Data: json.RawMessage(`{"amount":1500,"currency":"EUR","items":[{"sku":"a"},{"sku":"b"}],"customer":{"tier":"gold"}}`)}
	for _, tc := range []struct {
		name, src string
		want      bool
		evalErr   bool
	}{
		{"empty accepts", "", true, false},
		{"amount true", "event.data.amount > 1000", true, false},
		{"amount false", "event.data.amount > 2000", false, false},
		{"type and nested", `event.type.startsWith("order.") && event.data.customer.tier == "gold"`, true, false},
		{"list macro", `event.data.items.exists(i, i.sku == "b")`, true, false},
		{"in", `event.data.currency in ["EUR", "USD"]`, true, false},
		{"timestamp", `event.created_at > timestamp("2026-01-01T00:00:00Z")`, true, false},
		{"missing field is not matched", "event.data.nope == 1", false, true},
		{"non-bool dyn is not matched", "event.data.amount", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, f.Check(tc.src))
			got, err := f.Eval(tc.src, Prepare(ev))
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.evalErr, err != nil, "err = %v", err)
		})
	}
}

func TestFiltersInvalid(t *testing.T) {
	t.Parallel()
	f, err := NewFilters(Config{})
	require.NoError(t, err)
	for _, src := range []string{"event.data.amount >", `1 + "a" == 2`, `"a string"`, "unknown_var == 1", "event.data.amount > 1 &&"} {
		err := f.Check(src)
		require.Error(t, err, src)
		require.True(t, errors.Is(err, ErrInvalidFilter))
		var fe *FilterError
		require.ErrorAs(t, err, &fe)
		require.NotEmpty(t, fe.Message)
		got, evalErr := f.Eval(src, Prepare(Event{Type: "x", Data: json.RawMessage(`{}`)}))
		require.False(t, got)
		require.Error(t, evalErr)
	}
	require.ErrorContains(t, f.Check("event.data.amount >"), ":1:")
}

func TestFiltersOverBudget(t *testing.T) {
	t.Parallel()
	f, err := NewFilters(Config{CostLimit: 1000})
	require.NoError(t, err)
	// Quadratic in the list: fine for 3 items, over budget for 200.
	src := `event.data.xs.all(a, event.data.xs.all(b, a + b >= 0))`
	small := Event{Type: "x", Data: json.RawMessage(`{"xs":[1,2,3]}`)}
	ok, err := f.Eval(src, Prepare(small))
	require.NoError(t, err)
	require.True(t, ok)
	xs := make([]int, 200)
	big, _ := json.Marshal(map[string]any{"xs": xs})
	before := f.EvalErrors()
	start := time.Now()
	ok, err = f.Eval(src, Prepare(Event{Type: "x", Data: big}))
	require.False(t, ok)
	require.ErrorContains(t, err, "cost limit")
	require.Less(t, time.Since(start), 100*time.Millisecond)
	require.Equal(t, before+1, f.EvalErrors())
}

// TestFiltersRequest: events from inbound sources show their captured
// request to filters; other events an empty one, so the same filter
// evaluates (to false) instead of failing.
func TestFiltersRequest(t *testing.T) {
	t.Parallel()
	f, err := NewFilters(Config{})
	require.NoError(t, err)
	base := Event{ID: "evt_1", Type: "push", CreatedAt: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), Data: json.RawMessage(`{}`)}
	fromSource := base
	fromSource.Request = &Request{Method: "POST", Path: "/in/{token}", Headers: map[string]string{"X-GitHub-Event": "push", "content-type": "application/json"},
		Query: map[string]string{"env": "prod"}}
	for _, tc := range []struct {
		name, src string
		ev        Event
		want      bool
	}{
		{"header lower-cased", `request.headers["x-github-event"] == "push"`, fromSource, true},
		{"query", `request.query.env == "prod"`, fromSource, true},
		{"method and path", `request.method == "POST" && request.path.startsWith("/in/")`, fromSource, true},
		{"has on absent header", `has(request.headers.authorization)`, fromSource, false},
		{"no source: empty request", `"x-github-event" in request.headers`, base, false},
		{"no source: empty method", `request.method == ""`, base, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, f.Check(tc.src))
			got, err := f.Eval(tc.src, Prepare(tc.ev))
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}
