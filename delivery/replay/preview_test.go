package replay

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
)

// TestPreviewReplayCountsWhatTheJobReplays: the preview counts exactly
// the deliveries a job with the same filter selects (its claimed total),
// leaves out disabled endpoints, and refuses what the job refuses.
func TestPreviewReplayCountsWhatTheJobReplays(t *testing.T) {
	t.Parallel()
	b := setupReplay(t)
	ctx := context.Background()
	for range 4 {
		b.ingest(t, "invoice.failed", model.StatusExhausted, 5)
	}
	b.ingest(t, "invoice.failed", model.StatusSucceeded, 1)
	b.ingest(t, "other.type", model.StatusExhausted, 5)
	off := b.newEndpoint(t)
	// The events above went to the first endpoint only; this one goes to both.
	b.ingest(t, "invoice.failed", model.StatusExhausted, 5)
	disabled := false
	if _, err := b.svc.UpdateEndpoint(ctx, b.tenantID, off.ID, delivery.EndpointPatch{Enabled: &disabled}); err != nil {
		t.Fatal(err)
	}

	exhausted := string(model.StatusExhausted)
	future := time.Now().Add(time.Hour)
	for name, tc := range map[string]struct {
		f    ReplayFilter
		want int64
	}{
		"everything":               {ReplayFilter{}, 7},
		"exhausted":                {ReplayFilter{Status: exhausted}, 6},
		"exhausted invoices":       {ReplayFilter{Status: exhausted, EventType: "invoice.failed"}, 5},
		"to the disabled endpoint": {ReplayFilter{EndpointID: &off.ID}, 0},
		"from later on":            {ReplayFilter{Since: &future}, 0},
	} {
		p, err := b.replays.PreviewReplay(ctx, b.tenantID, tc.f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Matched != tc.want || p.Until.IsZero() {
			t.Errorf("%s: matched %d (until %v), want %d", name, p.Matched, p.Until, tc.want)
		}
	}

	// The job's total is the preview's count.
	f := ReplayFilter{Status: exhausted, EventType: "invoice.failed"}
	if _, err := b.replays.CreateReplayJob(ctx, b.tenantID, f, "ann@example.com", ""); err != nil {
		t.Fatal(err)
	}
	worker := NewWorker(b.replays, WorkerConfig{RatePerSecond: 10000, PageSize: 10, Lease: time.Minute}, slog.New(slog.DiscardHandler))
	claimed, ok, err := worker.claim(ctx)
	if err != nil || !ok || claimed.Total != 5 {
		t.Fatalf("claim: total %d, %v, %v; want the preview's 5", claimed.Total, ok, err)
	}

	for _, f := range []ReplayFilter{{Status: "lost"}, {EventType: "not a type!"}, {Since: &future, Until: &future}} {
		if _, err := b.replays.PreviewReplay(ctx, b.tenantID, f); ferry.ErrorCode(err) != ferry.EINVALID {
			t.Errorf("PreviewReplay(%+v): %v, want invalid", f, err)
		}
	}
	missing := b.tenantID // not an endpoint id
	if _, err := b.replays.PreviewReplay(ctx, b.tenantID, ReplayFilter{EndpointID: &missing}); ferry.ErrorCode(err) != ferry.ENOTFOUND {
		t.Errorf("unknown endpoint: %v", err)
	}
}
