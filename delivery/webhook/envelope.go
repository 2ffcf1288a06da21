package webhook

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// TimeFormat is the envelope's created_at: UTC, exactly three fractional
// digits, and a Z.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Envelope returns the exact POST body for an event. It depends only on
// stored fields, so every attempt and replay sends the same bytes.
// data must be compact, valid JSON (ingest guarantees it).
func Envelope(id uuid.UUID, eventType string, createdAt time.Time, data []byte) []byte {
	typ, _ := json.Marshal(eventType) // marshalling a string cannot fail
	b := make([]byte, 0, 96+len(typ)+len(data))
	b = append(b, `{"id":"`...)
	b = append(b, id.String()...)
	b = append(b, `","type":`...)
	b = append(b, typ...)
	b = append(b, `,"created_at":"`...)
	b = createdAt.UTC().AppendFormat(b, TimeFormat)
	b = append(b, `","data":`...)
	b = append(b, data...)
	b = append(b, '}')
	return b
}

// WebhookTimestamp is the webhook-timestamp header: created_at in unix
// seconds.
func WebhookTimestamp(createdAt time.Time) string {
	return strconv.FormatInt(createdAt.Unix(), 10)
}
