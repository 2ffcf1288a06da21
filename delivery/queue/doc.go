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
// messages. A wake-up goes to one waiter of the queue (listener.go).
//
// A waiter runs a lease when it starts and when it is woken, never on a
// timer of its own: idle waiters cost the database nothing. What no
// notification announces, a nack's delay ending (or the retry schedule's),
// and notifications missed while the listener reconnected, is found by
// one shared re-check (recheck.go): every PollInterval, and at once after
// the listener (re)connects, one read-only statement asks which of the
// queues with waiters in this process have a message a lease would take
// now, and one waiter of each such queue is woken. Its cost grows with
// the queues that have waiters, not with the waiters: before, each of N
// waiters ran the lease statement every second. A per-queue timer at the
// earliest due time was the alternative; but a nack settled on another
// replica tells this one nothing of its due time, so that design still
// needs a periodic look at the database, and the shared re-check is that
// look, once for all queues. After a reconnect the same re-check replaces
// waking every waiter: it wakes one per queue with work, and a waiter
// that fills its batch passes the wake-up on, so a backlog is drained
// without a herd of empty leases hitting a database that just came back.
//
// Waiting is capped (slots.go): each process lets a tenant have at most
// MaxWaitersPerTenant long-polls and streams at once over all its
// queues, and at most MaxWaitersPerQueue on one queue; beyond that Pull
// and OpenStream answer ERATELIMIT with a Retry-After, before any
// statement runs. A long-poll holds its slot until it returns, a stream
// until Close, whatever ends it.
package queue
