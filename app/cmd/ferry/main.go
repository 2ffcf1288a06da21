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
)

const usage = `usage:
  ferry serve [--roles api,worker]   run the API, portal and delivery workers
  ferry migrate                      apply database migrations and exit
  ferry staff create --email EMAIL [--password-stdin]
                                     create a support staff account
  ferry billing invoice [--period YYYY-MM]
                                     issue (idempotently) the invoices of a finished
                                     month (default: last month) and collect them
  ferry billing plan --tenant ID --plan NAME
                                     put a tenant on a plan, including enterprise
  ferry openapi                      print the API's OpenAPI 3 document (JSON) and exit;
                                     needs no configuration, database or Kafka
  ferry version

Configuration comes from FERRY_* environment variables; see README.md.
`

func main() {
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

func staff(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: ferry staff create --email EMAIL [--password-stdin]")
	}
	fs := flag.NewFlagSet("staff create", flag.ContinueOnError)
	email := fs.String("email", "", "staff member's email")
	fromStdin := fs.Bool("password-stdin", false, "read the password from standard input instead of generating one")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *email == "" {
		return errors.New("--email is required")
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
			return err
		}
		password = base64.RawURLEncoding.EncodeToString(b)
	}
	cfg, db, err := openMigrated(ctx, getenv)
	if err != nil {
		return err
	}
	svc, err := app.NewTenantsService(db, cfg)
	if err != nil {
		return err
	}
	st, err := svc.CreateStaff(ctx, *email, password)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "staff created: %s (id %s)\n", st.Email, st.ID)
	if !*fromStdin {
		fmt.Fprintf(stdout, "password: %s\n(shown once; the staff member signs in to the portal with it)\n", password)
	}
	return nil
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
	if err := app.Migrate(ctx, db); err != nil {
		return app.Config{}, nil, err
	}
	return cfg, db, nil
}
