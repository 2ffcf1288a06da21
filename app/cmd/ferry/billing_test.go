package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

func TestBillingInvoiceCommand(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"FERRY_ENV":           "dev",
		"FERRY_DATABASE_URL":  testenv.Postgres(t),
		"FERRY_KAFKA_BROKERS": "127.0.0.1:1", // unused by this command
		"FERRY_LOG_LEVEL":     "error",
	}
	getenv := func(k string) string { return env[k] }
	ctx := context.Background()

	var out bytes.Buffer
	current := time.Now().UTC().Format("2006-01")
	err := run(ctx, []string{"billing", "invoice", "--period", current}, getenv, nil, &out)
	if err == nil || !strings.Contains(err.Error(), "not over yet") {
		t.Errorf("invoicing the current month: err = %v, want a refusal", err)
	}
	if err := run(ctx, []string{"billing", "invoice", "--period", "2026-13"}, getenv, nil, &out); err == nil {
		t.Error("a bad period was accepted")
	}
	for range 2 {
		out.Reset()
		if err := run(ctx, []string{"billing", "invoice", "--period", "2026-10"}, getenv, nil, &out); err != nil {
			t.Fatalf("ferry billing invoice: %v", err)
		}
		if !strings.Contains(out.String(), "invoices for 2026-10: 0 tenants") {
			t.Errorf("output %q", out.String())
		}
	}

	out.Reset()
	if err := run(ctx, []string{"billing", "plan", "--tenant", "not-a-uuid", "--plan", "pro"}, getenv, nil, &out); err == nil {
		t.Error("a bad tenant id was accepted")
	}
	if err := run(ctx, []string{"billing", "plan", "--tenant", "6f1c2a52-0b7e-4c1e-9d3a-0d2b8c1e4f00", "--plan", "enterprise"}, getenv, nil, &out); err == nil ||
		!strings.Contains(err.Error(), "not_found") {
		t.Errorf("unknown tenant: err = %v", err)
	}
}
