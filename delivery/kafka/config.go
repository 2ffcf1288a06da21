package kafka

import (
	"errors"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// Validate checks the configuration, including its TLS CA file and SASL
// settings, without connecting.
func (c Config) Validate() error {
	_, err := c.withDefaults()
	return err
}

// Config locates the cluster and names Ferry's topics and group.
type Config struct {
	Brokers []string
	// TopicPrefix is prepended to every topic name; tests use it to run
	// in parallel on one broker.
	TopicPrefix string
	// GroupID prefixes the consumer groups of the delivery workers, one per
	// topic: "<GroupID>.deliveries", "<GroupID>.retry-30s", … (default "ferry").
	GroupID string
	// Partitions for topics Ferry creates (default 8).
	Partitions int
	// ReplicationFactor for topics Ferry creates (default 1; 3 in a cluster).
	ReplicationFactor int
	// MinInsyncReplicas for topics Ferry creates (default: unset, the
	// broker's own default).
	MinInsyncReplicas int
	// BatchTimeout is how long the writer waits to fill a batch
	// (default 2 ms; kafka-go's own 1 s default makes every write slow).
	BatchTimeout time.Duration
	// Lag, when set, receives per-topic consumer lag.
	Lag LagObserver
	// Now is the clock for due times; nil uses time.Now.
	Now func() time.Time
	// Security configures TLS and SASL for every connection.
	Security Security
	// Tracing makes the consumer's receive span of each traced job; nil
	// makes none.
	Tracing trace.TracerProvider
	// Topics are the unprefixed names of every topic the writers publish
	// to (deliveries, dead, the retry tiers). The writers' metadata,
	// refreshed several times a second, is then asked for these alone
	// rather than for every topic of the cluster, which a shared cluster
	// may hold by the hundred; a write to a topic not named fails. Empty:
	// every topic.
	Topics []string

	// conn is Security validated and built by withDefaults.
	conn connSecurity
}

// LagObserver records consumer lag per topic; *telemetry.Metrics
// satisfies it.
type LagObserver interface {
	// ObserveLag records how late a job reached the dispatcher after it
	// was due.
	ObserveLag(topic string, late time.Duration)
	// ObserveLagMessages records how many messages are not yet fetched.
	ObserveLagMessages(topic string, messages int64)
}

func (c Config) withDefaults() (Config, error) {
	if len(c.Brokers) == 0 {
		return c, errors.New("kafka: no brokers configured")
	}
	if c.GroupID == "" {
		c.GroupID = "ferry"
	}
	if c.Partitions == 0 {
		c.Partitions = 8
	}
	if c.ReplicationFactor == 0 {
		c.ReplicationFactor = 1
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.BatchTimeout == 0 {
		c.BatchTimeout = 2 * time.Millisecond
	}
	if !c.conn.secure() {
		conn, err := c.Security.build()
		if err != nil {
			return c, err
		}
		c.conn = conn
	}
	return c, nil
}

func (c Config) topic(name string) string { return c.TopicPrefix + name }

// metadataTopics are the full names of Topics (nil: every topic).
func (c Config) metadataTopics() []string {
	if len(c.Topics) == 0 {
		return nil
	}
	full := make([]string, len(c.Topics))
	for i, n := range c.Topics {
		full[i] = c.topic(n)
	}
	return full
}
