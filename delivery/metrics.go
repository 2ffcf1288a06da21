package delivery

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the delivery engine's Prometheus collectors.
type Metrics struct {
	Attempts       *prometheus.CounterVec
	FirstAttempt   prometheus.Histogram
	ToSuccess      prometheus.Histogram
	DeadLettered   *prometheus.CounterVec
	Skipped        prometheus.Counter
	InFlight       prometheus.Gauge
	Queued         prometheus.Gauge
	EventsAccepted prometheus.Counter
}

// NewMetrics creates the collectors and registers them with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	buckets := []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 3600}
	m := &Metrics{
		Attempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ferry_delivery_attempts_total", Help: "Delivery attempts by outcome and reason (status code or error class).",
		}, []string{"outcome", "reason"}),
		FirstAttempt: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "ferry_delivery_first_attempt_seconds", Help: "Time from event acceptance to the start of its first attempt.", Buckets: buckets,
		}),
		ToSuccess: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "ferry_delivery_success_seconds", Help: "Time from event acceptance to a successful attempt.", Buckets: buckets,
		}),
		DeadLettered: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ferry_dead_letters_total", Help: "Deliveries sent to the dead topic, by final status.",
		}, []string{"status"}),
		Skipped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ferry_delivery_jobs_skipped_total", Help: "Jobs skipped because Postgres already records the attempt or a finished delivery.",
		}),
		InFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "ferry_delivery_in_flight", Help: "Attempts under way in this process.",
		}),
		Queued: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "ferry_delivery_queued", Help: "Jobs fetched from Kafka and waiting in per-endpoint lanes.",
		}),
		EventsAccepted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ferry_events_accepted_total", Help: "Events accepted by the API.",
		}),
	}
	if reg != nil {
		reg.MustRegister(m.Attempts, m.FirstAttempt, m.ToSuccess, m.DeadLettered, m.Skipped, m.InFlight, m.Queued, m.EventsAccepted)
	}
	return m
}
