package tests

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestRoutingAmountFilterAndWildcards drives routing over HTTP: an
// endpoint subscribed to order.* with an amount filter gets only the big
// orders, a "*" endpoint gets every event, an exact endpoint only its
// type; a bad pattern or filter is refused with 422 (the filter's error
// with the compiler's position); test-routing answers what the routing
// would do with a sample event.
func TestRoutingAmountFilterAndWildcards(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, api := signUp(t, f, "routing@example.com")
	big := newHookServer(t, nil)
	all := newHookServer(t, nil)
	refunds := newHookServer(t, nil)

	var bad apiError
	if code := api.do("POST", "/endpoints", map[string]any{"url": big.URL, "event_types": []string{"order.*.created"}}, &bad); code != 422 ||
		bad.Error.Field != "event_types" {
		t.Fatalf("bad pattern: %d %+v", code, bad)
	}
	if code := api.do("POST", "/endpoints", map[string]any{"url": big.URL, "filter": "event.data.amount >"}, &bad); code != 422 ||
		bad.Error.Field != "filter" || !strings.Contains(bad.Error.Message, "1:") {
		t.Fatalf("bad filter: %d %+v", code, bad)
	}

	bigEp := createEndpoint(t, api, map[string]any{"url": big.URL, "event_types": []string{"order.*"},
		"filter": "event.data.amount >= 1000 && event.data.currency == 'EUR'"})
	createEndpoint(t, api, map[string]any{"url": all.URL, "event_types": []string{"*"}})
	createEndpoint(t, api, map[string]any{"url": refunds.URL, "event_types": []string{"order.refunded"}})

	orders := []struct {
		typ      string
		amount   int
		currency string
	}{
		{"order.created", 5000, "EUR"},
		{"order.created", 20, "EUR"},
		{"order.paid", 1000, "EUR"},
		{"order.paid", 9000, "USD"},
		{"order.refunded", 7000, "EUR"},
		{"invoice.paid", 9000, "EUR"},
	}
	for _, o := range orders {
		sendEvent(t, api, o.typ, map[string]any{"amount": o.amount, "currency": o.currency})
	}
	testenv.Eventually(t, 30*time.Second, func() bool {
		return all.count() == len(orders) && big.count() == 3 && refunds.count() == 1
	}, "deliveries: all %d, big %d, refunds %d", all.count(), big.count(), refunds.count())
	time.Sleep(500 * time.Millisecond) // nothing more arrives
	if all.count() != len(orders) || big.count() != 3 || refunds.count() != 1 {
		t.Fatalf("extra deliveries: all %d, big %d, refunds %d", all.count(), big.count(), refunds.count())
	}
	for _, h := range big.all() {
		var env struct {
			Type string `json:"type"`
			Data struct {
				Amount int `json:"amount"`
			} `json:"data"`
		}
		if err := json.Unmarshal(h.Body, &env); err != nil || env.Data.Amount < 1000 || !strings.HasPrefix(env.Type, "order.") {
			t.Errorf("big-orders endpoint got %s", h.Body)
		}
	}

	type testResult struct {
		Matched     bool              `json:"matched"`
		FilterError string            `json:"filter_error"`
		Payload     json.RawMessage   `json:"payload"`
		Headers     map[string]string `json:"headers"`
		Cancelled   bool              `json:"cancelled"`
	}
	var res testResult
	api.must(200, "POST", "/endpoints/"+bigEp.ID+"/test-routing",
		map[string]any{"event": map[string]any{"type": "order.created", "data": map[string]any{"amount": 1500, "currency": "EUR"}}}, &res)
	if !res.Matched || res.FilterError != "" || !strings.Contains(string(res.Payload), `"amount":1500`) || res.Cancelled {
		t.Errorf("test-routing big order: %+v", res)
	}
	res = testResult{}
	api.must(200, "POST", "/endpoints/"+bigEp.ID+"/test-routing",
		map[string]any{"event": map[string]any{"type": "order.created", "data": map[string]any{"amount": 15, "currency": "EUR"}}}, &res)
	if res.Matched {
		t.Errorf("test-routing small order matched: %+v", res)
	}
	res = testResult{}
	api.must(200, "POST", "/endpoints/"+bigEp.ID+"/test-routing",
		map[string]any{"event": map[string]any{"type": "invoice.paid", "data": map[string]any{"amount": 1500, "currency": "EUR"}}}, &res)
	if res.Matched {
		t.Errorf("test-routing other type matched: %+v", res)
	}
	res = testResult{}
	api.must(200, "POST", "/endpoints/"+bigEp.ID+"/test-routing",
		map[string]any{"event": map[string]any{"type": "order.created", "data": map[string]any{"amount": 1500}}, "filter": "event.data.nope > 1"}, &res)
	if res.Matched || res.FilterError == "" {
		t.Errorf("test-routing failing filter: %+v", res)
	}
}

// TestTestEventGoesToItsEndpointOnly: "Send test event" on one endpoint
// used to be an ordinary ferry.test event, delivered to every endpoint
// taking all types (a tenant's customers got it whenever anyone tested
// one endpoint). It reaches the endpoint it was sent from, only, whatever
// that endpoint subscribes to; nobody can send ferry.test to everyone.
func TestTestEventGoesToItsEndpointOnly(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "ann@test-event.example")
	var tested, everything, queue idOnly
	key.must(201, "POST", "/endpoints", map[string]any{"url": "http://127.0.0.1:" + closedPort(t) + "/orders", "event_types": []string{"order.*"}}, &tested)
	key.must(201, "POST", "/endpoints", map[string]any{"url": "http://127.0.0.1:" + closedPort(t) + "/all"}, &everything)
	key.must(201, "POST", "/endpoints", map[string]any{"kind": "queue", "description": "all, pulled"}, &queue)

	var ev struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	}
	key.must(202, "POST", "/endpoints/"+tested.ID+"/test", nil, &ev)
	var detail struct {
		Deliveries []struct {
			EndpointID string `json:"endpoint_id"`
		} `json:"deliveries"`
	}
	key.must(200, "GET", "/events/"+ev.ID, nil, &detail)
	if ev.Type != "ferry.test" || len(detail.Deliveries) != 1 || detail.Deliveries[0].EndpointID != tested.ID {
		t.Errorf("test event %s went to %+v, want only %s", ev.Type, detail.Deliveries, tested.ID)
	}
	if r := key.raw("POST", "/events", mustJSON(t, map[string]any{"type": "ferry.test", "data": map[string]int{"n": 1}}), nil); r.Status != 422 {
		t.Errorf("ferry.test through POST /events: %d %s", r.Status, r.Body)
	}
	key.must(404, "POST", "/endpoints/"+uuid.NewString()+"/test", nil, nil)
}
