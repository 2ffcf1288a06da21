// Command ferry runs Ferry: `ferry serve` (API, portal and workers),
// `ferry migrate`, `ferry staff create --email …`,
// `ferry billing invoice --period YYYY-MM` and `ferry openapi`.
package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/app/httpapi"
	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/delivery/routing/sandbox"
	"github.com/ferry-dev/ferry/tenants"
)

const usage = `usage:
  ferry serve [--roles api,worker]   run the API, portal and delivery workers
  ferry migrate                      apply database migrations and exit
  ferry staff create --email EMAIL [--password-stdin]
                                     create a support staff account (a generated
                                     password must be changed at first sign-in)
  ferry staff disable --email EMAIL  end a staff account's access at once
  ferry staff delete --email EMAIL   delete a staff account (audit rows stay)
  ferry staff reset-totp --email EMAIL
                                     remove a staff member's authenticator
  ferry billing invoice [--period YYYY-MM]
                                     issue (idempotently) the invoices of a finished
                                     month (default: last month) and collect them
  ferry billing plan --tenant ID --plan NAME
                                     put a tenant on a plan, including enterprise
  ferry openapi                      print the API's OpenAPI 3 document (JSON) and exit;
                                     needs no configuration, database or Kafka
  ferry healthcheck [URL]            exit 0 if a running ferry answers 200 (default: /readyz
                                     on FERRY_HTTP_ADDR's port); for container healthchecks
  ferry version

Configuration comes from FERRY_* environment variables; see docs/configuration.md.
`

func main() {
	// A transformation worker started by this process's sandbox pool
	// serves its parent and exits here, before anything else runs.
	sandbox.MainHook()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "ferry:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], getenv, stdout)
	case "migrate":
		if _, _, err := openMigrated(ctx, getenv); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "migrations applied")
		return nil
	case "staff":
		return staff(ctx, args[1:], getenv, stdin, stdout)
	case "billing":
		return billingCmd(ctx, args[1:], getenv, stdout)
	case "openapi":
		doc, err := httpapi.OpenAPIDocument()
		if err != nil {
			return err
		}
		if _, err := stdout.Write(doc); err != nil {
			return fmt.Errorf("write the OpenAPI document: %w", err)
		}
		return nil
	case "healthcheck":
		return healthcheck(ctx, args[1:], getenv, stdout)
	case "version":
		fmt.Fprintln(stdout, app.Version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stdout, usage)
		return fmt.Errorf("unknown command %q", args[0])
	}
}

func serve(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	roles := fs.String("roles", "", "comma-separated roles to run: api, worker (default: FERRY_ROLES or both)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	env := getenv
	if *roles != "" {
		env = func(k string) string {
			if k == "FERRY_ROLES" {
				return *roles
			}
			return getenv(k)
		}
	}
	cfg, err := app.ConfigFromEnv(env)
	if err != nil {
		return err
	}
	log := app.NewLogger(cfg)
	a, err := app.New(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	if u := a.URL(); u != "" {
		fmt.Fprintf(stdout, "Ferry is running. Portal: %s/\n", u)
	}
	return a.Run(ctx)
}

const staffUsage = "usage: ferry staff create --email EMAIL [--password-stdin] | " +
	"ferry staff disable|delete|reset-totp --email EMAIL"

// staff runs the staff account commands. They need only the database
// (FERRY_DATABASE_URL): no Kafka, no secrets, no dev mode.
func staff(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New(staffUsage)
	}
	cmd := args[0]
	switch cmd {
	case "create", "disable", "delete", "reset-totp":
	default:
		return errors.New(staffUsage)
	}
	fs := flag.NewFlagSet("staff "+cmd, flag.ContinueOnError)
	email := fs.String("email", "", "staff member's email")
	fromStdin := fs.Bool("password-stdin", false, "create: read the password from standard input instead of generating one")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *email == "" {
		return errors.New("--email is required")
	}
	cfg, err := app.DBConfigFromEnv(getenv)
	if err != nil {
		return err
	}
	db, err := app.OpenDB(ctx, cfg)
	if err != nil {
		return err
	}
	if sqlDB, err := db.DB(); err == nil {
		defer sqlDB.Close()
	}
	if err := app.Migrate(ctx, db, cfg); err != nil {
		return err
	}
	svc, err := app.NewTenantsService(db, cfg)
	if err != nil {
		return err
	}
	switch cmd {
	case "disable":
		st, err := svc.DisableStaff(ctx, *email)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "staff disabled: %s (id %s); their sessions have ended\n", st.Email, st.ID)
		return nil
	case "delete":
		if err := svc.DeleteStaff(ctx, *email); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "staff deleted: %s (audit log entries keep their email)\n", *email)
		return nil
	case "reset-totp":
		if err := svc.ResetStaffTOTP(ctx, *email); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "authenticator removed for %s; they enrol a new one at their next sign-in\n", *email)
		return nil
	}
	password := ""
	if *fromStdin {
		b, err := io.ReadAll(io.LimitReader(stdin, 1024))
		if err != nil {
			return fmt.Errorf("read password: %w", err)
		}
		password = strings.TrimRight(string(b), "\r\n")
	} else {
		b := make([]byte, 18)
		if _, err := rand.Read(b); err != nil {
			return fmt.Errorf("generate password: %w", err)
		}
		password = base64.RawURLEncoding.EncodeToString(b)
	}
	st, err := svc.CreateStaff(ctx, tenants.StaffInput{Email: *email, Password: password, MustChangePassword: !*fromStdin})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "staff created: %s (id %s)\n", st.Email, st.ID)
	if !*fromStdin {
		fmt.Fprintf(stdout, "temporary password: %s\n(shown once; it must be changed at the first sign-in", password)
		if !cfg.Dev {
			fmt.Fprint(stdout, ", where an authenticator app (TOTP) is also enrolled")
		}
		fmt.Fprintln(stdout, ")")
	}
	staffNextSteps(stdout, st.Email, portalURL(getenv, cfg.Dev), cfg.Dev)
	return nil
}

// staffNextSteps tells whoever created a staff account what its holder
// does next: the account is of no use until they sign in, and the second
// factor is easy to miss until production demands it.
func staffNextSteps(w io.Writer, email, portal string, dev bool) {
	signIn := "at the portal's address (FERRY_PUBLIC_URL)"
	account := "the Account page (/staff/account)"
	if portal != "" {
		signIn = "at " + portal + "/login"
		account = "the Account page (" + portal + "/staff/account)"
	}
	fmt.Fprintln(w, "next steps:")
	fmt.Fprintf(w, "  1. sign in %s with %s; staff land in the staff console\n", signIn, email)
	if dev {
		fmt.Fprintf(w, "  2. enrol an authenticator app (TOTP) on %s: optional here, required at the first sign-in in production\n", account)
	} else {
		fmt.Fprintf(w, "  2. enrol an authenticator app (TOTP): the first sign-in requires it (later: %s shows it)\n", account)
	}
	fmt.Fprintf(w, "  3. a lost authenticator: an operator runs  ferry staff reset-totp --email %s  and a new one is enrolled at the next sign-in\n", email)
}

// portalURL is where the portal is served as far as the environment
// says: FERRY_PUBLIC_URL, else the listen address of FERRY_HTTP_ADDR (or
// dev's default, 127.0.0.1:8088); "" when it cannot tell.
func portalURL(getenv func(string) string, dev bool) string {
	if u := strings.TrimRight(strings.TrimSpace(getenv("FERRY_PUBLIC_URL")), "/"); u != "" {
		return u
	}
	addr := strings.TrimSpace(getenv("FERRY_HTTP_ADDR"))
	if addr == "" {
		if !dev {
			return ""
		}
		addr = app.DevHTTPAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func billingCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	const usage = "usage: ferry billing invoice [--period YYYY-MM] | ferry billing plan --tenant ID --plan NAME"
	if len(args) == 0 || (args[0] != "invoice" && args[0] != "plan") {
		return errors.New(usage)
	}
	fs := flag.NewFlagSet("billing "+args[0], flag.ContinueOnError)
	periodFlag := fs.String("period", "", "invoice: the month to invoice, e.g. 2026-11 (default: last month, UTC)")
	tenantFlag := fs.String("tenant", "", "plan: the tenant's id")
	planFlag := fs.String("plan", "", "plan: the plan's name (free, pro, enterprise, …)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	period := billing.MonthStart(time.Now()).AddDate(0, -1, 0)
	if *periodFlag != "" {
		var err error
		if period, err = billing.ParsePeriod(*periodFlag); err != nil {
			return err
		}
	}
	var tenantID uuid.UUID
	if args[0] == "plan" {
		var err error
		if tenantID, err = uuid.Parse(*tenantFlag); err != nil || *planFlag == "" {
			return errors.New(usage)
		}
	}
	cfg, db, err := openMigrated(ctx, getenv)
	if err != nil {
		return err
	}
	svc, err := app.NewBillingService(db, cfg, app.NewLogger(cfg))
	if err != nil {
		return err
	}
	if args[0] == "plan" {
		ent, err := svc.AssignPlan(ctx, tenantID, *planFlag, "operator")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "tenant %s is on the %s plan\n", tenantID, ent.Name)
		return nil
	}
	res, err := svc.RunInvoices(ctx, period)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "invoices for %s: %d tenants, %d issued, %d already issued, %d with nothing to bill\n",
		res.Period, res.Tenants, res.Issued, res.Existing, res.Nothing)
	return nil
}

// openMigrated reads the configuration and opens a migrated database, as
// every operator command needs.
func openMigrated(ctx context.Context, getenv func(string) string) (app.Config, *gorm.DB, error) {
	cfg, err := app.ConfigFromEnv(getenv)
	if err != nil {
		return app.Config{}, nil, err
	}
	db, err := app.OpenDB(ctx, cfg)
	if err != nil {
		return app.Config{}, nil, err
	}
	if err := app.Migrate(ctx, db, cfg); err != nil {
		return app.Config{}, nil, err
	}
	return cfg, db, nil
}
