package model

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"
)

// Attempt is one logged HTTP attempt (docs/contract.md#attempt-log).
type Attempt struct {
	ID              uuid.UUID   `json:"id"`
	DeliveryID      uuid.UUID   `json:"delivery_id"`
	EventID         uuid.UUID   `json:"event_id"`
	EndpointID      uuid.UUID   `json:"endpoint_id"`
	AttemptNumber   int         `json:"attempt_number"`
	Trigger         Trigger     `json:"trigger"`
	Actor           string      `json:"actor,omitempty"`
	StartedAt       time.Time   `json:"started_at"`
	DurationMs      int         `json:"duration_ms"`
	RequestHeaders  http.Header `json:"request_headers"`
	ResponseStatus  *int        `json:"response_status"`
	ResponseHeaders http.Header `json:"response_headers"`
	ResponseBody    string      `json:"response_body"`
	ErrorClass      string      `json:"error_class,omitempty"`
	ErrorMessage    string      `json:"error_message,omitempty"`
	Outcome         Outcome     `json:"outcome"`
	NextAttemptAt   *time.Time  `json:"next_attempt_at"`
	// ResponseHeadersTruncated reports that some response header values
	// were left out to keep the stored headers within 8 KiB.
	ResponseHeadersTruncated bool `json:"response_headers_truncated"`
	// ResponseBodyTruncated reports that ResponseBody is not the whole
	// body: only the first 4 KiB are kept, and a body still arriving at
	// the timeout is cut there.
	ResponseBodyTruncated bool `json:"response_body_truncated"`
}

// MarshalJSON keeps an empty header set as {} rather than null.
func (a Attempt) MarshalJSON() ([]byte, error) {
	type plain Attempt
	if a.RequestHeaders == nil {
		a.RequestHeaders = http.Header{}
	}
	return json.Marshal(plain(a))
}
