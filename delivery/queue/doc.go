// Package queue lets consumers pull the deliveries of queue endpoints
// instead of Ferry pushing them: pull leases messages, ack, nack and
// reject settle the leases, and a sweeper returns leases that ran out.
//
// The deliveries table is the queue. Fan-out inserts a queue endpoint's
// deliveries like any other but writes no outbox row, so no Kafka job
// exists for them. A pull is one statement: an UPDATE of the oldest due,
// unleased pending or retrying rows of the endpoint, picked with
// FOR UPDATE SKIP LOCKED through the partial index
// deliveries_queue_head_idx, that sets a lease (lease_id, leased_at,
// lease_until) and counts the attempt. Concurrent consumers skip each
// other's locked rows, so a message is never leased twice while its lease
// is live. An ordered endpoint (max_in_flight 1) takes an advisory lock
// per pull and leases nothing while one lease is live, so its messages
// go out one at a time in acceptance order.
//
// A receipt is the delivery id and the lease id, base64url encoded; it
// is single-use because settling clears lease_id. Each lease is one
// attempt in the attempt log, written when the lease ends: ack (success),
// nack (retry, after the given delay or the retry schedule), reject
// (dropped) or expiry (retry, error class "timeout"). The attempt is
// inserted in the same transaction that settles the row, so the log and
// the delivery never disagree. Expired leases are taken back by the next
// pull or by the sweeper, whichever comes first; the sweeper also
// exhausts messages nobody acked within the retry window.
//
// Long-polls wait on Postgres LISTEN/NOTIFY: fan-out and replay send
// pg_notify(delivery.QueueChannel, endpoint id) in their transaction, so
// the notification arrives when the messages are committed, on every
// replica. Waiters also re-check every PollInterval, which covers nacked
// messages becoming due and a listener reconnecting.
package queue
