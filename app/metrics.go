package app

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/ferry-dev/ferry/delivery/kafka"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/ratelimit"
)

// serveMetrics serves handler at /metrics on l, its own listener
// (FERRY_METRICS_ADDR), so metrics can stay on an internal network while
// the API faces the internet. It also answers /healthz (the process
// runs) and /readyz (ready: PostgreSQL and Kafka answer), as the public
// listener does: a worker-only process has no other listener for its
// probes. stop closes the server.
func serveMetrics(l net.Listener, handler http.Handler, ready func(context.Context) error, log *slog.Logger) (stop func()) {
	mux := http.NewServeMux()
	mux.Handle("/metrics", handler)
	status := func(w http.ResponseWriter, code int, status string) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		_, _ = w.Write([]byte(`{"status":"` + status + `"}`))
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { status(w, http.StatusOK, "ok") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := ready(ctx); err != nil {
			// The cause goes to the log only, as on the public listener.
			log.WarnContext(ctx, "not ready", "err", err)
			status(w, http.StatusServiceUnavailable, "unavailable")
			return
		}
		status(w, http.StatusOK, "ready")
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("metrics server stopped", "addr", l.Addr().String(), "err", err)
		}
	}()
	log.Info("metrics listening", "addr", l.Addr().String())
	return func() { _ = srv.Close() }
}

// httpMetrics are the API's RED metrics: requests by route template,
// method and status class, and their durations.
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ferry_http_requests_total",
			Help: "HTTP requests answered, by route template, method and status class (2xx … 5xx)."},
			[]string{"route", "method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ferry_http_request_duration_seconds",
			Help:    "Time from a request's arrival to its answer, by route template and method (a queue stream: its whole life).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}},
			[]string{"route", "method"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

var statusClasses = [...]string{"1xx", "2xx", "3xx", "4xx", "5xx"}

// ObserveRequest implements httpapi.RequestObserver.
func (m *httpMetrics) ObserveRequest(route, method string, status int, elapsed time.Duration) {
	class := "5xx"
	if i := status/100 - 1; i >= 0 && i < len(statusClasses) {
		class = statusClasses[i]
	}
	m.requests.WithLabelValues(route, method, class).Inc()
	m.duration.WithLabelValues(route, method).Observe(elapsed.Seconds())
}

// lagSampler publishes the consumer groups' lag (kafka.GroupLag) as
// ferry_kafka_consumer_lag_messages. Every worker reads the same figure
// from the cluster: alert on max by topic.
type lagSampler struct {
	cfg    kafka.Config
	topics []string
	gauge  *prometheus.GaugeVec
	every  time.Duration
	clock  clock.Clock
	log    *slog.Logger
}

func newLagSampler(reg prometheus.Registerer, cfg kafka.Config, topics []string, log *slog.Logger) *lagSampler {
	s := &lagSampler{cfg: cfg, topics: topics, every: 15 * time.Second, clock: clock.System{}, log: log,
		gauge: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "ferry_kafka_consumer_lag_messages",
			Help: "Messages of each topic Ferry's consumer group has not committed yet, over all partitions (sampled every 15 s)."},
			[]string{"topic"})}
	reg.MustRegister(s.gauge)
	return s
}

// Run samples until ctx ends.
func (s *lagSampler) Run(ctx context.Context) error {
	t := s.clock.NewTicker(s.every)
	defer t.Stop()
	for {
		if err := s.RunOnce(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("sampling Kafka consumer lag", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C():
		}
	}
}

// RunOnce takes one sample.
func (s *lagSampler) RunOnce(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	lag, err := kafka.GroupLag(ctx, s.cfg, s.topics)
	if err != nil {
		return err
	}
	for topic, n := range lag {
		s.gauge.WithLabelValues(topic).Set(float64(n))
	}
	return nil
}

// timedLeases times the rate limits' leases from PostgreSQL by limit (the
// key's prefix: api, test-routing, source, endpoint). A lease is a round
// trip on the path of the request or attempt that found its process's
// tokens spent, and a failed one leaves the limit to each process alone.
type timedLeases struct {
	inner    ratelimit.Leaser
	duration *prometheus.HistogramVec
	failures *prometheus.CounterVec
}

func newTimedLeases(reg prometheus.Registerer, inner ratelimit.Leaser) *timedLeases {
	t := &timedLeases{inner: inner,
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ferry_rate_lease_seconds",
			Help:    "Time to lease tokens of a rate limit shared by every replica from PostgreSQL, by limit.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}},
			[]string{"limit"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ferry_rate_lease_failures_total",
			Help: "Leases of a shared rate limit that failed, by limit: the process then limits alone."},
			[]string{"limit"}),
	}
	reg.MustRegister(t.duration, t.failures)
	return t
}

// Lease implements ratelimit.Leaser.
func (t *timedLeases) Lease(ctx context.Context, key string, perSecond, want int) (int, float64, error) {
	limit, _, _ := strings.Cut(key, ":")
	start := time.Now()
	granted, left, err := t.inner.Lease(ctx, key, perSecond, want)
	t.duration.WithLabelValues(limit).Observe(time.Since(start).Seconds())
	if err != nil {
		t.failures.WithLabelValues(limit).Inc()
	}
	return granted, left, err
}
