// Command ferry runs Ferry (`ferry serve`) and its operator commands;
// `ferry help` lists them and `ferry COMMAND --help` explains one.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"text/tabwriter"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/app/httpapi"
	"github.com/ferry-dev/ferry/delivery/routing/sandbox"
)

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

// env is what a command may use of its process.
type env struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
}

// A command is one `ferry …` command. setup declares its flags and
// returns what runs once they are parsed.
type command struct {
	name     string // as typed, e.g. "staff create"
	synopsis string // what follows the name in its usage line
	summary  string
	setup    func(fs *flag.FlagSet, e env) func(context.Context) error
	// maxArgs is how many arguments may follow the flags.
	maxArgs int
}

// commands are listed by `ferry help` in this order.
func commands() []command {
	return []command{
		{"serve", "[--roles api,worker]", "run the API, the portal and the delivery workers", serveCmd, 0},
		{"migrate", "", "apply database migrations and exit", migrateCmd, 0},
		{"doctor", "", "check the configuration, PostgreSQL, Kafka's topics, SMTP and the clock; change nothing", doctorCmd, 0},
		{"reseal", "", "seal every stored secret with FERRY_MASTER_KEY, opening older ones with FERRY_OTHER_MASTER_KEYS (the last step of a master-key rotation)", resealCmd, 0},
		{"listen", "--queue ID --token TOKEN --forward-to URL", "forward a pull queue's messages to a local URL (no public address needed)", listenCmd, 0},
		{"api-key create", "--tenant ID|EMAIL --name NAME", "create an API key for a tenant (needs only the database); prints it once", apiKeyCreateCmd, 0},
		{"staff create", "--email EMAIL [--password-stdin]", "create a support staff account (a generated password is changed at first sign-in)", staffCmd("create"), 0},
		{"staff disable", "--email EMAIL", "end a staff account's access at once", staffCmd("disable"), 0},
		{"staff delete", "--email EMAIL", "delete a staff account (audit rows stay)", staffCmd("delete"), 0},
		{"staff reset-totp", "--email EMAIL", "remove a staff member's authenticator", staffCmd("reset-totp"), 0},
		{"billing invoice", "[--period YYYY-MM]", "issue (idempotently) a finished month's invoices (default: last month) and collect them", billingInvoiceCmd, 0},
		{"billing plan", "--tenant ID --plan NAME", "put a tenant on a plan, including enterprise", billingPlanCmd, 0},
		{"healthcheck", "[URL]", "exit 0 if a running ferry answers 200 at URL (default: /readyz on FERRY_HTTP_ADDR's port); for container healthchecks", healthcheckCmd, 1},
		{"openapi", "[--internal]", "print the tenant API's OpenAPI 3.1 document (JSON), or with --internal the portal's and staff routes'; needs no configuration or services", openapiCmd, 0},
		{"version", "", "print Ferry's version, commit and Go version (also: ferry --version)", versionCmd, 0},
	}
}

func usage(w io.Writer, cmds []command, group string) {
	fmt.Fprintln(w, "usage: ferry COMMAND [flags]   (ferry COMMAND --help lists a command's flags)")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range cmds {
		if group == "" || strings.HasPrefix(c.name, group+" ") {
			fmt.Fprintf(tw, "  ferry %s\t%s\n", c.name, c.summary)
		}
	}
	_ = tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Configuration comes from FERRY_* environment variables; see docs/configuration.md.")
}

func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "help"
}

func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout io.Writer) error {
	cmds := commands()
	if len(args) == 0 {
		usage(stdout, cmds, "")
		return errors.New("no command given")
	}
	switch {
	case isHelp(args[0]):
		usage(stdout, cmds, "")
		return nil
	case args[0] == "--version" || args[0] == "-version":
		args = []string{"version"}
	}
	c, rest, ok := lookup(cmds, args)
	if !ok {
		group := args[0]
		for _, c := range cmds {
			if strings.HasPrefix(c.name, group+" ") {
				usage(stdout, cmds, group)
				if len(args) > 1 && isHelp(args[1]) {
					return nil
				}
				if len(args) == 1 {
					return fmt.Errorf("%s needs a subcommand", group)
				}
				return fmt.Errorf("unknown command %q", group+" "+args[1])
			}
		}
		usage(stdout, cmds, "")
		return fmt.Errorf("unknown command %q", args[0])
	}
	fs := flag.NewFlagSet("ferry "+c.name, flag.ContinueOnError)
	var help bytes.Buffer
	fs.SetOutput(&help)
	fs.Usage = func() {
		fmt.Fprintf(&help, "usage: ferry %s %s\n\n%s\n", c.name, c.synopsis, c.summary)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(&help, "\nflags:")
			fs.PrintDefaults()
		}
	}
	runCmd := c.setup(fs, env{getenv: getenv, stdin: stdin, stdout: stdout})
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			_, werr := stdout.Write(help.Bytes())
			return werr
		}
		return fmt.Errorf("%w (ferry %s --help lists the flags)", err, c.name)
	}
	if fs.NArg() > c.maxArgs {
		return fmt.Errorf("ferry %s: unexpected argument %q (ferry %s --help)", c.name, fs.Arg(c.maxArgs), c.name)
	}
	return runCmd(ctx)
}

// lookup finds the command args start with, the longest name first, and
// returns the arguments after its name.
func lookup(cmds []command, args []string) (command, []string, bool) {
	var best command
	bestLen := 0
	for _, c := range cmds {
		words := strings.Fields(c.name)
		if len(words) <= len(args) && len(words) > bestLen && equalWords(words, args[:len(words)]) {
			best, bestLen = c, len(words)
		}
	}
	return best, args[bestLen:], bestLen > 0
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func serveCmd(fs *flag.FlagSet, e env) func(context.Context) error {
	roles := fs.String("roles", "", "comma-separated roles to run: api, worker (default: FERRY_ROLES, else both)")
	return func(ctx context.Context) error {
		getenv := e.getenv
		if *roles != "" {
			getenv = func(k string) string {
				if k == "FERRY_ROLES" {
					return *roles
				}
				return e.getenv(k)
			}
		}
		cfg, err := app.ConfigFromEnv(getenv)
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
			fmt.Fprintf(e.stdout, "Ferry is running. Portal: %s/\n", u)
		}
		return a.Run(ctx)
	}
}

func migrateCmd(_ *flag.FlagSet, e env) func(context.Context) error {
	return func(ctx context.Context) error {
		if _, _, err := openMigrated(ctx, e.getenv); err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, "migrations applied")
		return nil
	}
}

func openapiCmd(fs *flag.FlagSet, e env) func(context.Context) error {
	internal := fs.Bool("internal", false, "print the internal document (portal, customer portal and staff routes)")
	return func(context.Context) error {
		document := httpapi.OpenAPIDocument
		if *internal {
			document = httpapi.OpenAPIInternalDocument
		}
		doc, err := document()
		if err != nil {
			return err
		}
		if _, err := e.stdout.Write(doc); err != nil {
			return fmt.Errorf("write the OpenAPI document: %w", err)
		}
		return nil
	}
}

func versionCmd(_ *flag.FlagSet, e env) func(context.Context) error {
	return func(context.Context) error {
		fmt.Fprintln(e.stdout, versionLine())
		return nil
	}
}

// versionLine names the release (set with -ldflags) and, when the binary
// was built from a git checkout, the commit it was built from.
func versionLine() string {
	line := "ferry " + app.Version
	var details []string
	if info, ok := debug.ReadBuildInfo(); ok {
		var rev, when, dirty string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+changes"
				}
			}
		}
		if rev != "" {
			details = append(details, "commit "+rev[:min(12, len(rev))]+dirty)
		}
		if when != "" {
			details = append(details, when)
		}
	}
	details = append(details, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
	return line + " (" + strings.Join(details, ", ") + ")"
}

// openMigrated reads the configuration and opens a migrated database, as
// every operator command needs.
func openMigrated(ctx context.Context, getenv func(string) string) (app.Config, *gorm.DB, error) {
	cfg, err := app.ConfigFromEnv(getenv)
	if err != nil {
		return app.Config{}, nil, err
	}
	db, _, err := openMigratedDB(ctx, cfg)
	if err != nil {
		return app.Config{}, nil, err
	}
	return cfg, db, nil
}

// openMigratedDB opens cfg's database and applies the migrations; the
// database-only commands call closeDB when they are done.
func openMigratedDB(ctx context.Context, cfg app.Config) (db *gorm.DB, closeDB func(), err error) {
	if db, err = app.OpenDB(ctx, cfg); err != nil {
		return nil, nil, err
	}
	closeDB = func() {
		if sqlDB, err := db.DB(); err == nil {
			_ = sqlDB.Close()
		}
	}
	if err := app.Migrate(ctx, db, cfg); err != nil {
		closeDB()
		return nil, nil, err
	}
	return db, closeDB, nil
}
