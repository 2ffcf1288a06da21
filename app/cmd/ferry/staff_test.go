package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/tenants"
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
	// A live session of pat ends when the command disables the account.
	cfg, err := app.DBConfigFromEnv(getenv)
	if err != nil {
		t.Fatal(err)
	}
	db, err := app.OpenDB(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := app.NewTenantsService(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Login(ctx, tenants.LoginInput{Email: "pat@ferry.example", Password: "a chosen password"})
	if err != nil {
		t.Fatal(err)
	}
	if p, err = svc.StartSession(ctx, p, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, []string{"staff", "disable", "--email", "pat@ferry.example"}, getenv, nil, &out); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Refresh(ctx, p); ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Errorf("session of a disabled staff member: %v, want unauthorized", err)
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
