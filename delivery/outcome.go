package delivery

// Outcome is the result of one attempt.
type Outcome string

// Outcomes (PRODUCT §4).
const (
	OutcomeSuccess Outcome = "success"
	OutcomeRetry   Outcome = "retry"
	OutcomeDropped Outcome = "dropped"
)
