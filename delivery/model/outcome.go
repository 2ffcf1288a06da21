package model

// Outcome is the result of one attempt.
type Outcome string

// Outcomes (docs/delivery.md: What your answer means).
const (
	OutcomeSuccess Outcome = "success"
	OutcomeRetry   Outcome = "retry"
	OutcomeDropped Outcome = "dropped"
)

// Error classes of attempts that made no request because of the
// endpoint's transformation (the transport classes are in dispatch). The
// delivery is dropped; neither counts for or against the endpoint's
// health, since the receiver was never asked.
const (
	// ErrClassTransformation: the transformation threw, timed out, went
	// over its memory bound or returned something unsendable.
	ErrClassTransformation = "transformation_error"
	// ErrClassCancelled: the transformation set cancel.
	ErrClassCancelled = "transformation_cancelled"
)

// AboutReceiver reports whether an attempt with this error class says
// anything about the receiver's health.
func AboutReceiver(errClass string) bool {
	return errClass != ErrClassTransformation && errClass != ErrClassCancelled
}
