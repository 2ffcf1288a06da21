package dispatch

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/webhook"
)

// TestBuildRequestFromStoredTransform: the state loader reads a
// delivery's stored transformation with its state, and buildRequest sends
// that body (signed over it) with the header changes applied to the
// endpoint's current custom headers, or makes no request for a stored
// cancel or error; a delivery without a stored result gets the envelope.
func TestBuildRequestFromStoredTransform(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	created := time.Now().UTC().Truncate(time.Millisecond)
	plain, reshaped, cancelled, failed := deliverytest.Seed(t, db, created), deliverytest.Seed(t, db, created),
		deliverytest.Seed(t, db, created), deliverytest.Seed(t, db, created)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO delivery_transforms (delivery_id, tenant_id, body, headers, created_at) VALUES (?, ?, ?, ?, ?)`,
			[]any{reshaped.DeliveryID, reshaped.TenantID, []byte(`{"text":"hi"}`), `{"X-Added":"1","X-Gone":null}`, created}},
		{`INSERT INTO delivery_transforms (delivery_id, tenant_id, cancelled, created_at) VALUES (?, ?, true, ?)`,
			[]any{cancelled.DeliveryID, cancelled.TenantID, created}},
		{`INSERT INTO delivery_transforms (delivery_id, tenant_id, error, created_at) VALUES (?, ?, ?, ?)`,
			[]any{failed.DeliveryID, failed.TenantID, "Error: boom at transformation.js:1:20", created}},
	} {
		if err := db.Exec(q.sql, q.args...).Error; err != nil {
			t.Fatal(err)
		}
	}
	l := newStateLoader(db, false, prometheus.ObserverFunc(func(float64) {}))
	d := &Dispatcher{cfg: Config{UserAgent: "Ferry/test"}}
	key := []byte("0123456789abcdef0123456789abcdef")
	tgt := &target{endpoint: delivery.Endpoint{Headers: map[string]string{"X-Gone": "a", "X-Kept": "b"}}, keys: [][]byte{key}}
	build := func(s deliverytest.Seeded) attemptRequest {
		t.Helper()
		st, found, err := l.prefetch(context.Background(), s.DeliveryID, time.Now()).wait(context.Background())
		if err != nil || !found {
			t.Fatalf("load %s: %v %v", s.DeliveryID, found, err)
		}
		req, err := d.buildRequest(context.Background(), model.Job{EventID: s.EventID, DeliveryID: s.DeliveryID}, st, tgt)
		if err != nil {
			t.Fatal(err)
		}
		return req
	}

	req := build(plain)
	if want := webhook.Envelope(plain.EventID, "seed.created", created, []byte(`{"n":1}`)); string(req.body) != string(want) || req.noSend != "" {
		t.Errorf("plain: %s %q; want the envelope %s", req.body, req.noSend, want)
	}
	req = build(reshaped)
	if string(req.body) != `{"text":"hi"}` || req.noSend != "" {
		t.Fatalf("reshaped: %s %q", req.body, req.noSend)
	}
	if req.headers.Get("X-Added") != "1" || req.headers.Get("X-Kept") != "b" || req.headers.Get("X-Gone") != "" {
		t.Errorf("reshaped headers: %v", req.headers)
	}
	if want := webhook.Headers(nil, "", [][]byte{key}, reshaped.EventID.String(), created, []byte(`{"text":"hi"}`)).Get("Webhook-Signature"); req.headers.Get("Webhook-Signature") != want {
		t.Errorf("signature %q; want %q over the transformed body", req.headers.Get("Webhook-Signature"), want)
	}
	if req = build(cancelled); req.noSend != ErrClassCancelled || req.body != nil {
		t.Errorf("cancelled: %+v", req)
	}
	if req = build(failed); req.noSend != ErrClassTransformation || req.noSendMessage != "Error: boom at transformation.js:1:20" {
		t.Errorf("failed: %+v", req)
	}
}
