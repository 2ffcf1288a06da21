package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ferry-dev/ferry/tests/load"
)

func TestCheckGuard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guard.json")
	if err := os.WriteFile(path, []byte(`[{"scenario":"e-one-endpoint-100","p50_ms":4,"factor":2,"recorded":"test"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(name string, p50 float64, errText string) load.Outcome {
		o := load.Outcome{Scenario: load.Scenario{Name: name}, Error: errText}
		o.Report.Latency.P50 = p50
		return o
	}
	for _, tc := range []struct {
		name string
		outs []load.Outcome
		ok   bool
	}{
		{"within", []load.Outcome{run("e-one-endpoint-100", 7.9, "")}, true},
		{"at the limit", []load.Outcome{run("e-one-endpoint-100", 8, "")}, true},
		{"doubled", []load.Outcome{run("e-one-endpoint-100", 8.1, "")}, false},
		{"not run", []load.Outcome{run("b-rate-100", 1, "")}, false},
		{"failed", []load.Outcome{run("e-one-endpoint-100", 1, "ledger void")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := checkGuard(path, tc.outs); (err == nil) != tc.ok {
				t.Errorf("checkGuard = %v, want ok %v", err, tc.ok)
			}
		})
	}
	if err := checkGuard(filepath.Join(t.TempDir(), "missing.json"), nil); err == nil {
		t.Error("a missing guard file passed")
	}
}
