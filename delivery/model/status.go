package model

// Status is a delivery's state as the API reports it (docs/contract.md#delivery-status).
type Status string

// Delivery statuses.
const (
	StatusPending   Status = "pending"
	StatusRetrying  Status = "retrying"
	StatusSucceeded Status = "succeeded"
	StatusDropped   Status = "dropped"
	StatusExhausted Status = "exhausted"
)

// Finished reports whether no further attempt is scheduled.
func (s Status) Finished() bool {
	return s == StatusSucceeded || s == StatusDropped || s == StatusExhausted
}

// Valid reports whether s names a status.
func (s Status) Valid() bool {
	return s == StatusPending || s == StatusRetrying || s.Finished()
}

// The statuses as SQL literals, for hand-written statements: a partial
// index on deliveries is used only for a predicate spelled out in the
// statement, never for a parameter.
const (
	SQLPending   = "'" + string(StatusPending) + "'"
	SQLRetrying  = "'" + string(StatusRetrying) + "'"
	SQLSucceeded = "'" + string(StatusSucceeded) + "'"
	SQLDropped   = "'" + string(StatusDropped) + "'"
	SQLExhausted = "'" + string(StatusExhausted) + "'"
	// SQLUnfinished lists the statuses that still expect an attempt.
	SQLUnfinished = "(" + SQLPending + ", " + SQLRetrying + ")"
	// SQLDead lists the statuses of deliveries that will not be sent
	// again unless replayed and that failed.
	SQLDead = "(" + SQLDropped + ", " + SQLExhausted + ")"
)
