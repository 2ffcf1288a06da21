// Package delivery owns what Ferry delivers and how: endpoints and their
// signing secrets, events and their fan-out into deliveries, the
// transactional outbox, the dispatcher that makes attempts, the retry
// policy, the attempt log and replay.
//
// The pipeline (docs/delivery.md; docs/contract.md#durability-on-ingest):
//
//	POST /events → one transaction: event + deliveries + outbox rows
//	            → 202
//	            → Relay publishes outbox jobs to Kafka "deliveries"
//	              (keyed by endpoint id), then deletes the rows; a sweeper
//	              republishes rows a crashed process left behind
//	Kafka       → Dispatcher: per-endpoint lanes (max_in_flight, rate
//	              limit) → attempt → outcome → next step published
//	              (retry tier or dead) → attempt logged and delivery
//	              updated → offset committed.
//
// Isolation: a lane holds at most dispatch.Config.MaxQueuedPerEndpoint
// jobs; more are parked in the first retry tier, unattempted, so one slow
// endpoint never takes the process-wide MaxQueued slots the others need.
// Durability: the dispatcher (dispatch.Dispatcher.Submit) reports a job
// done only once its next step is acknowledged by Kafka and the attempt
// is committed in Postgres; only then does the consumer mark the offset
// done, and it commits only the contiguous prefix of done offsets. Jobs for deliveries Postgres records
// as finished, or whose attempt is already logged, are skipped, so
// republishing (sweeper, rebalance, crash) never repeats a finished one.
//
// Stats and operational events: the attempt log keeps hourly rollups per
// endpoint (endpoint_stats_hourly) in the transaction of each batch, which
// Service.EndpointStats and Service.TenantStats read (stats.go); the same
// transaction records endpoint health transitions and emits them, with
// exhausted deliveries, as ferry.* events of the tenant (opevent.go), and
// QuotaWarner emits ferry.quota.warning off the ingest path
// (quotawarn.go).
//
// Kafka itself is behind small interfaces declared by the packages that
// publish (dispatch.Publisher, outbox.Publisher); delivery/kafka adapts
// segmentio/kafka-go to them and feeds the dispatcher.
package delivery
