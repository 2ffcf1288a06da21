package routing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// Transformation limits and defaults (docs/contract.md#transformations).
const (
	// MaxTransformationLength bounds the source text of a transformation.
	MaxTransformationLength = 64 << 10
	// DefaultTransformTimeout is the time limit of one run: CPU time of
	// the run's thread where the OS can tell (Linux), else wall clock.
	DefaultTransformTimeout = 50 * time.Millisecond
	// DefaultTransformWallTimeout is the wall-clock backstop when the
	// limit is CPU time: a run starved of CPU by a loaded machine is not
	// failed for it, yet none lasts longer than this.
	DefaultTransformWallTimeout = 500 * time.Millisecond
	// DefaultTransformMemory is how far the Go heap may grow during a
	// run before the run is stopped.
	DefaultTransformMemory = 32 << 20
	// DefaultMaxTransformOutput bounds the transformed payload, as JSON.
	DefaultMaxTransformOutput = 1 << 20
	// DefaultMaxStringBytes bounds one string made by a single builtin
	// call (String.prototype.repeat, padStart, padEnd): such a call
	// allocates its whole result at once, before any watchdog could look.
	DefaultMaxStringBytes = 4 << 20
	// maxTransformHeaders and maxTransformHeaderValue match the limits
	// of an endpoint's own custom headers.
	maxTransformHeaders     = 20
	maxTransformHeaderValue = 1000
	// maxCallStack bounds JavaScript recursion (goja keeps its stack on
	// the heap, so unbounded recursion is a memory problem too).
	maxCallStack = 1000
	// transformFile names the script in error positions.
	transformFile = "transformation.js"
)

// Errors a transformation fails with. Every one is wrapped in a
// *TransformError carrying the message to show the tenant.
var (
	// ErrInvalidTransformation: the source does not compile, or does not
	// define function handler.
	ErrInvalidTransformation = errors.New("invalid transformation")
	// ErrTransformFailed: the handler threw, or returned something Ferry
	// cannot send (a payload that is not JSON, a reserved header).
	ErrTransformFailed = errors.New("transformation failed")
	// ErrTransformTimeout: the run went over its time limit.
	ErrTransformTimeout = errors.New("transformation timed out")
	// ErrTransformMemory: the heap grew past the memory bound during the
	// run, or a builtin was asked for an oversized string.
	ErrTransformMemory = errors.New("transformation memory limit")
)

// TransformError is why a transformation did not give a result. Message
// is meant for the tenant (goja's message with line and column where it
// has them).
type TransformError struct {
	Kind    error // one of the Err* sentinels above
	Message string
}

// Error implements error.
func (e *TransformError) Error() string { return e.Message }

// Unwrap makes errors.Is(err, ErrTransformTimeout) etc. hold.
func (e *TransformError) Unwrap() error { return e.Kind }

func transformErr(kind error, format string, args ...any) *TransformError {
	return &TransformError{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// TransformConfig tunes a Transformer; zero fields take the defaults.
type TransformConfig struct {
	// Timeout is the time limit of one run (DefaultTransformTimeout): CPU
	// time on Linux, wall clock elsewhere.
	Timeout time.Duration
	// WallTimeout is the wall-clock backstop where Timeout is CPU time
	// (DefaultTransformWallTimeout; never below Timeout).
	WallTimeout time.Duration
	// MaxMemory is how far the process heap may grow during one run
	// (DefaultTransformMemory).
	MaxMemory uint64
	// MaxOutput bounds the transformed payload in bytes of JSON
	// (DefaultMaxTransformOutput).
	MaxOutput int
	// MaxString bounds a string made by one builtin call
	// (DefaultMaxStringBytes).
	MaxString int
	// SampleEvery is how often the memory watchdog reads the heap while
	// runs are in progress (default 1 ms).
	SampleEvery time.Duration
	// CacheBytes bounds the estimated size of the compiled programs kept
	// (DefaultCacheBytes).
	CacheBytes int64
	// TenantCacheBytes bounds it per owner (DefaultTenantCacheBytes).
	TenantCacheBytes int64
}

// Source is a transformation to compile and run, with its owner.
type Source struct {
	// Tenant owns the code; its compiled program counts against the
	// tenant's share of the cache.
	Tenant string
	// Code is the JavaScript source.
	Code string
	// Unsaved is code being tried (test-routing's editor): compiled, run
	// once and dropped, never cached.
	Unsaved bool
}

// Webhook is what a handler receives: the event, the payload Ferry would
// send (the envelope) and the endpoint's custom headers.
type Webhook struct {
	Event   Event
	Payload []byte
	Headers map[string]string
}

// TransformResult is what a handler made of a Webhook.
type TransformResult struct {
	// Payload is the body to send, compact JSON.
	Payload []byte
	// Headers are the custom headers to send, canonical names.
	Headers map[string]string
	// Cancelled: the handler set cancel; nothing is to be sent.
	Cancelled bool
}

// Transformer compiles, caches and runs JavaScript transformations in
// goja, in this process. Every run gets a fresh runtime: nothing one run
// leaves behind is seen by another. The runtime has no network, no timers
// and no filesystem (goja offers none unless given them). It is safe for
// concurrent use, but its bounds are cooperative: goja checks for an
// interrupt only between instructions, so a loop inside a builtin or a
// backtracking regular expression is not stopped by them, and the memory
// bound is on the growth of the whole process's heap. Ferry therefore
// runs a Transformer only inside a sandbox worker process, one run at a
// time (package sandbox), which is killed when a run outlives its
// deadline.
type Transformer struct {
	cfg   TransformConfig
	cache *transformCache
	watch *watchdog
}

// NewTransformer returns a Transformer with cfg's defaults filled in.
func NewTransformer(cfg TransformConfig) *Transformer {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTransformTimeout
	}
	if cfg.WallTimeout <= 0 {
		cfg.WallTimeout = DefaultTransformWallTimeout
	}
	cfg.WallTimeout = max(cfg.WallTimeout, cfg.Timeout)
	if cfg.MaxMemory == 0 {
		cfg.MaxMemory = DefaultTransformMemory
	}
	if cfg.MaxOutput <= 0 {
		cfg.MaxOutput = DefaultMaxTransformOutput
	}
	if cfg.MaxString <= 0 {
		cfg.MaxString = DefaultMaxStringBytes
	}
	if cfg.SampleEvery <= 0 {
		cfg.SampleEvery = time.Millisecond
	}
	if cfg.CacheBytes <= 0 {
		cfg.CacheBytes = DefaultCacheBytes
	}
	if cfg.TenantCacheBytes <= 0 {
		cfg.TenantCacheBytes = DefaultTenantCacheBytes
	}
	return &Transformer{cfg: cfg, cache: newTransformCache(cfg.CacheBytes, cfg.TenantCacheBytes),
		watch: newWatchdog(cfg.MaxMemory, cfg.SampleEvery)}
}

// Config returns t's configuration with the defaults filled in.
func (t *Transformer) Config() TransformConfig { return t.cfg }

// Check compiles s and runs its top level (under the usual limits) to
// make sure it defines function handler; an empty transformation is
// valid. Errors: a *TransformError wrapping ErrInvalidTransformation with
// goja's message and position.
func (t *Transformer) Check(ctx context.Context, s Source) error {
	if strings.TrimSpace(s.Code) == "" {
		return nil
	}
	prg, err := t.program(s)
	if err != nil {
		return err
	}
	_, err = t.runOnce(ctx, prg, nil)
	return AsInvalid(err)
}

// AsInvalid turns the error of a transformation's top level, run to check
// it, into ErrInvalidTransformation (a top level that loops or throws is
// an invalid transformation, not a failed delivery); other errors pass.
func AsInvalid(err error) error {
	var te *TransformError
	if errors.As(err, &te) && te.Kind != ErrInvalidTransformation {
		return transformErr(ErrInvalidTransformation, "%s", te.Message)
	}
	return err
}

// Run runs the transformation s on in. Errors: a *TransformError
// wrapping one of ErrInvalidTransformation, ErrTransformFailed,
// ErrTransformTimeout or ErrTransformMemory.
//
// The memory bound is process-wide (Go has no per-goroutine allocation
// count): a run is stopped when the heap has grown by more than
// MaxMemory since it started, which is only the run's own doing when it
// is the process's only run, as in a sandbox worker.
func (t *Transformer) Run(ctx context.Context, s Source, in Webhook) (TransformResult, error) {
	prg, err := t.program(s)
	if err != nil {
		return TransformResult{}, err
	}
	return t.runOnce(ctx, prg, &in)
}

// program returns the compiled program of s, compiling it on first use
// (every use, if it is unsaved); a program is shared by every runtime
// that runs it.
func (t *Transformer) program(s Source) (*goja.Program, error) {
	return t.cache.get(s, compileTransformation)
}

func compileTransformation(src string) (*goja.Program, error) {
	if len(src) > MaxTransformationLength {
		return nil, transformErr(ErrInvalidTransformation, "transformation must be at most %d KiB", MaxTransformationLength>>10)
	}
	if !utf8.ValidString(src) {
		return nil, transformErr(ErrInvalidTransformation, "transformation must be valid UTF-8")
	}
	prg, err := goja.Compile(transformFile, src, false)
	if err != nil {
		return nil, transformErr(ErrInvalidTransformation, "%s", err.Error())
	}
	return prg, nil
}

// interruption is the value a run is interrupted with.
type interruption struct{ err *TransformError }

// interrupter lets the timer, the context and the watchdog stop a run
// without holding on to its runtime: a stopped timer may linger in the
// Go runtime's timer heap for a while, and through its func would keep
// everything the script allocated alive.
type interrupter struct {
	mu sync.Mutex
	vm *goja.Runtime
}

func (i *interrupter) interrupt(err *TransformError) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.vm != nil {
		i.vm.Interrupt(interruption{err})
	}
}

func (i *interrupter) release() {
	i.mu.Lock()
	i.vm = nil
	i.mu.Unlock()
}

// runOnce runs prg in a fresh runtime: its top level, then (unless in is
// nil, for Check) handler(webhook).
func (t *Transformer) runOnce(ctx context.Context, prg *goja.Program, in *Webhook) (res TransformResult, err error) {
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallStack)
	it := &interrupter{vm: vm}
	defer it.release()
	// The time limit is the CPU time of this run's thread where it can be
	// read: a wall clock would fail innocent runs whenever the machine is
	// busy, and a failed run is final. The watchdog reads the clock; a
	// wall-clock timer backstops it.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock, cpuLimited := currentThreadClock()
	wall := t.cfg.Timeout
	var cpu *cpuLimit
	if cpuLimited {
		if start, ok := clock.used(); ok {
			wall = t.cfg.WallTimeout
			cpu = &cpuLimit{clock: clock, start: start, limit: t.cfg.Timeout,
				stop: func() {
					it.interrupt(transformErr(ErrTransformTimeout, "transformation ran longer than %s", t.cfg.Timeout))
				}}
		}
	}
	timeout := transformErr(ErrTransformTimeout, "transformation ran longer than %s", wall)
	if cpu != nil {
		timeout = transformErr(ErrTransformTimeout, "transformation ran longer than %s (wall clock; it got too little CPU)", wall)
	}
	timer := time.AfterFunc(wall, func() { it.interrupt(timeout) })
	defer timer.Stop()
	stopCtx := context.AfterFunc(ctx, func() {
		it.interrupt(transformErr(ErrTransformTimeout, "transformation stopped: %v", ctx.Err()))
	})
	defer stopCtx()
	memory := transformErr(ErrTransformMemory, "transformation used more than %d MiB of memory", t.cfg.MaxMemory>>20)
	done := t.watch.add(func() { it.interrupt(memory) }, cpu)
	defer done()
	defer func() {
		// goja turns Go panics of builtins into exceptions; anything else
		// reaching here is a bug of the engine, and must not crash the
		// process that ingests every tenant's events.
		if r := recover(); r != nil {
			err = transformErr(ErrTransformFailed, "transformation crashed the engine: %v", r)
		}
	}()

	if err := t.harden(vm); err != nil {
		return TransformResult{}, transformErr(ErrTransformFailed, "prepare runtime: %v", err)
	}
	if _, err := vm.RunProgram(prg); err != nil {
		return TransformResult{}, jsError(err)
	}
	handler, ok := goja.AssertFunction(vm.Get("handler"))
	if !ok {
		return TransformResult{}, transformErr(ErrInvalidTransformation, "transformation must define function handler(webhook)")
	}
	if in == nil {
		return TransformResult{}, nil
	}
	webhook, err := t.webhookValue(vm, in)
	if err != nil {
		return TransformResult{}, jsError(err)
	}
	ret, err := handler(goja.Undefined(), webhook)
	if err != nil {
		return TransformResult{}, jsError(err)
	}
	out := webhook
	if o, ok := ret.(*goja.Object); ok {
		out = o // a handler may return a new object instead of changing its argument
	}
	res, err = t.result(vm, out)
	if err != nil {
		return TransformResult{}, jsError(err)
	}
	return res, nil
}

// harden takes out of vm what could allocate a great deal in one call,
// out of the watchdog's reach: binary buffers go, and the string builtins
// that size their result from an argument refuse oversized results.
func (t *Transformer) harden(vm *goja.Runtime) error {
	global := vm.GlobalObject()
	for _, name := range []string{"ArrayBuffer", "SharedArrayBuffer", "DataView", "Int8Array", "Uint8Array",
		"Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array",
		"Float64Array", "BigInt64Array", "BigUint64Array", "WeakRef", "FinalizationRegistry"} {
		if err := global.Delete(name); err != nil {
			return err
		}
	}
	proto := vm.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
	maxLen := int64(t.cfg.MaxString)
	guard := func(name string, length func(s int64, call goja.FunctionCall) int64) error {
		orig, ok := goja.AssertFunction(proto.Get(name))
		if !ok {
			return fmt.Errorf("String.prototype.%s is not a function", name)
		}
		return proto.Set(name, func(call goja.FunctionCall) goja.Value {
			s := int64(len(call.This.String()))
			if n := length(s, call); n > maxLen {
				panic(vm.NewGoError(transformErr(ErrTransformMemory,
					"String.prototype.%s: result of %d bytes is over the %d-byte limit", name, n, maxLen)))
			}
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		})
	}
	count := func(s int64, call goja.FunctionCall) int64 {
		n := call.Argument(0).ToFloat()
		if n != n || n <= 0 || s == 0 {
			return 0
		}
		if n*float64(s) > float64(maxLen) {
			return maxLen + 1
		}
		return int64(n) * s
	}
	pad := func(_ int64, call goja.FunctionCall) int64 {
		n := call.Argument(0).ToFloat()
		if n != n || n <= 0 {
			return 0
		}
		if n > float64(maxLen) {
			return maxLen + 1
		}
		return int64(n)
	}
	if err := guard("repeat", count); err != nil {
		return err
	}
	if err := guard("padStart", pad); err != nil {
		return err
	}
	return guard("padEnd", pad)
}

// webhookValue builds the handler's argument in vm. JSON values are
// parsed by the runtime's own JSON.parse, so the handler sees plain
// JavaScript objects and arrays, not wrapped Go values.
func (t *Transformer) webhookValue(vm *goja.Runtime, in *Webhook) (*goja.Object, error) {
	parse, ok := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	if !ok {
		return nil, errors.New("JSON.parse is not a function")
	}
	fromJSON := func(b []byte) (goja.Value, error) {
		if len(b) == 0 {
			return goja.Null(), nil
		}
		return parse(goja.Undefined(), vm.ToValue(string(b)))
	}
	data, err := fromJSON(in.Event.Data)
	if err != nil {
		return nil, fmt.Errorf("event data: %w", err)
	}
	payload, err := fromJSON(in.Payload)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	event := vm.NewObject()
	headers := vm.NewObject()
	webhook := vm.NewObject()
	for _, set := range []func() error{
		func() error { return event.Set("id", in.Event.ID) },
		func() error { return event.Set("type", in.Event.Type) },
		func() error {
			return event.Set("created_at", in.Event.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z"))
		},
		func() error { return event.Set("data", data) },
		func() error { return webhook.Set("event", event) },
		func() error { return webhook.Set("payload", payload) },
		func() error { return webhook.Set("headers", headers) },
		func() error { return webhook.Set("cancel", false) },
	} {
		if err := set(); err != nil {
			return nil, err
		}
	}
	for k, v := range in.Headers {
		if err := headers.Set(k, v); err != nil {
			return nil, err
		}
	}
	return webhook, nil
}

// result reads what the handler left in out.
func (t *Transformer) result(vm *goja.Runtime, out *goja.Object) (TransformResult, error) {
	if c := out.Get("cancel"); c != nil && c.ToBoolean() {
		return TransformResult{Cancelled: true}, nil
	}
	stringify, ok := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	if !ok {
		return TransformResult{}, errors.New("JSON.stringify is not a function")
	}
	payload := out.Get("payload")
	if payload == nil {
		payload = goja.Undefined()
	}
	js, err := stringify(goja.Undefined(), payload)
	if err != nil {
		return TransformResult{}, err
	}
	if goja.IsUndefined(js) {
		return TransformResult{}, transformErr(ErrTransformFailed, "webhook.payload must be a JSON value, not %s", typeOf(payload))
	}
	body := js.String()
	if len(body) > t.cfg.MaxOutput {
		return TransformResult{}, transformErr(ErrTransformFailed, "transformed payload is %d bytes, over the %d-byte limit", len(body), t.cfg.MaxOutput)
	}
	if !utf8.ValidString(body) {
		return TransformResult{}, transformErr(ErrTransformFailed, "transformed payload is not valid UTF-8 (a lone surrogate?)")
	}
	headers, err := resultHeaders(vm, out.Get("headers"))
	if err != nil {
		return TransformResult{}, err
	}
	return TransformResult{Payload: []byte(body), Headers: headers}, nil
}

var headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$")

// hopByHop are connection-level headers (RFC 9110 §7.6.1) plus those the
// HTTP client derives from the request; a transformation may not set them.
var hopByHop = map[string]bool{
	"Connection": true, "Keep-Alive": true, "Proxy-Connection": true, "Te": true, "Trailer": true,
	"Transfer-Encoding": true, "Upgrade": true, "Content-Length": true, "Host": true, "Content-Type": true,
	"User-Agent": true, "Proxy-Authorization": true, "Proxy-Authenticate": true,
}

// ReservedHeader reports whether a transformation (or an endpoint's
// custom headers) may not set the header: Ferry's webhook-* signature
// headers and the hop-by-hop and framing headers.
func ReservedHeader(name string) bool {
	canon := http.CanonicalHeaderKey(name)
	return strings.HasPrefix(canon, "Webhook-") || canon == "X-Webhook-Id" || hopByHop[canon]
}

func resultHeaders(vm *goja.Runtime, v goja.Value) (map[string]string, error) {
	out := map[string]string{}
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return out, nil
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		return nil, transformErr(ErrTransformFailed, "webhook.headers must be an object of strings")
	}
	for _, k := range obj.Keys() {
		hv := obj.Get(k)
		if hv == nil || goja.IsUndefined(hv) || goja.IsNull(hv) {
			continue // removed
		}
		if !headerName.MatchString(k) {
			return nil, transformErr(ErrTransformFailed, "header name %q is not a valid HTTP header name", k)
		}
		if ReservedHeader(k) {
			return nil, transformErr(ErrTransformFailed, "header %q is set by Ferry and cannot be set by a transformation", k)
		}
		s, ok := hv.Export().(string)
		if !ok {
			return nil, transformErr(ErrTransformFailed, "header %q must be a string, not %s", k, typeOf(hv))
		}
		if len(s) > maxTransformHeaderValue || strings.ContainsAny(s, "\r\n\x00") || !utf8.ValidString(s) {
			return nil, transformErr(ErrTransformFailed, "header %q has an invalid value (at most %d bytes, no line breaks)", k, maxTransformHeaderValue)
		}
		out[http.CanonicalHeaderKey(k)] = s
	}
	if len(out) > maxTransformHeaders {
		return nil, transformErr(ErrTransformFailed, "at most %d headers", maxTransformHeaders)
	}
	return out, nil
}

func typeOf(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if _, ok := goja.AssertFunction(v); ok {
		return "a function"
	}
	return v.ExportType().String()
}

// jsError turns what goja returned into a *TransformError.
func jsError(err error) error {
	var te *TransformError
	if errors.As(err, &te) {
		return te
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if in, ok := ie.Value().(interruption); ok {
			return in.err
		}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return transformErr(ErrTransformFailed, "maximum call stack size exceeded")
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		if goErr, ok := ex.Value().Export().(error); ok && errors.As(goErr, &te) {
			return te
		}
		return transformErr(ErrTransformFailed, "%s", strings.TrimSpace(ex.Error()))
	}
	return transformErr(ErrTransformFailed, "%s", err.Error())
}
