package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// ferry staff … needs only the database: no FERRY_ENV, Kafka or secrets.
func TestStaffCommandsNeedOnlyTheDatabase(t *testing.T) {
	t.Parallel()
	env := map[string]string{"FERRY_DATABASE_URL": testenv.Postgres(t)}
	getenv := func(k string) string { return env[k] }
	ctx := context.Background()

	var out bytes.Buffer
	if err := run(ctx, []string{"staff", "create", "--email", "sam@ferry.example"}, getenv, nil, &out); err != nil {
		t.Fatalf("staff create with only FERRY_DATABASE_URL: %v", err)
	}
	if !strings.Contains(out.String(), "temporary password: ") || !strings.Contains(out.String(), "changed at the first sign-in") {
		t.Errorf("create output:\n%s", out.String())
	}
	out.Reset()
	err := run(ctx, []string{"staff", "create", "--email", "pat@ferry.example", "--password-stdin"}, getenv,
		strings.NewReader("a chosen password\n"), &out)
	if err != nil || strings.Contains(out.String(), "password") {
		t.Errorf("create --password-stdin: %v\n%s", err, out.String())
	}
	for _, cmd := range []string{"disable", "reset-totp", "delete"} {
		out.Reset()
		if err := run(ctx, []string{"staff", cmd, "--email", "sam@ferry.example"}, getenv, nil, &out); err != nil {
			t.Errorf("staff %s: %v", cmd, err)
		}
	}
	if err := run(ctx, []string{"staff", "disable", "--email", "nobody@ferry.example"}, getenv, nil, &out); err == nil {
		t.Error("disabling an unknown staff email succeeded")
	}
	noDB := func(string) string { return "" }
	err = run(ctx, []string{"staff", "create", "--email", "x@ferry.example"}, noDB, nil, &out)
	if err == nil || !strings.Contains(err.Error(), "scripts/env.sh") {
		t.Errorf("without a database: %v, want how to set it", err)
	}
}
