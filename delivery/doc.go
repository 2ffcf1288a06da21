// Package delivery is the service API of what Ferry delivers: endpoints
// and their signing secrets, events and their routing (event-type
// patterns, filters, transformations) and fan-out into deliveries, single
// and batched ingest, and the tenant's queries of events, deliveries and
// attempts. Its subpackages do the rest (docs/architecture.md lists them
// in import order): store writes every delivery row and owns the state
// machine, outbox and kafka carry jobs, dispatch makes attempts,
// attemptlog logs them, queue serves pull queues, replay sends events
// again, insight answers stats and staff queries, opevents emits
// operational events.
//
// The pipeline (docs/delivery.md; docs/contract.md#durability-on-ingest):
//
//	POST /events → one transaction: event + deliveries + outbox rows
//	            → 202
//	            → outbox.Relay publishes the jobs to Kafka "deliveries"
//	              (keyed by endpoint id), then deletes the rows; its
//	              sweeper republishes rows a crashed process left behind
//	Kafka       → dispatch.Dispatcher: per-endpoint lanes (max_in_flight,
//	              rate limit) → attempt → outcome → next step published
//	              (retry tier or dead) → attempt logged and delivery
//	              updated (store.Transition) → offset committed.
//
// Isolation: a lane holds at most dispatch.Config.MaxQueuedPerEndpoint
// jobs; more are parked in the first retry tier, unattempted, so one slow
// endpoint never takes the process-wide MaxQueued slots the others need.
// Durability: the dispatcher (dispatch.Dispatcher.Submit) reports a job
// done only once its next step is acknowledged by Kafka and the attempt
// is committed in Postgres; only then does the consumer mark the offset
// done, and it commits only the contiguous prefix of done offsets. Jobs
// for deliveries Postgres records as finished, or whose attempt is
// already logged, are skipped, so republishing (sweeper, rebalance,
// crash) never repeats a finished one.
//
// Operational events: the attempt log records endpoint health transitions
// and exhausted deliveries in the transaction of each batch and hands
// them to opevents.Emitter, which stores them as ferry.* events of the
// tenant through EmitOperational (their fan-out lives here, with every
// other); insight.QuotaWarner emits ferry.quota.warning off the ingest
// path.
//
// Kafka itself is behind model.Publisher; delivery/kafka adapts
// segmentio/kafka-go to it and feeds the dispatcher.
package delivery
