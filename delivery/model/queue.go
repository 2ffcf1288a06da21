package model

// QueueChannel is the Postgres NOTIFY channel that says a queue endpoint
// has new messages; delivery/queue listens. The payload is the
// endpoint's id, followed by QueueSenderSep and the sending process's
// instance (QueueWaker.Instance) when that process wakes its own
// long-polls itself, so that its listener skips it; a payload of the id
// alone (what older versions send) wakes every process.
const QueueChannel = "ferry_queue"

// QueueSenderSep separates the endpoint id from the sender's instance in
// a QueueChannel payload.
const QueueSenderSep = "/"
