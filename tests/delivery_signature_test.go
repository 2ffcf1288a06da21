package tests

import (
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestRotationSignsWithBothSecrets rotates an endpoint's secret at
// FERRY_RETRY_SCALE 0.00005 (the 24 h grace is 4.3 s): during the grace
// period deliveries carry two signatures, each verifying with the
// independent Standard Webhooks library under its own secret; after it
// only the new secret signs. webhook-timestamp is created_at in unix
// seconds.
func TestRotationSignsWithBothSecrets(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.RetryScale = 0.00005
	f := startFerry(t, cfg)
	rc := newHookServer(t, nil)
	_, api := signUp(t, f, "rotate@example.com")
	ep := createEndpoint(t, api, map[string]any{"url": rc.URL})
	var info struct {
		Secret   string `json:"secret"`
		Previous []struct {
			Secret    string    `json:"secret"`
			ExpiresAt time.Time `json:"expires_at"`
		} `json:"previous"`
	}
	api.must(200, "POST", "/endpoints/"+ep.ID+"/secret/rotate", nil, &info)
	if len(info.Previous) != 1 || info.Previous[0].Secret != ep.Secret || info.Secret == ep.Secret {
		t.Fatalf("rotation answered %+v", info)
	}
	ev := sendEvent(t, api, "rotated", map[string]any{"k": "v"})
	testenv.Eventually(t, 30*time.Second, func() bool { return rc.count() == 1 }, "not delivered")
	h := rc.all()[0]
	if sigs := strings.Fields(h.Header.Get("Webhook-Signature")); len(sigs) != 2 {
		t.Fatalf("signature header %q, want two signatures during the grace period", h.Header.Get("Webhook-Signature"))
	}
	created, _ := time.Parse("2006-01-02T15:04:05.000Z", ev.CreatedAt)
	if h.Header.Get("Webhook-Timestamp") != strconv.FormatInt(created.Unix(), 10) {
		t.Errorf("webhook-timestamp %s, created_at %s", h.Header.Get("Webhook-Timestamp"), ev.CreatedAt)
	}
	for name, secret := range map[string]string{"new": info.Secret, "old": ep.Secret} {
		wh, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			t.Fatal(err)
		}
		if err := wh.Verify(h.Body, h.Header); err != nil {
			t.Errorf("%s secret does not verify: %v", name, err)
		}
	}

	// After the grace period (and the 2 s endpoint cache) only the new
	// secret signs.
	time.Sleep(time.Until(info.Previous[0].ExpiresAt) + 2500*time.Millisecond)
	sendEvent(t, api, "after", map[string]any{})
	testenv.Eventually(t, 30*time.Second, func() bool { return rc.count() == 2 }, "not delivered")
	h = rc.all()[1]
	if sigs := strings.Fields(h.Header.Get("Webhook-Signature")); len(sigs) != 1 {
		t.Errorf("signature header %q after the grace period, want one", h.Header.Get("Webhook-Signature"))
	}
	newWH, _ := standardwebhooks.NewWebhook(info.Secret)
	oldWH, _ := standardwebhooks.NewWebhook(ep.Secret)
	if err := newWH.Verify(h.Body, h.Header); err != nil {
		t.Errorf("new secret does not verify: %v", err)
	}
	if err := oldWH.Verify(h.Body, h.Header); err == nil {
		t.Error("the expired secret still verifies")
	}
}
