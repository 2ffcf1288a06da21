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
