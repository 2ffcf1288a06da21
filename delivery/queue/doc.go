// Package queue lets consumers pull the deliveries of queue endpoints
// instead of Ferry pushing them: pull leases messages, ack, nack and
// reject settle the leases, and a sweeper returns leases that ran out.
//
// The deliveries table is the queue. Fan-out inserts a queue endpoint's
// deliveries like any other but writes no outbox row, so no Kafka job
// exists for them. A pull is one statement in its own transaction: an
// UPDATE of the oldest due, unleased pending or retrying rows of the
// endpoint, picked with FOR UPDATE SKIP LOCKED through the partial index
// deliveries_queue_head_idx, that sets a lease (lease_id, leased_at,
// lease_until), counts the attempt and returns the events and a
// fingerprint of the endpoint's signing state; the decrypted keys are
// cached under that fingerprint (target.go). Concurrent consumers skip
// each other's locked rows, so a message is never leased twice while its
// lease is live. An ordered endpoint (max_in_flight 1) pulls in a
// transaction with an advisory lock and leases nothing while one lease is
// live, so its messages go out one at a time in acceptance order.
//
// A receipt is the delivery id and the lease id, base64url encoded; it
// is single-use because settling clears lease_id. Each lease is one
// attempt in the attempt log, written when the lease ends: ack (success),
// nack (retry, after the given delay or the retry schedule), reject
// (dropped) or expiry (retry, error class "timeout"); a message whose
// retry window ends unleased gets one more attempt (retry, "timeout")
// as the sweeper exhausts it, so every exhaustion is in the attempt log,
// the stats and ferry.delivery.exhausted as a push's is. The attempt is
// logged through AttemptLog.RecordTx in the transaction that settles the
// row, with the endpoint stats rollups and health, so the log, the stats
// and the delivery never disagree. Expired leases of unordered queues are
// the sweeper's (every SweepInterval); an ordered queue's pull takes its
// oldest message back itself. A lease made for a consumer that has gone
// (its long-poll or stream ended meanwhile) is released: undone as if it
// never happened.
//
// Long-polls wait on Postgres LISTEN/NOTIFY: fan-out, replay, the sweeper
// and settles that free a message send pg_notify(delivery.QueueChannel,
// endpoint id) in their transaction, so the notification arrives when
// the messages are committed, on every replica; ingest also calls
// WakeQueues in its own process once it has committed, and names the
// process (Config.Instance) in its notifications so that this process's
// listener skips them rather than wake a second waiter for the same
// messages. A wake-up goes to one waiter of the queue (listener.go). Waiters re-check every
// PollInterval only for what no notification announces: a nack's delay
// ending, or notifications missed while the listener reconnected.
package queue
