package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry/delivery/routing"
)

func TestMain(m *testing.M) {
	MainHook()
	os.Exit(m.Run())
}

// slack is what a run may take beyond its deadline on a loaded 2-CPU
// machine: killing and reaping the worker, scheduling the test.
const slack = 750 * time.Millisecond

func newPool(t *testing.T, cfg Config) *Pool {
	t.Helper()
	p, err := New(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func sample() routing.Webhook {
	return routing.Webhook{
		Event: routing.Event{ID: "9f0c4c9e-8c4e-4c1c-9e52-0d6f9f1d2a10", Type: "invoice.paid",
			CreatedAt: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC),
			Data:      json.RawMessage(`{"amount":1500,"currency":"EUR"}`)},
		Payload: []byte(`{"type":"invoice.paid","data":{"amount":1500,"currency":"EUR"}}`),
		Headers: map[string]string{"X-Team": "billing"},
	}
}

const benign = `function handler(w) { w.payload = {paid: w.event.data.amount}; return w }`

// TestPoolStopsWhatTheEngineCannot: transformations that loop inside a
// native builtin, backtrack in a regular expression, loop in JavaScript or
// allocate without bound each end within the deadline (plus slack) with
// the error their delivery stores, and the pool serves the next run.
// Before the pool, the first two ran for tens of seconds in the ingest
// process, past every limit.
func TestPoolStopsWhatTheEngineCannot(t *testing.T) {
	p := newPool(t, Config{Workers: 2, PerTenant: 1})
	// Memory cases get a pool with longer time limits: on a loaded
	// machine time must not be what stops them.
	mem := newPool(t, Config{Workers: 2, PerTenant: 1, Deadline: 5 * time.Second,
		Transform: routing.TransformConfig{Timeout: 2 * time.Second, WallTimeout: 4 * time.Second}})
	tests := []struct {
		name string
		pool *Pool
		src  string
		err  error
	}{
		{name: "loop inside a builtin", pool: p, src: `function handler(w) { Array.prototype.join.call({length: 2e8}, ''); return w }`,
			err: routing.ErrTransformTimeout},
		{name: "catastrophic regex with a backreference and a lookahead", pool: p,
			src: `function handler(w) { w.payload = /^(a+)+\1(?=b)$/.test('a'.repeat(40)); return w }`, err: routing.ErrTransformTimeout},
		{name: "loop in JavaScript", pool: p, src: `function handler(w) { while (true) {} }`, err: routing.ErrTransformTimeout},
		{name: "loop at the top level", pool: p, src: `Array.prototype.join.call({length: 2e8}, ''); function handler(w) { return w }`,
			err: routing.ErrTransformTimeout},
		{name: "heap growth", pool: mem, src: `function handler(w) { let a = [], s = 'x'.repeat(1e6); while (true) a.push(s + a.length); }`,
			err: routing.ErrTransformMemory},
		// 1e8 arguments are one allocation of 1.6 GB, out of the engine's
		// sight; the worker's memory limit refuses it.
		{name: "allocation inside a builtin", pool: mem, src: `function handler(w) { [].concat.apply([], new Array(1e8)); return w }`,
			err: routing.ErrTransformMemory},
		// A string doubling inside join, past the worker's memory limit.
		{name: "string growth inside a builtin", pool: mem,
			src: `function handler(w) { Array.prototype.join.call({length: 1e6}, 'x'.repeat(4e6)); return w }`, err: routing.ErrTransformMemory},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := tt.pool.Run(context.Background(), routing.Source{Tenant: "hostile", Code: tt.src}, sample())
			took := time.Since(start)
			t.Logf("stopped after %s: %v", took, err)
			require.ErrorIs(t, err, tt.err)
			require.Less(t, took, tt.pool.Config().Deadline+slack, "ran past its deadline")

			res, err := tt.pool.Run(context.Background(), routing.Source{Tenant: "bystander", Code: benign}, sample())
			require.NoError(t, err, "the pool stopped serving")
			require.JSONEq(t, `{"paid":1500}`, string(res.Payload))
		})
	}
}

// TestPoolCheckIsBounded: saving an endpoint runs the top level of its
// transformation; one that hangs there is refused as invalid within the
// deadline.
func TestPoolCheckIsBounded(t *testing.T) {
	p := newPool(t, Config{Workers: 2})
	start := time.Now()
	err := p.Check(context.Background(), routing.Source{Tenant: "t",
		Code: `/^(a+)+\1(?=b)$/.test('a'.repeat(40)); function handler(w) { return w }`})
	require.ErrorIs(t, err, routing.ErrInvalidTransformation)
	require.Less(t, time.Since(start), p.Config().Deadline+slack)
	require.NoError(t, p.Check(context.Background(), routing.Source{Tenant: "t", Code: benign}))
	require.NoError(t, p.Check(context.Background(), routing.Source{Tenant: "t"}))
}

// TestPoolTenantCap: a tenant with many hanging runs in flight holds at
// most PerTenant workers; a bystander's run gets a worker at once and
// finishes long before the hog's backlog.
func TestPoolTenantCap(t *testing.T) {
	p := newPool(t, Config{Workers: 3, PerTenant: 2})
	hog := routing.Source{Tenant: "hog", Code: `function handler(w) { Array.prototype.join.call({length: 2e8}, ''); return w }`}
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Go(func() {
			_, err := p.Run(context.Background(), hog, sample())
			errs <- err
		})
	}
	// Let the hog's runs take their workers and queue up.
	require.Eventually(t, func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.active["hog"] == 2 && len(p.queue) == 4
	}, 30*time.Second, 5*time.Millisecond)
	for i := range 5 {
		start := time.Now()
		res, err := p.Run(context.Background(), routing.Source{Tenant: "bystander", Code: benign}, sample())
		require.NoError(t, err)
		require.JSONEq(t, `{"paid":1500}`, string(res.Payload))
		took := time.Since(start)
		t.Logf("bystander run %d took %s", i, took)
		// A fresh worker's start-up, on a machine the hog keeps busy.
		require.Less(t, took, p.Config().Deadline, "the bystander waited for the hog")
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.ErrorIs(t, err, routing.ErrTransformTimeout)
	}
}

// TestPoolUnavailable: an executable that is no worker fails the run
// with ErrUnavailable (the caller's error, not a stored result), quickly.
func TestPoolUnavailable(t *testing.T) {
	p := newPool(t, Config{Executable: "/bin/true", StartTimeout: 5 * time.Second})
	_, err := p.Run(context.Background(), routing.Source{Code: benign}, sample())
	require.ErrorIs(t, err, ErrUnavailable)
	var te *routing.TransformError
	require.False(t, errors.As(err, &te), "a missing sandbox is no transformation error: %v", err)
}

// TestPoolRunsConcurrently: many tenants' ordinary runs all succeed and
// reuse workers.
func TestPoolRunsConcurrently(t *testing.T) {
	p := newPool(t, Config{Workers: 4})
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			src := routing.Source{Tenant: fmt.Sprintf("t%d", i%5), Code: benign}
			res, err := p.Run(context.Background(), src, sample())
			if err != nil || string(res.Payload) != `{"paid":1500}` {
				t.Errorf("run %d: %s %v", i, res.Payload, err)
			}
		})
	}
	wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	require.LessOrEqual(t, len(p.live), 4)
}

func TestWorkerEnv(t *testing.T) {
	t.Parallel()
	got := workerEnv([]string{"FERRY_MASTER_KEY=k", "GOMAXPROCS=2", "PATH=/bin", "GODEBUG=x=1", "FERRY_DATABASE_URL=postgres://"})
	require.Equal(t, []string{"GOMAXPROCS=2", "GODEBUG=x=1"}, got)
}

// TestPoolNoOutcomeWithoutARun: a run whose caller gave up, or whose pool
// closed under it, has no outcome to store: its error is no
// TransformError.
func TestPoolNoOutcomeWithoutARun(t *testing.T) {
	p := newPool(t, Config{Workers: 2})
	loop := routing.Source{Tenant: "t", Code: `function handler(w) { Array.prototype.join.call({length: 2e8}, ''); return w }`}
	var te *routing.TransformError

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := p.Run(ctx, loop, sample())
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.False(t, errors.As(err, &te), "%v", err)

	done := make(chan error, 1)
	go func() {
		_, err := p.Run(context.Background(), loop, sample())
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	require.NoError(t, p.Close())
	err = <-done
	require.ErrorIs(t, err, ErrUnavailable)
	require.False(t, errors.As(err, &te), "%v", err)
}
