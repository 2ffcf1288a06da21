package routing

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func sampleWebhook() Webhook {
	return Webhook{
		Event: Event{ID: "9f0c4c9e-8c4e-4c1c-9e52-0d6f9f1d2a10", Type: "invoice.paid",
			CreatedAt: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC),
			Data:      json.RawMessage(`{"amount":1500,"currency":"EUR","customer":"Acme"}`)},
		Payload: []byte(`{"id":"9f0c4c9e-8c4e-4c1c-9e52-0d6f9f1d2a10","type":"invoice.paid","created_at":"2026-11-23T10:00:00.000Z","data":{"amount":1500,"currency":"EUR","customer":"Acme"}}`),
		Headers: map[string]string{"X-Team": "billing"},
	}
}

func TestTransformerRun(t *testing.T) {
	t.Parallel()
	// A generous time limit: on a loaded machine, a 50 ms wall clock
	// would turn any case into a timeout (the time limit itself is the
	// "infinite loop" case and TestTransformerTimeoutIsolated). A
	// generous heap bound too: the watchdog measures the whole process,
	// and the tests running beside this one allocate (the heap bound is
	// TestTransformerMemoryBound's, run alone; the giant strings here hit
	// the per-builtin string bound).
	tr := NewTransformer(TransformConfig{Timeout: 2 * time.Second, MaxOutput: 64 << 10, MaxMemory: 512 << 20})
	tests := []struct {
		name      string
		src       string
		payload   string
		headers   map[string]string
		cancelled bool
		err       error
		msg       string
	}{
		{name: "identity", src: `function handler(w) { return w }`,
			payload: string(sampleWebhook().Payload), headers: map[string]string{"X-Team": "billing"}},
		{name: "slack reshape", src: `function handler(webhook) {
			const d = webhook.event.data;
			webhook.payload = {text: "Invoice paid: " + d.amount + " " + d.currency + " by " + d.customer};
			return webhook;
		}`, payload: `{"text":"Invoice paid: 1500 EUR by Acme"}`, headers: map[string]string{"X-Team": "billing"}},
		{name: "mutate without return", src: `function handler(w) { w.payload = [1, "two", null]; }`,
			payload: `[1,"two",null]`, headers: map[string]string{"X-Team": "billing"}},
		{name: "headers changed and removed", src: `function handler(w) {
			w.headers["x-slack-channel"] = "#billing"; delete w.headers["X-Team"]; return w }`,
			payload: string(sampleWebhook().Payload), headers: map[string]string{"X-Slack-Channel": "#billing"}},
		{name: "new object returned", src: `function handler(w) { return {payload: "plain", headers: {}} }`,
			payload: `"plain"`, headers: map[string]string{}},
		{name: "cancel", src: `function handler(w) { if (w.event.data.amount > 1000) w.cancel = true; return w }`, cancelled: true},
		{name: "throw", src: `function handler(w) {
  throw new Error("no customer");
}`, err: ErrTransformFailed, msg: "no customer"},
		{name: "type error with position", src: "function handler(w) {\n  return w.nothing.deeper;\n}", err: ErrTransformFailed, msg: "transformation.js:2"},
		{name: "signature header", src: `function handler(w) { w.headers["webhook-signature"] = "v1,forged"; return w }`,
			err: ErrTransformFailed, msg: "set by Ferry"},
		{name: "content-length header", src: `function handler(w) { w.headers["Content-Length"] = "1"; return w }`,
			err: ErrTransformFailed, msg: "set by Ferry"},
		{name: "non-string header", src: `function handler(w) { w.headers["X-N"] = 3; return w }`, err: ErrTransformFailed, msg: "must be a string"},
		{name: "payload undefined", src: `function handler(w) { w.payload = undefined; return w }`, err: ErrTransformFailed, msg: "JSON value"},
		{name: "no handler", src: `function other(w) { return w }`, err: ErrInvalidTransformation, msg: "handler"},
		{name: "syntax error", src: "function handler(w) {\n  return w +;\n}", err: ErrInvalidTransformation, msg: "Line 2:"},
		{name: "infinite loop", src: `function handler(w) { for (;;) { if (w.event.data.amount < 0) break } }`, err: ErrTransformTimeout},
		{name: "infinite recursion", src: `function handler(w) { return handler(w) }`, err: ErrTransformFailed, msg: "call stack"},
		{name: "giant repeat", src: `function handler(w) { w.payload = "x".repeat(1e9); return w }`, err: ErrTransformMemory},
		{name: "giant pad", src: `function handler(w) { w.payload = "".padStart(2e9, "x"); return w }`, err: ErrTransformMemory},
		{name: "no timers", src: `function handler(w) { setTimeout(function(){}, 1); return w }`, err: ErrTransformFailed, msg: "setTimeout"},
		{name: "no buffers", src: `function handler(w) { new ArrayBuffer(1e9); return w }`, err: ErrTransformFailed, msg: "ArrayBuffer"},
		{name: "oversized output", src: `function handler(w) { w.payload = "x".repeat(100000); return w }`, err: ErrTransformFailed, msg: "limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tr.Run(context.Background(), Source{Code: tt.src}, sampleWebhook())
			if tt.err != nil {
				if !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.msg) {
					t.Fatalf("err = %v; want %v containing %q", err, tt.err, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.Cancelled != tt.cancelled {
				t.Fatalf("cancelled = %v; want %v", res.Cancelled, tt.cancelled)
			}
			if tt.cancelled {
				return
			}
			if string(res.Payload) != tt.payload {
				t.Errorf("payload = %s; want %s", res.Payload, tt.payload)
			}
			if len(res.Headers) != len(tt.headers) {
				t.Errorf("headers = %v; want %v", res.Headers, tt.headers)
			}
			for k, v := range tt.headers {
				if res.Headers[k] != v {
					t.Errorf("headers = %v; want %v", res.Headers, tt.headers)
				}
			}
		})
	}
}

// TestTransformerNoSharedState: a global set by one run is not seen by
// the next.
func TestTransformerNoSharedState(t *testing.T) {
	t.Parallel()
	tr := NewTransformer(TransformConfig{})
	src := `var n = (typeof n === "number") ? n + 1 : 1;
		function handler(w) { globalThis.seen = (globalThis.seen || 0) + 1; w.payload = {n: n, seen: seen}; return w }`
	for range 3 {
		res, err := tr.Run(context.Background(), Source{Code: src}, sampleWebhook())
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Payload) != `{"n":1,"seen":1}` {
			t.Fatalf("payload = %s; state leaked between runs", res.Payload)
		}
	}
}

// TestTransformerTimeoutIsolated: transformations that loop forever, as
// many as there are CPUs, are stopped once they used their 50 ms (of CPU
// time, on Linux: about 50 ms of wall clock on an idle machine, longer on
// a loaded one, never more than the wall-clock backstop plus slack),
// while transformations started meanwhile in the same process succeed.
func TestTransformerTimeoutIsolated(t *testing.T) {
	t.Parallel()
	tr := NewTransformer(TransformConfig{})
	// Slack for a shared, loaded machine (load averages of 15-20 on 2
	// CPUs were seen while this was written).
	const slack = 300 * time.Millisecond
	var wg sync.WaitGroup
	loopers := runtime.GOMAXPROCS(0)
	loopErrs := make(chan error, loopers)
	for range loopers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			_, err := tr.Run(context.Background(), Source{Code: `function handler(w) { while (true) {} }`}, sampleWebhook())
			took := time.Since(start)
			if took > DefaultTransformWallTimeout+slack {
				err = errors.Join(err, errors.New("loop ran "+took.String()))
			}
			t.Logf("loop stopped after %s of wall clock: %v", took, err)
			loopErrs <- err
		}()
	}
	for range 50 {
		start := time.Now()
		res, err := tr.Run(context.Background(), Source{Code: `function handler(w) { w.payload = {ok: true}; return w }`}, sampleWebhook())
		if err != nil || string(res.Payload) != `{"ok":true}` {
			t.Fatalf("bystander: %s, %v", res.Payload, err)
		}
		if took := time.Since(start); took > DefaultTransformWallTimeout+slack {
			t.Fatalf("bystander took %s", took)
		}
	}
	wg.Wait()
	close(loopErrs)
	for err := range loopErrs {
		if !errors.Is(err, ErrTransformTimeout) || strings.Contains(err.Error(), "loop ran") {
			t.Errorf("loop: %v", err)
		}
	}
}

// TestTransformerMemoryBound: a script that allocates without end is
// stopped before the heap grows much past the bound.
func TestTransformerMemoryBound(t *testing.T) {
	const bound = 32 << 20
	tr := NewTransformer(TransformConfig{MaxMemory: bound, Timeout: 5 * time.Second})
	runtime.GC()
	before := heapBytes()
	var peak uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			default:
			}
			peak = max(peak, heapBytes())
			time.Sleep(200 * time.Microsecond)
		}
	}()
	start := time.Now()
	// Concatenation copies 1 MB a step, far faster than repeat builds one.
	const hog = `function handler(w) { let a = [], s = 'x'.repeat(1e6); while (true) a.push(s + a.length); }`
	_, err := tr.Run(context.Background(), Source{Code: hog}, sampleWebhook())
	close(stop)
	<-sampled
	if !errors.Is(err, ErrTransformMemory) {
		t.Fatalf("err = %v; want memory limit", err)
	}
	// The bound, plus what the script allocates between two samples and
	// what the rest of the test process does meanwhile.
	if grew := peak - before; peak > before && grew > bound+24<<20 {
		t.Errorf("heap grew by %d MiB; bound %d MiB", grew>>20, bound>>20)
	}
	t.Logf("stopped after %s; heap peak %d MiB over the start", time.Since(start), (peak-before)>>20)
	// Its next run is stopped the same way.
	start = time.Now()
	if _, err := tr.Run(context.Background(), Source{Code: hog}, sampleWebhook()); !errors.Is(err, ErrTransformMemory) {
		t.Fatalf("second run: %v", err)
	}
	t.Logf("second run stopped after %s", time.Since(start))
	// A normal run afterwards is fine.
	if _, err := tr.Run(context.Background(), Source{Code: `function handler(w) { return w }`}, sampleWebhook()); err != nil {
		t.Fatal(err)
	}
}

func TestTransformerCheck(t *testing.T) {
	t.Parallel()
	tr := NewTransformer(TransformConfig{})
	ctx := context.Background()
	if err := tr.Check(ctx, Source{}); err != nil {
		t.Fatal(err)
	}
	if err := tr.Check(ctx, Source{Code: `function handler(w) { return w }`}); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"function handler(w) {", `var handler = 3`, `while (true) {}`, "//" + strings.Repeat("x", MaxTransformationLength)} {
		err := tr.Check(ctx, Source{Code: src})
		if !errors.Is(err, ErrInvalidTransformation) {
			t.Errorf("Check(%.30q) = %v; want invalid", src, err)
		}
	}
}

func BenchmarkTransformerRun(b *testing.B) {
	tr := NewTransformer(TransformConfig{})
	src := `function handler(webhook) {
		const d = webhook.event.data;
		webhook.payload = {text: "Invoice paid: " + d.amount + " " + d.currency};
		return webhook;
	}`
	in := sampleWebhook()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.Run(context.Background(), Source{Code: src}, in); err != nil {
			b.Fatal(err)
		}
	}
}
