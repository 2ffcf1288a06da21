package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/tenants"
)

// apiKeyCreateCmd creates a tenant's API key straight in the database, so
// a local setup or a provisioning script needs no portal session (and no
// cookie jar or CSRF header) for its first key.
func apiKeyCreateCmd(fs *flag.FlagSet, e env) func(context.Context) error {
	tenant := fs.String("tenant", "", "the tenant: its id, or the email a member signs in with")
	name := fs.String("name", "", "what the key is for, e.g. backend (shown in the portal's API keys page)")
	quiet := fs.Bool("quiet", false, "print only the key (for scripts: KEY=$(ferry api-key create … --quiet))")
	return func(ctx context.Context) error {
		if strings.TrimSpace(*tenant) == "" || strings.TrimSpace(*name) == "" {
			return errors.New("--tenant and --name are required")
		}
		cfg, err := app.DBConfigFromEnv(e.getenv)
		if err != nil {
			return err
		}
		db, closeDB, err := openMigratedDB(ctx, cfg)
		if err != nil {
			return err
		}
		defer closeDB()
		svc, err := app.NewTenantsService(db, cfg)
		if err != nil {
			return err
		}
		var t tenants.Tenant
		if id, perr := uuid.Parse(strings.TrimSpace(*tenant)); perr == nil {
			t, err = svc.Tenant(ctx, id)
		} else if strings.Contains(*tenant, "@") {
			t, err = svc.TenantOfMember(ctx, *tenant)
		} else {
			return fmt.Errorf("--tenant %q is neither a tenant id nor an email address", *tenant)
		}
		if err != nil {
			return fmt.Errorf("tenant %s: %w", *tenant, err)
		}
		key, secret, err := svc.CreateAPIKey(ctx, t.ID, *name)
		if err != nil {
			return err
		}
		if *quiet {
			fmt.Fprintln(e.stdout, secret)
			return nil
		}
		fmt.Fprintf(e.stdout, "API key %q (id %s) for tenant %s (%s):\n\n  %s\n\n", key.Name, key.ID, t.Name, t.ID, secret)
		fmt.Fprintln(e.stdout, "Shown once: Ferry keeps only its hash. Send it as  Authorization: Bearer <key>;")
		fmt.Fprintln(e.stdout, "revoke it on the portal's API keys page.")
		return nil
	}
}
