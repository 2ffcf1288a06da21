package telemetry

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/ferry-dev/ferry/delivery/model"
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
	// Stages is, per stage of a first delivery attempt, the time from the
	// event's acceptance to reaching that stage (see the Stage constants).
	// Consecutive stages give the time spent in each hop.
	Stages *prometheus.HistogramVec
}

// Stages a first delivery attempt passes, in order; each is observed as
// the time since the event was accepted (Job.AcceptedAt, which is cut to
// the millisecond).
const (
	// StageCommitted: the ingest transaction holding the delivery committed.
	StageCommitted = "committed"
	// StagePublished: Kafka acknowledged the job (outbox relay).
	StagePublished = "published"
	// StageConsumed: a worker fetched the job from the deliveries topic.
	StageConsumed = "consumed"
	// StageSent: the dispatcher started the HTTP request.
	StageSent = "sent"
	// StageAnswered: the HTTP exchange ended (response or error).
	StageAnswered = "answered"
	// StageLogged: the attempt log committed a successful attempt.
	StageLogged = "logged"
)

// ObserveStage records that job reached stage at when. Only first
// attempts of newly accepted events count: retries and replays would mix
// retry delays and old events into the per-hop times. m may be nil.
func (m *Metrics) ObserveStage(stage string, job model.Job, when time.Time) {
	if m == nil || m.Stages == nil || job.Attempt != 1 || job.Trigger != model.TriggerInitial || job.AcceptedAt.IsZero() {
		return
	}
	m.Stages.WithLabelValues(stage).Observe(max(0, when.Sub(job.AcceptedAt).Seconds()))
}

// ObserveLag records a topic's lag; it satisfies delivery/kafka's
// LagObserver.
func (m *Metrics) ObserveLag(topic string, late time.Duration) {
	m.TierLag.WithLabelValues(topic).Set(max(0, late.Seconds()))
	if topic == model.TopicDeliveries && m.Stages != nil {
		// The consumer reports a deliveries-topic job's lag as now minus
		// its acceptance when it fetches it: the consumed stage (replays
		// on this topic count too, from the replay's request).
		m.Stages.WithLabelValues(StageConsumed).Observe(max(0, late.Seconds()))
	}
}

// ObserveLagMessages records how many messages a topic's group is behind.
func (m *Metrics) ObserveLagMessages(topic string, messages int64) {
	m.TierLagMessages.WithLabelValues(topic).Set(float64(max(0, messages)))
}

// stageBuckets resolve the millisecond hops of a healthy pipeline and the
// seconds of a backlog.
func stageBuckets() []float64 {
	return []float64{.0005, .001, .0015, .002, .003, .004, .005, .006, .008, .01, .0125, .015, .02, .025, .03, .04, .05,
		.065, .08, .1, .125, .15, .2, .25, .3, .4, .5, .65, .8, 1, 1.5, 2, 3, 5, 7.5, 10, 15, 20, 30, 60, 120, 300}
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
		Stages: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "ferry_delivery_stage_seconds",
			Help:    "Time from event acceptance to each stage of a first delivery attempt (committed, published, consumed, sent, answered, logged).",
			Buckets: stageBuckets(),
		}, []string{"stage"}),
	}
	if reg != nil {
		reg.MustRegister(m.Attempts, m.FirstAttempt, m.ToSuccess, m.DeadLettered, m.Skipped, m.InFlight, m.Queued, m.EventsAccepted,
			m.TierLag, m.TierLagMessages, m.OutboxBacklog, m.Parked, m.IngestBatch, m.AttemptLogBatch, m.StateBatch, m.Stages)
	}
	return m
}
