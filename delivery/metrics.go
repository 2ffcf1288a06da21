package delivery

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the delivery engine's Prometheus collectors.
type Metrics struct {
	Attempts       *prometheus.CounterVec
	FirstAttempt   prometheus.Histogram
	ToSuccess      prometheus.Histogram
	DeadLettered   *prometheus.CounterVec
	Skipped        prometheus.Counter
	InFlight       prometheus.Gauge
	Queued         prometheus.Gauge
	Parked         prometheus.Counter
	EventsAccepted prometheus.Counter
	// TierLag is, per topic, how late the last job handed to the
	// dispatcher was: now minus its due time (retry tiers) or its
	// acceptance (the deliveries topic).
	TierLag *prometheus.GaugeVec
	// TierLagMessages is, per topic, how many messages the consumer group
	// is behind the end of the partitions this process reads.
	TierLagMessages *prometheus.GaugeVec
	// OutboxBacklog counts committed jobs not yet acknowledged by Kafka
	// (sampled by the relay's sweeper; capped at 100000).
	OutboxBacklog prometheus.Gauge
	// IngestBatch observes how many events each committed ingest
	// transaction held (group commit; pass it as Config.IngestBatch).
	IngestBatch prometheus.Histogram
	// AttemptLogBatch observes how many attempts each committed attempt-log
	// transaction held (pass it as attemptlog.Config.BatchSize).
	AttemptLogBatch prometheus.Histogram
	// StateBatch observes how many deliveries each of the dispatcher's
	// state queries read.
	StateBatch prometheus.Histogram
}

// ObserveLag records a topic's lag; it satisfies delivery/kafka's
// LagObserver.
func (m *Metrics) ObserveLag(topic string, late time.Duration) {
	m.TierLag.WithLabelValues(topic).Set(max(0, late.Seconds()))
}

// ObserveLagMessages records how many messages a topic's group is behind.
func (m *Metrics) ObserveLagMessages(topic string, messages int64) {
	m.TierLagMessages.WithLabelValues(topic).Set(float64(max(0, messages)))
}

// NewMetrics creates the collectors and registers them with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	sizeBuckets := prometheus.ExponentialBuckets(1, 2, 11) // 1 … 1024 items
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
		Parked: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ferry_delivery_jobs_parked_total", Help: "Jobs deferred to the first retry tier, unattempted, because their endpoint's lane was full.",
		}),
		TierLag: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "ferry_delivery_tier_lag_seconds", Help: "How late the last job of each topic (deliveries, retry tiers) reached the dispatcher after it was due.",
		}, []string{"topic"}),
		TierLagMessages: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "ferry_delivery_tier_lag_messages", Help: "Messages between the end of a topic's partition and this process's read position (last partition read).",
		}, []string{"topic"}),
		OutboxBacklog: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "ferry_outbox_backlog", Help: "Committed delivery jobs not yet published to Kafka (sampled, capped at 100000).",
		}),
		IngestBatch: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "ferry_ingest_batch_events", Help: "Events committed per ingest transaction (concurrent ingests share one commit).", Buckets: sizeBuckets,
		}),
		AttemptLogBatch: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "ferry_attempt_log_batch_attempts", Help: "Attempts committed per attempt-log transaction.", Buckets: sizeBuckets,
		}),
		StateBatch: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "ferry_delivery_state_batch_loads", Help: "Deliveries read per dispatcher state query (concurrent attempts share one query).", Buckets: sizeBuckets,
		}),
	}
	if reg != nil {
		reg.MustRegister(m.Attempts, m.FirstAttempt, m.ToSuccess, m.DeadLettered, m.Skipped, m.InFlight, m.Queued, m.EventsAccepted,
			m.TierLag, m.TierLagMessages, m.OutboxBacklog, m.Parked, m.IngestBatch, m.AttemptLogBatch, m.StateBatch)
	}
	return m
}
