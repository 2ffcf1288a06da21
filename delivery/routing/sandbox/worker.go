package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ferry-dev/ferry/delivery/routing"
)

// worker is the parent's handle on one worker process.
type worker struct {
	cmd    *exec.Cmd
	pid    int
	reqW   *os.File // the worker's stdin
	respR  *os.File // the worker's stdout
	w      *bufio.Writer
	r      *bufio.Reader
	stderr *tail
	exited chan struct{} // closed once the process is reaped
	// cpu is the worker's CPU time as of its last answer.
	cpu time.Duration
	// memory is the worker's RLIMIT_DATA in bytes.
	memory int64
}

// start starts a worker process from exe with cfg and waits for it to
// say it is ready (at most within timeout).
func start(exe string, cfg workerConfig, timeout time.Duration) (*worker, error) {
	spec, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("encode worker config: %w", err)
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("worker pipe: %w", err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("worker pipe: %w", err)
	}
	// The argument is ignored by a program that calls MainHook first; a
	// test binary that forgot to runs no test and exits, failing the
	// handshake at once instead of running its tests in a worker's place.
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(workerEnv(os.Environ()), EnvWorker+"="+string(spec))
	cmd.Stdin, cmd.Stdout = reqR, respW
	st := &tail{}
	cmd.Stderr = st
	cmd.SysProcAttr = workerAttr()
	if err := cmd.Start(); err != nil {
		reqR.Close()
		reqW.Close()
		respR.Close()
		respW.Close()
		return nil, fmt.Errorf("start worker %s: %w", exe, err)
	}
	// The worker holds its ends now; closing ours makes a dead worker's
	// stdout read as EOF.
	reqR.Close()
	respW.Close()
	w := &worker{cmd: cmd, pid: cmd.Process.Pid, reqW: reqW, respR: respR, w: bufio.NewWriterSize(reqW, 64<<10),
		r: bufio.NewReaderSize(respR, 64<<10), stderr: st, exited: make(chan struct{}), memory: int64(cfg.Memory)}
	go func() {
		_ = cmd.Wait()
		close(w.exited)
	}()
	t := time.AfterFunc(timeout, w.kill)
	var h hello
	err = readFrame(w.r, &h)
	if !t.Stop() || err != nil || !h.Ready {
		w.close()
		<-w.exited
		return nil, fmt.Errorf("worker %s did not start (does its main call sandbox.MainHook first?): %v %s",
			exe, err, strings.TrimSpace(st.String()))
	}
	return w, nil
}

// workerEnv is what a worker inherits of env: the Go runtime's settings
// (GOMAXPROCS, GODEBUG, GOCOVERDIR …), nothing else. Ferry's own
// configuration holds its database URL and keys, which a worker has no
// use for and an engine bug could otherwise read.
func workerEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "GO") {
			out = append(out, kv)
		}
	}
	return out
}

// alive reports whether the process has not exited.
func (w *worker) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return true
	}
}

// kill ends the process at once.
func (w *worker) kill() { _ = w.cmd.Process.Kill() }

// close ends the process and releases its pipes; it does not wait.
func (w *worker) close() {
	w.kill()
	w.reqW.Close()
	w.respR.Close()
}

// errNotSent is a call that failed before the worker read its request:
// the worker was gone already, and the request may go to another.
var errNotSent = errors.New("worker gone before the request was sent")

// call sends req and waits for the answer, for at most deadline (or
// until ctx ends): then the worker is killed. A call that returns an
// error other than a *routing.TransformError or errNotSent leaves a dead
// worker, as does any call whose error came from the worker's death. A
// call whose ctx ended returns ctx's cause, not a TransformError: the
// transformation has no outcome to store.
func (w *worker) call(ctx context.Context, req request, deadline time.Duration) (response, error) {
	var killed atomic.Bool
	timer := time.AfterFunc(deadline, func() {
		killed.Store(true)
		w.kill()
	})
	var cancelled atomic.Bool
	stopCtx := context.AfterFunc(ctx, func() {
		cancelled.Store(true)
		w.kill()
	})
	defer stopCtx()
	var res response
	err := writeFrame(w.w, req)
	sent := err == nil
	if sent {
		err = readFrame(w.r, &res)
	}
	timer.Stop()
	if err == nil {
		w.cpu = res.CPU
		if res.ErrKind != "" {
			kind, ok := errKinds[res.ErrKind]
			if !ok {
				kind = routing.ErrTransformFailed
			}
			return res, &routing.TransformError{Kind: kind, Message: res.ErrMsg}
		}
		return res, nil
	}
	// The worker is dead or dying; reap it to learn why.
	w.close()
	<-w.exited
	switch {
	case killed.Load():
		return res, &routing.TransformError{Kind: routing.ErrTransformTimeout,
			Message: fmt.Sprintf("transformation ran longer than %s and was stopped", deadline)}
	case cancelled.Load():
		// The caller gave up: no outcome of the transformation's.
		return res, fmt.Errorf("transformation stopped: %w", context.Cause(ctx))
	case !sent:
		return res, errNotSent
	}
	return res, w.death()
}

// death explains why the worker died during a run, from its exit status
// and the last of its stderr.
func (w *worker) death() error {
	msg := w.stderr.String()
	if killedByLimit(w.cmd.ProcessState) {
		// Nobody here killed it: its CPU limit did (or the OOM killer).
		return &routing.TransformError{Kind: routing.ErrTransformTimeout,
			Message: "transformation was stopped: its process ran out of CPU time"}
	}
	switch {
	case outOfMemory(msg) || nearMemoryLimit(w.cmd.ProcessState, w.memory):
		return &routing.TransformError{Kind: routing.ErrTransformMemory,
			Message: "transformation used more memory than its process may have and was stopped"}
	case strings.Contains(msg, "stack exceeds") || strings.Contains(msg, "stack overflow"):
		return &routing.TransformError{Kind: routing.ErrTransformFailed, Message: "maximum call stack size exceeded"}
	}
	return &routing.TransformError{Kind: routing.ErrTransformFailed,
		Message: "transformation crashed its engine (" + w.cmd.ProcessState.String() + ")"}
}

// tail keeps the first and the last bytes a worker wrote to stderr, to
// explain its death: the Go runtime's fatal error comes first, then the
// goroutines' stacks.
type tail struct {
	mu   sync.Mutex
	head []byte
	last []byte
}

const tailBytes = 2 << 10

// Write implements io.Writer.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := tailBytes - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.last = append(t.last, p...)
	if over := len(t.last) - tailBytes; over > 0 {
		t.last = append(t.last[:0], t.last[over:]...)
	}
	return n, nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.head) + string(t.last)
}

// firstLine is the first non-empty line of s, for a log.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// memoryDeaths are what the Go runtime says when a worker's allocations
// meet its data limit: directly, or while mapping the arena, or as a
// length no allocation can have, or when a new thread's stack no longer
// fits (RLIMIT_DATA counts stacks; a worker has no limit on its
// threads, so pthread_create's EAGAIN is the memory limit; seen under
// CPU pressure, when the runtime starts another thread mid-allocation).
var memoryDeaths = []string{"out of memory", "cannot allocate memory", "cannot map pages", "mmap", "failed to reserve",
	"makeslice: len out of range", "growslice: len out of range", "makeslice: cap out of range",
	"bytes.Buffer: too large", "output length overflow", "pthread_create failed"}

// outOfMemory reports whether a worker's stderr says it ran out of
// memory.
func outOfMemory(stderr string) bool {
	for _, m := range memoryDeaths {
		if strings.Contains(stderr, m) {
			return true
		}
	}
	return false
}
