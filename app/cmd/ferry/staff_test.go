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
	// Whoever runs it is told what the new staff member does next.
	for _, want := range []string{"next steps:", "sign in at the portal's address (FERRY_PUBLIC_URL) with sam@ferry.example",
		"enrol an authenticator app (TOTP): the first sign-in requires it", "ferry staff reset-totp --email sam@ferry.example"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("create output lacks %q:\n%s", want, out.String())
		}
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

// make staff runs in dev mode: the steps name the local portal's pages
// and say the authenticator is optional there.
func TestStaffCreateSaysHowToEnrolInDev(t *testing.T) {
	t.Parallel()
	env := map[string]string{"FERRY_DATABASE_URL": testenv.Postgres(t), "FERRY_ENV": "dev"}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"staff", "create", "--email", "dev@ferry.example"}, func(k string) string { return env[k] }, nil, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sign in at http://127.0.0.1:8088/login with dev@ferry.example",
		"enrol an authenticator app (TOTP) on the Account page (http://127.0.0.1:8088/staff/account): optional here, required at the first sign-in in production",
		"ferry staff reset-totp --email dev@ferry.example"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("create output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestPortalURL(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  map[string]string
		dev  bool
		want string
	}{
		{map[string]string{"FERRY_PUBLIC_URL": "https://ferry.example.com/"}, false, "https://ferry.example.com"},
		{map[string]string{"FERRY_HTTP_ADDR": ":9000"}, false, "http://127.0.0.1:9000"},
		{map[string]string{"FERRY_HTTP_ADDR": "10.0.0.5:8080"}, true, "http://10.0.0.5:8080"},
		{nil, true, "http://127.0.0.1:8088"},
		{nil, false, ""},
		{map[string]string{"FERRY_HTTP_ADDR": "nonsense"}, true, ""},
	} {
		if got := portalURL(func(k string) string { return c.env[k] }, c.dev); got != c.want {
			t.Errorf("portalURL(%v, dev %v) = %q, want %q", c.env, c.dev, got, c.want)
		}
	}
}
