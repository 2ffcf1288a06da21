package app

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestLifecycleStopsInReverse: phases stop last-added first, each part's
// stop step before its run's context ends; parts of a role the process
// does not play never start; a failing run stops the rest.
func TestLifecycleStopsInReverse(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var events []string
	record := func(s string) {
		mu.Lock()
		events = append(events, s)
		mu.Unlock()
	}
	runUntilStopped := func(name string) func(context.Context) error {
		return func(ctx context.Context) error {
			record("start " + name)
			<-ctx.Done()
			record("end " + name)
			return nil
		}
	}
	failed := errors.New("broken")
	fail := make(chan struct{})
	lc := &lifecycle{log: slog.New(slog.DiscardHandler), roles: map[string]bool{RoleWorker: true}}
	lc.add("first", part{name: "log", run: runUntilStopped("log")})
	lc.add("second", part{name: "drain", stop: func(context.Context) { record("drain") }})
	lc.add("third",
		part{name: "api only", roles: []string{RoleAPI}, run: runUntilStopped("api only")},
		part{name: "worker", roles: []string{RoleWorker}, run: func(ctx context.Context) error {
			record("start worker")
			<-fail
			return failed
		}})
	done := make(chan error, 1)
	go func() { done <- lc.run(context.Background()) }()
	close(fail)
	if err := <-done; !errors.Is(err, failed) {
		t.Fatalf("run returned %v, want the worker's failure", err)
	}
	// Runs start in goroutines, so only the stops have an order.
	stops := slices.DeleteFunc(slices.Clone(events), func(e string) bool { return strings.HasPrefix(e, "start ") })
	if want := []string{"drain", "end log"}; !slices.Equal(stops, want) {
		t.Fatalf("stops %q, want %q (all events %q)", stops, want, events)
	}
	if slices.Contains(events, "start api only") {
		t.Fatal("a part of the api role started in a worker")
	}
}
