package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/internal/proccpu"
)

// EnvWorker is the environment variable that makes a process started by
// the pool a worker; its value is the worker's configuration (JSON).
const EnvWorker = "FERRY_TRANSFORM_WORKER"

// workerConfig is what a worker is started with.
type workerConfig struct {
	Transform routing.TransformConfig `json:"transform"`
	// Memory is the worker's RLIMIT_DATA in bytes.
	Memory uint64 `json:"memory"`
	// CPU is the worker's RLIMIT_CPU.
	CPU time.Duration `json:"cpu"`
}

// MainHook makes this process a transformation worker if the pool
// started it as one: it serves requests until its parent closes stdin,
// then exits. In any other process it returns at once. Call it first
// thing in main, and in TestMain of every test binary that runs
// transformations (the pool starts the running executable as its
// workers):
//
//	func TestMain(m *testing.M) {
//		sandbox.MainHook()
//		os.Exit(m.Run())
//	}
func MainHook() {
	spec, ok := os.LookupEnv(EnvWorker)
	if !ok {
		return
	}
	os.Exit(serveWorker(spec))
}

// serveWorker is a worker's life; it returns the exit code.
func serveWorker(spec string) int {
	var cfg workerConfig
	if err := json.Unmarshal([]byte(spec), &cfg); err != nil {
		fmt.Fprintf(os.Stderr, "transformation worker: bad %s: %v\n", EnvWorker, err)
		return 3
	}
	// The protocol owns stdout; anything else printing goes to stderr.
	in, out := os.Stdin, os.Stdout
	os.Stdout = os.Stderr
	if err := applyLimits(cfg); err != nil {
		fmt.Fprintf(os.Stderr, "transformation worker: limits: %v\n", err)
		return 3
	}
	if cfg.Memory > 0 {
		// Collect harder as the heap nears the limit, so that only a run
		// that really holds that much dies of it.
		debug.SetMemoryLimit(int64(cfg.Memory / 2))
	}
	tr := routing.NewTransformer(cfg.Transform)
	r, w := bufio.NewReaderSize(in, 64<<10), bufio.NewWriterSize(out, 64<<10)
	if err := writeFrame(w, hello{Ready: true, PID: os.Getpid()}); err != nil {
		return 4
	}
	for {
		var req request
		if err := readFrame(r, &req); err != nil {
			if errors.Is(err, io.EOF) {
				return 0 // the pool closed us
			}
			fmt.Fprintf(os.Stderr, "transformation worker: %v\n", err)
			return 4
		}
		res := handle(tr, req)
		res.CPU = proccpu.Self()
		if err := writeFrame(w, res); err != nil {
			fmt.Fprintf(os.Stderr, "transformation worker: %v\n", err)
			return 4
		}
	}
}

// handle serves one request.
func handle(tr *routing.Transformer, req request) response {
	ctx := context.Background()
	var res routing.TransformResult
	var err error
	switch {
	case req.Op == opCheck:
		err = tr.Check(ctx, req.Source)
	case req.Op == opRun && req.Webhook != nil:
		res, err = tr.Run(ctx, req.Source, *req.Webhook)
	default:
		err = &routing.TransformError{Kind: routing.ErrTransformFailed, Message: "transformation worker: unknown request " + req.Op}
	}
	if err != nil {
		var te *routing.TransformError
		if !errors.As(err, &te) {
			te = &routing.TransformError{Kind: routing.ErrTransformFailed, Message: err.Error()}
		}
		return response{ErrKind: kindName(te.Kind), ErrMsg: te.Message}
	}
	return response{Result: res}
}
