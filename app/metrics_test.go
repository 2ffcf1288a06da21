package app

import (
	"context"
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// leaser fails the leases of keys in fail.
type leaser struct{ fail map[string]bool }

func (l leaser) Lease(_ context.Context, key string, _, want int) (int, float64, error) {
	if l.fail[key] {
		return 0, 0, errors.New("database unreachable")
	}
	return want, 0, nil
}

// TestTimedLeasesByLimit: every lease is timed under its limit (the key's
// prefix) and a failed one counted, the answer passed on unchanged.
func TestTimedLeasesByLimit(t *testing.T) {
	reg := prometheus.NewRegistry()
	leases := newTimedLeases(reg, leaser{fail: map[string]bool{"source:b": true}})
	ctx := context.Background()
	if got, _, err := leases.Lease(ctx, "source:a", 100, 5); got != 5 || err != nil {
		t.Fatalf("lease of source:a: %d, %v", got, err)
	}
	if _, _, err := leases.Lease(ctx, "source:b", 100, 5); err == nil {
		t.Fatal("the failing lease of source:b did not fail")
	}
	if _, _, err := leases.Lease(ctx, "endpoint:c", 10, 1); err != nil {
		t.Fatal(err)
	}

	timed, failed := map[string]uint64{}, map[string]float64{}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			switch limit := m.GetLabel()[0].GetValue(); f.GetName() {
			case "ferry_rate_lease_seconds":
				timed[limit] = m.GetHistogram().GetSampleCount()
			case "ferry_rate_lease_failures_total":
				failed[limit] = m.GetCounter().GetValue()
			}
		}
	}
	if timed["source"] != 2 || timed["endpoint"] != 1 || len(timed) != 2 {
		t.Errorf("leases timed by limit: %v, want source 2 and endpoint 1", timed)
	}
	if failed["source"] != 1 || len(failed) != 1 {
		t.Errorf("lease failures by limit: %v, want source 1", failed)
	}
}
