package sandbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ferry-dev/ferry/delivery/routing"
)

// Defaults of Config.
const (
	// DefaultPerTenant is how many of one tenant's runs may hold a worker
	// at once.
	DefaultPerTenant = 2
	// minWorkers keeps room for others beside a tenant at its cap even
	// on a small machine.
	minWorkers = 4
	// DefaultDeadline is how long a run may take, wall clock, from the
	// moment its worker gets it until the worker is killed: the engine's
	// own wall-clock backstop (routing.DefaultTransformWallTimeout) ends
	// an ordinary runaway run first, keeping its worker; the kill ends
	// the rest.
	DefaultDeadline = time.Second
	// DefaultMemory is a worker's RLIMIT_DATA: its baseline, the cache's
	// bytes, one run's heap growth (routing.DefaultTransformMemory) and
	// the collector's headroom fit well within it.
	DefaultMemory = 512 << 20
	// DefaultCPU is a worker's RLIMIT_CPU; the pool retires a worker
	// that used half of it, between runs.
	DefaultCPU = time.Minute
	// defaultStartTimeout bounds a worker's start-up (a large binary on
	// a loaded machine).
	defaultStartTimeout = 15 * time.Second
)

// ErrUnavailable is returned when no worker can be started (or the pool
// is closed): not the transformation's fault, so not a result to store.
var ErrUnavailable = errors.New("transformation sandbox unavailable")

// Config tunes a Pool; zero fields take the defaults.
type Config struct {
	// Workers is how many worker processes may run at once (default
	// GOMAXPROCS, at least 4).
	Workers int
	// PerTenant is how many of one tenant's runs may hold a worker at
	// once (DefaultPerTenant; at most Workers-1, so a tenant never holds
	// the whole pool).
	PerTenant int
	// Deadline is the wall-clock bound of one run (DefaultDeadline; at
	// least the engine's WallTimeout plus 100 ms).
	Deadline time.Duration
	// Memory is a worker's memory limit in bytes (DefaultMemory).
	Memory uint64
	// CPU is a worker's total CPU limit (DefaultCPU).
	CPU time.Duration
	// StartTimeout bounds a worker's start-up (15 s).
	StartTimeout time.Duration
	// Transform tunes the engine inside each worker (routing's defaults).
	Transform routing.TransformConfig
	// Executable is the program started as workers (default
	// os.Executable()); it must call MainHook first thing.
	Executable string
}

func (c Config) withDefaults() (Config, error) {
	c.Workers = cmp.Or(c.Workers, max(runtime.GOMAXPROCS(0), minWorkers))
	c.PerTenant = cmp.Or(c.PerTenant, DefaultPerTenant)
	if c.Workers > 1 {
		c.PerTenant = min(c.PerTenant, c.Workers-1)
	}
	wall := cmp.Or(c.Transform.WallTimeout, routing.DefaultTransformWallTimeout)
	c.Deadline = max(cmp.Or(c.Deadline, DefaultDeadline), wall+100*time.Millisecond)
	c.Memory = cmp.Or(c.Memory, DefaultMemory)
	c.CPU = cmp.Or(c.CPU, DefaultCPU)
	c.StartTimeout = cmp.Or(c.StartTimeout, defaultStartTimeout)
	if c.Executable == "" {
		exe, err := os.Executable()
		if err != nil {
			return c, fmt.Errorf("find the executable to start workers from: %w", err)
		}
		c.Executable = exe
	}
	if c.Workers < 1 || c.PerTenant < 1 || c.Memory < 64<<20 || c.CPU < 2*time.Second {
		return c, fmt.Errorf("sandbox: invalid config: %d workers, %d per tenant, %d bytes, %s CPU",
			c.Workers, c.PerTenant, c.Memory, c.CPU)
	}
	return c, nil
}

// Pool runs transformations in worker processes (see the package
// documentation). It is safe for concurrent use.
type Pool struct {
	cfg Config
	log *slog.Logger

	mu      sync.Mutex
	closed  bool
	busy    int            // runs holding a worker
	active  map[string]int // of them, per tenant
	queue   []*waiter      // runs waiting, first come first
	idle    []*worker
	live    map[*worker]struct{} // every worker not yet discarded
	warming bool                 // a spare is starting (warmLocked)
}

// waiter is a run waiting for its turn.
type waiter struct {
	tenant string
	ready  chan struct{} // closed when granted
	err    error         // set before ready is closed: not granted
}

// New returns a Pool; it starts workers as runs need them.
func New(cfg Config, log *slog.Logger) (*Pool, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Pool{cfg: cfg, log: log, active: make(map[string]int), live: make(map[*worker]struct{})}, nil
}

// Config returns the pool's configuration with the defaults filled in.
func (p *Pool) Config() Config { return p.cfg }

// Run runs the transformation s on in in a worker. Errors: a
// *routing.TransformError wrapping one of routing's Err* sentinels (the
// transformation's outcome, to store); ErrUnavailable; or ctx's cause
// when ctx ends first (no outcome).
func (p *Pool) Run(ctx context.Context, s routing.Source, in routing.Webhook) (routing.TransformResult, error) {
	in.Event.Request = nil // transformations do not see the captured request
	res, err := p.do(ctx, request{Op: opRun, Source: s, Webhook: &in})
	return res.Result, err
}

// Check compiles s and runs its top level in a worker to make sure it
// defines function handler; an empty transformation is valid. Errors: a
// *routing.TransformError wrapping routing.ErrInvalidTransformation, or
// ErrUnavailable.
func (p *Pool) Check(ctx context.Context, s routing.Source) error {
	if strings.TrimSpace(s.Code) == "" {
		return nil
	}
	_, err := p.do(ctx, request{Op: opCheck, Source: s})
	return routing.AsInvalid(err)
}

// Close kills every worker and fails waiting and later runs with
// ErrUnavailable.
func (p *Pool) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for w := range p.live {
		w.close()
	}
	clear(p.live)
	p.idle = nil
	for _, wt := range p.queue {
		wt.err = ErrUnavailable
		close(wt.ready)
	}
	p.queue = nil
	return nil
}

// do runs req on a worker, once its tenant's turn has come.
func (p *Pool) do(ctx context.Context, req request) (response, error) {
	tenant := req.Source.Tenant
	if err := p.acquire(ctx, tenant); err != nil {
		return response{}, err
	}
	defer p.release(tenant)
	for retried := false; ; retried = true {
		w, err := p.worker()
		if err != nil {
			return response{}, err
		}
		res, err := w.call(ctx, req, p.cfg.Deadline)
		var te *routing.TransformError
		switch {
		case err == nil || errors.As(err, &te) && w.alive():
			p.put(w)
		case errors.Is(err, errNotSent) && !retried:
			// Died while idle: the request never reached it.
			p.discard(w)
			continue
		default:
			p.discard(w)
		}
		switch {
		case errors.Is(err, errNotSent):
			return res, fmt.Errorf("%w: workers die before taking requests", ErrUnavailable)
		case err != nil && p.isClosed():
			// Killed by Close, not by its deadline or limits: no outcome.
			return res, ErrUnavailable
		case te != nil && !w.alive():
			p.log.Warn("transformation worker stopped", "tenant_id", tenant, "pid", w.pid, "err", te.Message,
				"stderr", firstLine(w.stderr.String()))
		}
		return res, err
	}
}

func (p *Pool) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// acquire waits until tenant may hold a worker: one is free and fewer
// than PerTenant of the tenant's runs hold one.
func (p *Pool) acquire(ctx context.Context, tenant string) error {
	wt := &waiter{tenant: tenant, ready: make(chan struct{})}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return ErrUnavailable
	}
	p.queue = append(p.queue, wt)
	p.grantLocked()
	p.mu.Unlock()
	select {
	case <-wt.ready:
		return wt.err
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-wt.ready:
		if wt.err != nil {
			return wt.err
		}
		// Granted as the context ended: give the turn on.
		p.busy--
		p.active[tenant]--
		if p.active[tenant] == 0 {
			delete(p.active, tenant)
		}
		p.grantLocked()
	default:
		p.queue = slices.DeleteFunc(p.queue, func(q *waiter) bool { return q == wt })
	}
	return fmt.Errorf("transformation not started: %w", context.Cause(ctx))
}

// release ends a run's hold and lets the next one in.
func (p *Pool) release(tenant string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy--
	p.active[tenant]--
	if p.active[tenant] == 0 {
		delete(p.active, tenant)
	}
	p.grantLocked()
}

// grantLocked lets waiting runs in, oldest first, skipping those whose
// tenant is at its cap, while workers are free. Called with p.mu held.
func (p *Pool) grantLocked() {
	for i := 0; i < len(p.queue) && p.busy < p.cfg.Workers; {
		wt := p.queue[i]
		if p.active[wt.tenant] >= p.cfg.PerTenant {
			i++
			continue
		}
		p.queue = slices.Delete(p.queue, i, i+1)
		p.busy++
		p.active[wt.tenant]++
		close(wt.ready)
	}
}

// worker returns an idle worker, or starts one.
func (p *Pool) worker() (*worker, error) {
	p.mu.Lock()
	for len(p.idle) > 0 {
		w := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if w.alive() {
			p.warmLocked()
			p.mu.Unlock()
			return w, nil
		}
		delete(p.live, w)
		w.close()
	}
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return nil, ErrUnavailable
	}
	w, err := p.spawn()
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		w.close()
		return nil, ErrUnavailable
	}
	p.live[w] = struct{}{}
	p.warmLocked()
	return w, nil
}

// spawn starts a worker process.
func (p *Pool) spawn() (*worker, error) {
	if os.Getenv(EnvWorker) != "" {
		// A worker's executable running pool code would start workers
		// of workers: refuse.
		return nil, fmt.Errorf("%w: a transformation worker may not start workers", ErrUnavailable)
	}
	cfg := workerConfig{Transform: p.cfg.Transform, Memory: p.cfg.Memory, CPU: p.cfg.CPU}
	w, err := start(p.cfg.Executable, cfg, p.cfg.StartTimeout)
	if err != nil {
		p.log.Error("transformation worker did not start", "err", err)
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return w, nil
}

// warmLocked starts a spare worker in the background when none is idle
// and the pool has room, so that the next run (a bystander's, after a
// hog's workers were killed) does not wait for a process to start.
// Called with p.mu held.
func (p *Pool) warmLocked() {
	if p.closed || p.warming || len(p.idle) > 0 || len(p.live) >= p.cfg.Workers {
		return
	}
	p.warming = true
	go func() {
		w, err := p.spawn()
		p.mu.Lock()
		defer p.mu.Unlock()
		p.warming = false
		if err != nil {
			return
		}
		if p.closed || len(p.live) >= p.cfg.Workers {
			w.close()
			return
		}
		p.live[w] = struct{}{}
		p.idle = append(p.idle, w)
	}()
}

// put makes w idle again, or retires it once it has used half of its CPU
// limit (before the kernel would kill it in the middle of a run).
func (p *Pool) put(w *worker) {
	if w.cpu > p.cfg.CPU/2 {
		p.discard(w)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.live) > p.cfg.Workers {
		// Closed, or one too many: a run started its own worker while
		// the spare was starting.
		delete(p.live, w)
		w.close()
		return
	}
	p.idle = append(p.idle, w)
}

// discard ends w for good, and warms a spare in its place.
func (p *Pool) discard(w *worker) {
	w.close()
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.live, w)
	p.warmLocked()
}
