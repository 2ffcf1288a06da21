package model

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// Trigger says why an attempt was made.
type Trigger string

// Triggers recorded in the attempt log.
const (
	TriggerInitial Trigger = "initial"
	TriggerRetry   Trigger = "retry"
	TriggerReplay  Trigger = "replay"
)

// Job is the Kafka message asking for one attempt of one delivery. It is
// small on purpose: the dispatcher reads the event and endpoint from
// Postgres, where they are authoritative.
type Job struct {
	DeliveryID uuid.UUID `json:"delivery_id"`
	EventID    uuid.UUID `json:"event_id"`
	EndpointID uuid.UUID `json:"endpoint_id"`
	TenantID   uuid.UUID `json:"tenant_id"`
	// Attempt is the number of the attempt this job asks for; a delivery
	// that has already logged it skips the job (duplicate).
	Attempt int     `json:"attempt"`
	Trigger Trigger `json:"trigger"`
	Actor   string  `json:"actor,omitempty"`
	// AcceptedAt is when the event was accepted (for latency metrics).
	AcceptedAt time.Time `json:"accepted_at"`
	// FirstAttemptAt starts the retry window; zero until the first attempt.
	FirstAttemptAt time.Time `json:"first_attempt_at,omitzero"`
	// DueAt and EnqueuedAt are set on retry-tier messages.
	DueAt      time.Time `json:"due_at,omitzero"`
	EnqueuedAt time.Time `json:"enqueued_at,omitzero"`

	// TraceParent and TraceState are the W3C trace context of the span
	// that asked for this attempt (delivery/internal/jobtrace); empty
	// when tracing is off. They travel beside the JSON, never in it: in
	// Kafka record headers and the outbox row's traceparent column.
	TraceParent string `json:"-"`
	TraceState  string `json:"-"`

	// OutboxAt identifies the outbox row that carried the job, so the relay
	// deletes exactly that row once Kafka has it.
	OutboxAt time.Time `json:"-"`
}

// Logical topic names; the Kafka adapter may prefix them.
const (
	TopicDeliveries = "deliveries"
	TopicDead       = "dead"
)

// Message is one job to publish to a topic. The Kafka adapter owns its
// wire format (key and value) in both directions.
type Message struct {
	Topic string
	Job   Job
}

// Publisher writes messages to Kafka and returns once every one is
// acknowledged (acks=all). The outbox relay and the dispatcher publish
// through it; delivery/kafka's Writer is the one app plugs in.
type Publisher interface {
	Publish(ctx context.Context, msgs []Message) error
}

// Streamer publishes messages without waiting for Kafka: Send returns
// once they are handed over, and ack is called later, from another
// goroutine, with each batch Kafka acknowledged (err nil) or gave up on
// (err set: the messages were not written). Each partition's messages go
// out in the order they were sent, retried on their own, so a partition
// without a leader holds back its own messages and no one else's.
type Streamer interface {
	Send(ctx context.Context, msgs []Message, ack func(msgs []Message, err error)) error
}
