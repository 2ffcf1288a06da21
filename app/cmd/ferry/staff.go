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
	"strings"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/tenants"
)

// staffCmd runs one staff account command. They need only the database
// (FERRY_DATABASE_URL): no Kafka, no secrets, no dev mode.
func staffCmd(verb string) func(*flag.FlagSet, env) func(context.Context) error {
	return func(fs *flag.FlagSet, e env) func(context.Context) error {
		email := fs.String("email", "", "the staff member's email")
		fromStdin := new(bool)
		if verb == "create" {
			fromStdin = fs.Bool("password-stdin", false, "read the password from standard input instead of generating one")
		}
		return func(ctx context.Context) error {
			if *email == "" {
				return errors.New("--email is required")
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
			switch verb {
			case "disable":
				st, err := svc.DisableStaff(ctx, *email)
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "staff disabled: %s (id %s); their sessions have ended\n", st.Email, st.ID)
				return nil
			case "delete":
				if err := svc.DeleteStaff(ctx, *email); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "staff deleted: %s (audit log entries keep their email)\n", *email)
				return nil
			case "reset-totp":
				if err := svc.ResetStaffTOTP(ctx, *email); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "authenticator removed for %s; they enrol a new one at their next sign-in\n", *email)
				return nil
			}
			password := ""
			if *fromStdin {
				b, err := io.ReadAll(io.LimitReader(e.stdin, 1024))
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
			fmt.Fprintf(e.stdout, "staff created: %s (id %s)\n", st.Email, st.ID)
			if !*fromStdin {
				fmt.Fprintf(e.stdout, "temporary password: %s\n(shown once; it must be changed at the first sign-in", password)
				if !cfg.Dev {
					fmt.Fprint(e.stdout, ", where an authenticator app (TOTP) is also enrolled")
				}
				fmt.Fprintln(e.stdout, ")")
			}
			staffNextSteps(e.stdout, st.Email, portalURL(e.getenv, cfg.Dev), cfg.Dev)
			return nil
		}
	}
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
