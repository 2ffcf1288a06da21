package tests

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestBillingMeteringAcrossTwoInstances runs two Ferry processes on one
// database and sends events to both at once: a paid tenant's usage equals
// exactly what was accepted, and a hard-capped tenant gets exactly its
// quota accepted, no more, however the requests interleave.
func TestBillingMeteringAcrossTwoInstances(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	a := startFerry(t, cfg)
	b := startFerry(t, cfg) // same database, topics and consumer groups
	db := testenv.DB(t, cfg.DatabaseURL)

	type tenant struct {
		owner *client
		keys  [2]*client // one API-key client per instance
		id    string
	}
	newTenant := func(email string) tenant {
		owner, keyA := signUpLimited(t, a, email)
		keyB := newClient(t, b.URL+"/api/v1")
		keyB.apiKey = keyA.apiKey
		return tenant{owner: owner, keys: [2]*client{keyA, keyB}, id: tenantID(t, owner)}
	}
	// send has workers post perWorker events each, alternating instances,
	// and returns how many were accepted and how many refused with code.
	send := func(tn tenant, workers, perWorker int, refusal string) (accepted, refused int64) {
		var wg sync.WaitGroup
		var acc, ref atomic.Int64
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range perWorker {
					status, code, _ := sendEventStatus(t, tn.keys[(w+i)%2], "metered")
					switch {
					case status == 202:
						acc.Add(1)
					case status == 429 && code == refusal:
						ref.Add(1)
					default:
						t.Errorf("send: status %d code %q", status, code)
					}
				}
			}()
		}
		wg.Wait()
		return acc.Load(), ref.Load()
	}
	countEvents := func(tid string) int64 {
		var n int64
		// Operational events (ferry.quota.warning) are stored but never
		// metered: only the tenant's own events count.
		if err := db.QueryRow(`SELECT count(*) FROM events WHERE tenant_id = $1 AND type NOT LIKE 'ferry.%'`, tid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	paid := newTenant("paid@example.com")
	paid.owner.must(200, "PUT", "/billing/plan", map[string]string{"plan": "pro"}, nil)
	setOverride(t, a, paid.id, "pro", 100, 100000) // 100 included, so the rest is overage
	accepted, _ := send(paid, 8, 25, "")
	if accepted != 200 {
		t.Fatalf("paid tenant: %d of 200 accepted; a paid plan keeps accepting", accepted)
	}
	var view billingView
	paid.owner.must(200, "GET", "/billing", nil, &view)
	if view.Usage.Events != 200 || countEvents(paid.id) != 200 || view.OverageEvents != 100 {
		t.Errorf("paid tenant: metered %d, stored %d, overage %d; want 200, 200, 100",
			view.Usage.Events, countEvents(paid.id), view.OverageEvents)
	}

	capped := newTenant("capped@example.com")
	setOverride(t, a, capped.id, "free", 30, 100000)
	accepted, refused := send(capped, 8, 10, "quota_exceeded")
	if accepted != 30 || refused != 50 {
		t.Errorf("capped tenant: %d accepted, %d refused; want exactly 30 and 50", accepted, refused)
	}
	capped.owner.must(200, "GET", "/billing", nil, &view)
	if view.Usage.Events != 30 || countEvents(capped.id) != 30 || !view.QuotaExhausted {
		t.Errorf("capped tenant: metered %d, stored %d, exhausted %v; want 30, 30, true",
			view.Usage.Events, countEvents(capped.id), view.QuotaExhausted)
	}
}
