// Command benchplot draws the plots of docs/benchmarks.md from recorded
// `make bench` runs.
//
// Usage:
//
//	go run ./scripts/benchplot [-out docs/bench] [-scenarios b,e,f,g,h] FILE_OR_DIR...
//
// Each argument is a bench-results.json as `ferry-load bench` writes it,
// or a directory whose *.json files are such results (make bench-plots
// passes docs/bench/runs). A run is labelled with its file's name without
// .json; by convention <date>-<short commit>. It writes four SVG files
// into -out:
//
//	current-throughput.svg  the latest run: accepted/s and delivered/s per scenario
//	current-latency.svg     the latest run: p50, p99 and answer p99 per scenario (log scale)
//	history-throughput.svg  every run, oldest left: one panel per scenario
//	history-latency.svg     the same for latency
//
// The latest run is the one started last (started_at in the file). Void
// scenarios (a ledger that did not close, or an error) are marked and
// their figures left out. Without any run, each file says how to record
// one.
//
// The SVG is written by hand with the standard library, with every number
// formatted the same way and no map iteration, so the same input gives
// byte-identical files and regenerating unchanged runs changes nothing
// in git.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "benchplot:", err)
		}
		os.Exit(2)
	}
}

// run parses args, reads the runs and writes the plots.
func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("benchplot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "docs/bench", "directory to write the SVG files to")
	scenarios := fs.String("scenarios", DefaultScenarios,
		"comma-separated scenario names to plot; a name also selects name-… and name/… (empty: all but the warm-up)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: benchplot [-out DIR] [-scenarios LIST] RESULTS.json|DIR ...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("no results file or directory given")
	}
	runs, err := LoadAll(fs.Args())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	for _, f := range Plots(runs, ParseSelector(*scenarios)) {
		path := filepath.Join(*out, f.Name)
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			return fmt.Errorf("write plot: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	fmt.Fprintf(stdout, "%d recorded run(s)\n", len(runs))
	return nil
}
