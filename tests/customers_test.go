package tests

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestCustomersRouteEvents: an event sent for a customer reaches that
// customer's endpoints and the tenant's own, never another customer's;
// an event without a customer reaches the tenant's own endpoints only.
// Lists filter by customer, an unknown customer is refused, a replay
// cannot send one customer's event to another's endpoint, and deleting
// a customer disables its endpoints while its history stays.
func TestCustomersRouteEvents(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	ownHooks, acmeHooks, globexHooks := newHookServer(t, nil), newHookServer(t, nil), newHookServer(t, nil)
	_, api := signUp(t, f, "cara@customers.example")

	var acme struct {
		UID      string            `json:"uid"`
		Name     string            `json:"name"`
		Metadata map[string]string `json:"metadata"`
	}
	api.must(201, "PUT", "/customers/acme", map[string]any{"name": "Acme", "metadata": map[string]string{"tier": "gold"}}, &acme)
	if acme.UID != "acme" || acme.Name != "Acme" || acme.Metadata["tier"] != "gold" {
		t.Fatalf("customer = %+v", acme)
	}
	api.must(200, "PUT", "/customers/acme", map[string]any{"name": "Acme Inc"}, &acme) // upsert: an update
	api.must(201, "POST", "/customers", map[string]any{"uid": "globex", "name": "Globex"}, nil)
	api.must(422, "POST", "/customers", map[string]any{"uid": "bad uid/with slash"}, nil)

	own := createEndpoint(t, api, map[string]any{"url": ownHooks.URL + "/own"})
	acmeEP := createEndpoint(t, api, map[string]any{"url": acmeHooks.URL + "/acme", "customer": "acme"})
	globexEP := createEndpoint(t, api, map[string]any{"url": globexHooks.URL + "/globex", "customer": "globex"})
	api.must(422, "POST", "/endpoints", map[string]any{"url": ownHooks.URL + "/x", "customer": "initech"}, nil)

	var forAcme, forNobody acceptedEvent
	api.must(202, "POST", "/events", map[string]any{"type": "invoice.paid", "data": map[string]int{"n": 1}, "customer": "acme"}, &forAcme)
	api.must(202, "POST", "/events", map[string]any{"type": "invoice.paid", "data": map[string]int{"n": 2}}, &forNobody)
	api.must(422, "POST", "/events", map[string]any{"type": "invoice.paid", "data": map[string]int{"n": 3}, "customer": "initech"}, nil)

	endpointsOf := func(eventID string) []string {
		var ids []string
		for _, d := range eventDeliveries(t, api, eventID) {
			ids = append(ids, d.EndpointID)
		}
		slices.Sort(ids)
		return ids
	}
	want := []string{own.ID, acmeEP.ID}
	slices.Sort(want)
	if got := endpointsOf(forAcme.ID); !slices.Equal(got, want) {
		t.Errorf("acme's event went to %v, want its endpoint and the tenant's own %v (never globex's %s)", got, want, globexEP.ID)
	}
	if got := endpointsOf(forNobody.ID); !slices.Equal(got, []string{own.ID}) {
		t.Errorf("the tenant's event went to %v, want only the tenant's own endpoint %s", got, own.ID)
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return ownHooks.count() == 2 && acmeHooks.count() == 1 },
		"want both events at the tenant's own endpoint and acme's at acme's")
	if n := globexHooks.count(); n != 0 {
		t.Errorf("globex's endpoint received %d deliveries of others' events", n)
	}

	var stats struct {
		Endpoints []struct {
			EndpointID string `json:"endpoint_id"`
		} `json:"endpoints"`
	}
	// The stats come from the attempt log, which commits after the
	// receiver answered: wait for acme's attempt to be counted.
	testenv.Eventually(t, 10*time.Second, func() bool {
		api.must(200, "GET", "/stats?customer=acme", nil, &stats)
		return len(stats.Endpoints) > 0
	}, "acme's stats list no endpoint")
	if len(stats.Endpoints) != 1 || stats.Endpoints[0].EndpointID != acmeEP.ID {
		t.Errorf("stats of acme = %+v, want its endpoint %s only", stats.Endpoints, acmeEP.ID)
	}
	api.must(200, "GET", "/stats?customer=globex", nil, &stats)
	for _, e := range stats.Endpoints {
		if e.EndpointID != globexEP.ID {
			t.Errorf("stats of globex show endpoint %s", e.EndpointID)
		}
	}

	var eps struct {
		Data []struct {
			ID       string  `json:"id"`
			Customer *string `json:"customer"`
		} `json:"data"`
	}
	api.must(200, "GET", "/endpoints?customer=acme", nil, &eps)
	if len(eps.Data) != 1 || eps.Data[0].ID != acmeEP.ID || eps.Data[0].Customer == nil || *eps.Data[0].Customer != "acme" {
		t.Errorf("endpoints of acme = %+v", eps.Data)
	}
	var evs struct {
		Data []struct {
			ID       string  `json:"id"`
			Customer *string `json:"customer"`
		} `json:"data"`
	}
	api.must(200, "GET", "/events?customer=acme", nil, &evs)
	if len(evs.Data) != 1 || evs.Data[0].ID != forAcme.ID {
		t.Errorf("events of acme = %+v", evs.Data)
	}

	// One customer's event never goes to another's endpoint, not even by replay.
	api.must(422, "POST", "/events/"+forAcme.ID+"/replay", map[string]string{"endpoint_id": globexEP.ID}, nil)
	api.must(422, "POST", "/events/"+forNobody.ID+"/replay", map[string]string{"endpoint_id": acmeEP.ID}, nil)

	// Deleting a customer disables its endpoints; its history stays.
	api.must(204, "DELETE", "/customers/acme", nil, nil)
	api.must(404, "GET", "/customers/acme", nil, nil)
	var ep struct {
		Enabled        bool   `json:"enabled"`
		DisabledReason string `json:"disabled_reason"`
	}
	api.must(200, "GET", "/endpoints/"+acmeEP.ID, nil, &ep)
	if ep.Enabled || ep.DisabledReason == "" {
		t.Errorf("acme's endpoint after its customer was deleted: %+v, want disabled with a reason", ep)
	}
	api.must(200, "GET", "/events?customer=acme", nil, &evs)
	if len(evs.Data) != 1 {
		t.Errorf("acme's history after delete: %d events, want 1", len(evs.Data))
	}
	api.must(422, "POST", "/endpoints", map[string]any{"url": acmeHooks.URL + "/acme2", "customer": "acme"}, nil)
	// Upserting the uid brings the customer back (its endpoints stay disabled).
	api.must(200, "PUT", "/customers/acme", map[string]any{"name": "Acme again"}, nil)
	api.must(200, "GET", "/endpoints/"+acmeEP.ID, nil, &ep)
	if ep.Enabled {
		t.Error("acme's endpoint came back enabled with its customer")
	}
}

// TestCustomersShowEndpointHealth: the customer list and a customer say
// how many live endpoints each customer has, how many fail and how many
// are disabled, from one request; another tenant's customer of the same
// uid and a deleted endpoint are not counted.
func TestCustomersShowEndpointHealth(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	ok := newHookServer(t, nil)
	failing := newHookServer(t, func(_ int, _ hit, w http.ResponseWriter) { w.WriteHeader(http.StatusInternalServerError) })
	_, api := signUp(t, f, "hana@health.example")
	_, other := signUp(t, f, "omar@health.example")

	api.must(201, "PUT", "/customers/acme", map[string]any{"name": "Acme"}, nil)
	api.must(201, "PUT", "/customers/globex", map[string]any{"name": "Globex"}, nil)
	createEndpoint(t, api, map[string]any{"url": ok.URL + "/healthy", "customer": "acme"})
	createEndpoint(t, api, map[string]any{"url": failing.URL + "/failing", "customer": "acme"})
	off := createEndpoint(t, api, map[string]any{"url": ok.URL + "/off", "customer": "acme"})
	api.must(200, "PATCH", "/endpoints/"+off.ID, map[string]any{"enabled": false}, nil)
	gone := createEndpoint(t, api, map[string]any{"url": ok.URL + "/gone", "customer": "acme"})
	api.must(204, "DELETE", "/endpoints/"+gone.ID, nil, nil)
	createEndpoint(t, api, map[string]any{"url": ok.URL + "/own"}) // the tenant's own: no customer's

	// Another tenant's customer with the same uid, with endpoints of its own.
	other.must(201, "PUT", "/customers/acme", map[string]any{"name": "Other Acme"}, nil)
	createEndpoint(t, other, map[string]any{"url": ok.URL + "/other-1", "customer": "acme"})
	createEndpoint(t, other, map[string]any{"url": ok.URL + "/other-2", "customer": "acme"})

	api.must(202, "POST", "/events", map[string]any{"type": "invoice.paid", "data": map[string]int{"n": 1}, "customer": "acme"}, nil)

	type health struct {
		Total    int `json:"total"`
		Failing  int `json:"failing"`
		Disabled int `json:"disabled"`
	}
	type customer struct {
		UID       string `json:"uid"`
		Endpoints health `json:"endpoints"`
	}
	var list struct {
		Data []customer `json:"data"`
	}
	byUID := func() map[string]health {
		api.must(200, "GET", "/customers", nil, &list)
		out := map[string]health{}
		for _, c := range list.Data {
			out[c.UID] = c.Endpoints
		}
		return out
	}
	// The failing endpoint counts once its first attempt is logged.
	testenv.Eventually(t, 30*time.Second, func() bool { return byUID()["acme"].Failing == 1 },
		"acme's failing endpoint is never counted as failing")
	got := byUID()
	if want := (health{Total: 3, Failing: 1, Disabled: 1}); got["acme"] != want {
		t.Errorf("acme's endpoints in the list: %+v, want %+v (its deleted endpoint and the other tenant's left out)", got["acme"], want)
	}
	if got["globex"] != (health{}) {
		t.Errorf("globex's endpoints in the list: %+v, want none", got["globex"])
	}
	var one customer
	api.must(200, "GET", "/customers/acme", nil, &one)
	if want := (health{Total: 3, Failing: 1, Disabled: 1}); one.Endpoints != want {
		t.Errorf("GET /customers/acme: endpoints %+v, want %+v", one.Endpoints, want)
	}
	other.must(200, "GET", "/customers/acme", nil, &one)
	if want := (health{Total: 2}); one.Endpoints != want {
		t.Errorf("the other tenant's acme: endpoints %+v, want %+v", one.Endpoints, want)
	}
	// Writes answer the customer as reads do.
	want := health{Total: 3, Failing: 1, Disabled: 1}
	for _, w := range []struct{ method, path string }{{"PUT", "/customers/acme"}, {"PATCH", "/customers/acme"}, {"POST", "/customers"}} {
		one = customer{}
		api.must(200, w.method, w.path, map[string]any{"uid": "acme", "name": "Acme Corp"}, &one)
		if one.Endpoints != want {
			t.Errorf("%s %s: endpoints %+v, want %+v", w.method, w.path, one.Endpoints, want)
		}
	}
}
