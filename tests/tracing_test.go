package tests

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/ferry-dev/ferry/internal/tracing"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// otlpSink is an OTLP/HTTP trace receiver: it keeps every span exported
// to it.
type otlpSink struct {
	*httptest.Server
	mu       sync.Mutex
	spans    []*tracepb.Span
	requests int
}

func newOTLPSink(t *testing.T) *otlpSink {
	t.Helper()
	s := &otlpSink{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body = zr
		}
		raw, err := io.ReadAll(body)
		var req coltracepb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(raw, &req)
		}
		if err != nil || r.URL.Path != "/v1/traces" {
			t.Errorf("OTLP sink: %s %s: %v", r.Method, r.URL.Path, err)
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.requests++
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				s.spans = append(s.spans, ss.Spans...)
			}
		}
		s.mu.Unlock()
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *otlpSink) all() ([]*tracepb.Span, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*tracepb.Span(nil), s.spans...), s.requests
}

// spanAttr returns a span's attribute as text ("" when absent).
func spanAttr(sp *tracepb.Span, key string) string {
	for _, kv := range sp.Attributes {
		if kv.Key != key {
			continue
		}
		if _, isInt := kv.Value.GetValue().(*commonpb.AnyValue_IntValue); isInt {
			return strconv.FormatInt(kv.Value.GetIntValue(), 10)
		}
		return kv.Value.GetStringValue()
	}
	return ""
}

// spanIndex finds spans by id and by name.
type spanIndex struct {
	byID map[string]*tracepb.Span
	all  []*tracepb.Span
}

func indexSpans(spans []*tracepb.Span) spanIndex {
	ix := spanIndex{byID: map[string]*tracepb.Span{}, all: spans}
	for _, sp := range spans {
		ix.byID[hex.EncodeToString(sp.SpanId)] = sp
	}
	return ix
}

// find returns the spans named name whose attribute key is value (any
// value when key is "").
func (ix spanIndex) find(name, key, value string) []*tracepb.Span {
	var out []*tracepb.Span
	for _, sp := range ix.all {
		if sp.Name == name && (key == "" || spanAttr(sp, key) == value) {
			out = append(out, sp)
		}
	}
	return out
}

func (ix spanIndex) parent(sp *tracepb.Span) *tracepb.Span {
	return ix.byID[hex.EncodeToString(sp.ParentSpanId)]
}

// requireChild fails unless child's parent is parent.
func requireChild(t *testing.T, parent, child *tracepb.Span) {
	t.Helper()
	if !bytes.Equal(child.ParentSpanId, parent.SpanId) || !bytes.Equal(child.TraceId, parent.TraceId) {
		t.Fatalf("span %q (parent %x) is not a child of %q (%x)", child.Name, child.ParentSpanId, parent.Name, parent.SpanId)
	}
}

func onlySpan(t *testing.T, spans []*tracepb.Span, what string) *tracepb.Span {
	t.Helper()
	if len(spans) != 1 {
		t.Fatalf("%d spans %s, want 1", len(spans), what)
	}
	return spans[0]
}

// TestTracingFollowsAnEventAndACapture runs Ferry exporting to a local
// OTLP receiver and follows one event whose first attempt fails: the
// request, ingest, outbox publish, consumer receipt, both attempts and
// their attempt-log writes are one trace, parent to child; the job
// records in Kafka carry traceparent; the receiver gets no traceparent
// (no endpoint opted in). A capture on an ingest URL makes a trace of
// its own that reaches its delivery.
func TestTracingFollowsAnEventAndACapture(t *testing.T) {
	t.Parallel()
	sink := newOTLPSink(t)
	cfg := testConfig(t)
	cfg.Tracing = tracing.Config{Endpoint: sink.URL + "/v1/traces", BatchTimeout: 50 * time.Millisecond}
	f := startFerry(t, cfg)
	rc := newHookServer(t, func(n int, h hit, w http.ResponseWriter) {
		if n == 1 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	_, api := signUp(t, f, "tracing@example.com")
	ep := createEndpoint(t, api, map[string]any{"url": rc.URL + "/hook?token=s3cret"})
	ev := sendEvent(t, api, "order.created", map[string]any{"n": 1})
	waitStatus(t, api, ev.ID, "succeeded", 60*time.Second)

	var ix spanIndex
	testenv.Eventually(t, 30*time.Second, func() bool {
		spans, _ := sink.all()
		ix = indexSpans(spans)
		return len(ix.find("POST", "ferry.event_id", ev.ID)) == 2 && len(ix.find("record attempt", "", "")) >= 2
	}, "the spans of both attempts and their log writes were not exported")

	ingest := onlySpan(t, ix.find("ingest event", "ferry.event_id", ev.ID), "ingesting the event")
	server := ix.parent(ingest)
	if server == nil || server.Name != "POST /api/v1/events" || server.Kind != tracepb.Span_SPAN_KIND_SERVER ||
		spanAttr(server, "http.response.status_code") != "202" || spanAttr(server, "http.route") != "/api/v1/events" {
		t.Fatalf("ingest's parent = %+v, want the server span of POST /api/v1/events answered 202", server)
	}
	if len(server.ParentSpanId) != 0 {
		t.Errorf("the request's server span has a parent %x; it must start the trace", server.ParentSpanId)
	}
	send := onlySpan(t, ix.find("send deliveries", "ferry.event_id", ev.ID), "publishing the job")
	requireChild(t, ingest, send)
	if send.Kind != tracepb.Span_SPAN_KIND_PRODUCER || spanAttr(send, "messaging.system") != "kafka" {
		t.Errorf("publish span kind %v, messaging.system %q", send.Kind, spanAttr(send, "messaging.system"))
	}
	receive := onlySpan(t, ix.find("receive deliveries", "ferry.event_id", ev.ID), "receiving the job")
	requireChild(t, send, receive)

	attempts := ix.find("POST", "ferry.event_id", ev.ID)
	byNumber := map[string]*tracepb.Span{}
	for _, a := range attempts {
		byNumber[spanAttr(a, "ferry.attempt")] = a
		if a.Kind != tracepb.Span_SPAN_KIND_CLIENT || spanAttr(a, "http.request.method") != "POST" ||
			spanAttr(a, "ferry.endpoint_id") != ep.ID || spanAttr(a, "ferry.delivery_id") == "" {
			t.Errorf("attempt span %+v", a)
		}
		if got, want := spanAttr(a, "url.full"), rc.URL+"/hook?token=REDACTED"; got != want {
			t.Errorf("url.full = %q, want %q (no query secrets)", got, want)
		}
		rec := onlySpan(t, ix.find("record attempt", "ferry.attempt", spanAttr(a, "ferry.attempt")), "logging attempt "+spanAttr(a, "ferry.attempt"))
		requireChild(t, a, rec)
	}
	first, second := byNumber["1"], byNumber["2"]
	if first == nil || second == nil {
		t.Fatalf("attempt spans numbered %v, want 1 and 2", byNumber)
	}
	if spanAttr(first, "http.response.status_code") != "500" || first.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("first attempt: status code %q, span status %v; want 500 and an error", spanAttr(first, "http.response.status_code"), first.Status)
	}
	if spanAttr(second, "http.response.status_code") != "204" || second.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("second attempt: status code %q, span status %v; want 204 and no error", spanAttr(second, "http.response.status_code"), second.Status)
	}
	requireChild(t, receive, first)
	// The retry travels through a retry tier: received there under the
	// first attempt, and attempted under that receipt.
	retryReceipt := ix.parent(second)
	if retryReceipt == nil || retryReceipt.Kind != tracepb.Span_SPAN_KIND_CONSUMER {
		t.Fatalf("second attempt's parent = %+v, want the retry tier's receive span", retryReceipt)
	}
	requireChild(t, first, retryReceipt)
	for _, sp := range ix.all {
		if spanAttr(sp, "ferry.event_id") == ev.ID && !bytes.Equal(sp.TraceId, server.TraceId) {
			t.Errorf("span %q of the event is in trace %x, want %x", sp.Name, sp.TraceId, server.TraceId)
		}
	}
	for _, h := range rc.all() {
		if h.Header.Get("Traceparent") != "" {
			t.Errorf("the receiver got traceparent %q without opting in", h.Header.Get("Traceparent"))
		}
	}
	traced := 0
	for _, m := range readTopic(t, f, "deliveries") {
		for _, h := range m.Headers {
			if h.Key == "traceparent" && bytes.Contains(h.Value, []byte(hex.EncodeToString(server.TraceId))) {
				traced++
			}
		}
	}
	if traced != 1 {
		t.Errorf("%d job records in Kafka carry the event's traceparent, want 1", traced)
	}

	// An inbound capture starts its own trace and reaches its delivery.
	key := api
	src := createSource(t, key, map[string]any{"name": "traced", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "capture.received"}})
	if res := postIngest(t, src.IngestURL, []byte(`{"a":1}`), map[string]string{"Content-Type": "application/json"}); res.StatusCode != 200 {
		t.Fatalf("capture: %d %s", res.StatusCode, res.Body)
	}
	var capture *tracepb.Span
	testenv.Eventually(t, 30*time.Second, func() bool {
		spans, _ := sink.all()
		ix = indexSpans(spans)
		caps := ix.find("capture request", "ferry.source_id", src.ID)
		if len(caps) != 1 {
			return false
		}
		capture = caps[0]
		for _, a := range ix.find("POST", "", "") {
			if bytes.Equal(a.TraceId, capture.TraceId) {
				return true
			}
		}
		return false
	}, "no attempt span in the capture's trace")
	if s := ix.parent(capture); s == nil || s.Name != "POST /in/:token" || s.Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("capture's parent = %+v, want the server span of POST /in/:token", s)
	}
	if bytes.Equal(capture.TraceId, server.TraceId) {
		t.Errorf("the capture joined the event's trace")
	}
	sends := 0
	for _, sp := range ix.find("send deliveries", "", "") {
		if bytes.Equal(sp.ParentSpanId, capture.SpanId) {
			sends++
		}
	}
	if sends != 1 {
		t.Errorf("%d publish spans under the capture, want 1", sends)
	}
}

// TestTracingOffExportsNothingAndAddsNoHeaders runs Ferry with an OTLP
// endpoint configured but OTEL_SDK_DISABLED=true: the delivery works,
// nothing reaches the receiver, and no Kafka record carries traceparent.
func TestTracingOffExportsNothingAndAddsNoHeaders(t *testing.T) {
	t.Parallel()
	sink := newOTLPSink(t)
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": sink.URL, "OTEL_SDK_DISABLED": "true"}
	tcfg, err := tracing.ConfigFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Tracing = tcfg
	f := startFerry(t, cfg)
	rc := newHookServer(t, func(n int, h hit, w http.ResponseWriter) {
		if n == 1 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	_, api := signUp(t, f, "untraced@example.com")
	createEndpoint(t, api, map[string]any{"url": rc.URL + "/hook"})
	ev := sendEvent(t, api, "order.created", map[string]any{"n": 1})
	waitStatus(t, api, ev.ID, "succeeded", 60*time.Second)

	var msgs int
	for _, topic := range []string{"deliveries", "retry-30s"} {
		for _, m := range readTopic(t, f, topic) {
			msgs++
			for _, h := range m.Headers {
				if h.Key == "traceparent" || h.Key == "tracestate" {
					t.Errorf("record in %s carries %s with tracing off", topic, h.Key)
				}
			}
		}
	}
	if msgs < 2 {
		t.Errorf("read %d job records, want the first job and its retry", msgs)
	}
	for _, h := range rc.all() {
		if h.Header.Get("Traceparent") != "" {
			t.Errorf("the receiver got traceparent with tracing off")
		}
	}
	time.Sleep(200 * time.Millisecond) // longer than an enabled exporter's batch timeout in these tests
	if spans, requests := sink.all(); requests != 0 || len(spans) != 0 {
		t.Errorf("with tracing off the receiver got %d exports (%d spans)", requests, len(spans))
	}
}

// TestTracingReachesOptedInReceiversAndQueuePulls: an endpoint with
// propagate_trace gets each attempt's traceparent (the attempt span's own
// context, in the event's trace) while one without it gets none; a queue
// message leased by a pull joins its event's trace, linked to the pull.
func TestTracingReachesOptedInReceiversAndQueuePulls(t *testing.T) {
	t.Parallel()
	sink := newOTLPSink(t)
	cfg := testConfig(t)
	cfg.Tracing = tracing.Config{Endpoint: sink.URL + "/v1/traces", BatchTimeout: 50 * time.Millisecond}
	f := startFerry(t, cfg)
	rc, plain := newHookServer(t, nil), newHookServer(t, nil)
	_, api := signUp(t, f, "tracing-optin@example.com")
	var ep struct {
		ID             string `json:"id"`
		PropagateTrace bool   `json:"propagate_trace"`
	}
	api.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/traced", "event_types": []string{"order.*"},
		"propagate_trace": true}, &ep)
	if !ep.PropagateTrace {
		t.Fatal("propagate_trace was not kept")
	}
	createEndpoint(t, api, map[string]any{"url": plain.URL + "/plain", "event_types": []string{"order.*"}})
	q := createQueue(t, api, "order.created", nil)
	ev := sendEvent(t, api, "order.created", map[string]any{"n": 1})
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.all()) == 1 && len(plain.all()) == 1 },
		"both endpoints receive the event")
	traceparent := rc.all()[0].Header.Get("Traceparent")
	if got := plain.all()[0].Header.Get("Traceparent"); got != "" {
		t.Errorf("an endpoint without propagate_trace got traceparent %q", got)
	}
	msgs := pull(t, api, q.ID, map[string]any{"max": 1})
	if len(msgs) != 1 {
		t.Fatalf("pulled %d messages", len(msgs))
	}

	var ix spanIndex
	var attempts, leases []*tracepb.Span
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("exported %d spans: %d attempt spans of the opted-in endpoint, %d lease spans of the event", len(ix.all), len(attempts), len(leases))
		}
	})
	testenv.Eventually(t, 30*time.Second, func() bool {
		spans, _ := sink.all()
		ix = indexSpans(spans)
		attempts, leases = ix.find("POST", "ferry.endpoint_id", ep.ID), ix.find("lease queue message", "ferry.event_id", ev.ID)
		return len(attempts) == 1 && len(leases) == 1
	}, "the attempt and the lease were not exported")
	attempt := attempts[0]
	want := "00-" + hex.EncodeToString(attempt.TraceId) + "-" + hex.EncodeToString(attempt.SpanId) + "-01"
	if traceparent != want {
		t.Errorf("the opted-in receiver got traceparent %q, want the attempt's %q", traceparent, want)
	}
	lease := leases[0]
	ingest := onlySpan(t, ix.find("ingest event", "ferry.event_id", ev.ID), "ingesting the event")
	if !bytes.Equal(lease.TraceId, ingest.TraceId) || lease.Kind != tracepb.Span_SPAN_KIND_CONSUMER ||
		spanAttr(lease, "ferry.delivery_id") != msgs[0].ID || spanAttr(lease, "ferry.attempt") != "1" {
		t.Errorf("lease span %+v is not a consumer span of the event's trace for message %s", lease, msgs[0].ID)
	}
	pulls := ix.find("POST /api/v1/queues/:endpoint_id/pull", "", "")
	if len(pulls) != 1 || len(lease.Links) != 1 || !bytes.Equal(lease.Links[0].SpanId, pulls[0].SpanId) {
		t.Errorf("the lease span links %v, want the pull request's span (%d pull spans)", lease.Links, len(pulls))
	}
}
