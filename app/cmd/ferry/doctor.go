package main

import (
	"context"
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/ferry-dev/ferry/app"
)

// doctorCmd prints app.Diagnose's findings and fails when one of them
// would keep Ferry from working.
func doctorCmd(_ *flag.FlagSet, e env) func(context.Context) error {
	return func(ctx context.Context) error {
		findings := app.Diagnose(ctx, e.getenv)
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		failed := 0
		for _, f := range findings {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Verdict, f.Area, f.Detail)
			if f.Verdict == app.Fail {
				failed++
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if failed > 0 {
			return fmt.Errorf("doctor: %d problem(s) keep Ferry from working (lines marked FAIL)", failed)
		}
		fmt.Fprintln(e.stdout, "Ferry can start with this configuration.")
		return nil
	}
}
