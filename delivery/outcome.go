package delivery

// Outcome is the result of one attempt.
type Outcome string

// Outcomes (README, Delivery guarantees: What your answer means).
const (
	OutcomeSuccess Outcome = "success"
	OutcomeRetry   Outcome = "retry"
	OutcomeDropped Outcome = "dropped"
)
