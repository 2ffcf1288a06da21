package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

// TestEventType is the type of the event "Send test event" sends to one
// endpoint (SendTestEvent). It is reserved like the other ferry.* types:
// a tenant cannot send it with POST /events, and it never reaches an
// endpoint by subscription, so testing one endpoint never reaches the
// tenant's customers behind the others.
const TestEventType = "ferry.test"

// TestSample is an event a test sends instead of ferry.test: a type of
// the tenant's own and its data (a catalog example).
type TestSample struct {
	Type string
	Data json.RawMessage
}

// SendTestEvent sends a ferry.test event (or sample, when given) to the endpoint id alone,
// whatever its event types and filter (it proves that the endpoint
// receives and verifies Ferry's webhooks). Its transformation applies as
// to any delivery. The event is metered like any other. Errors:
// ENOTFOUND, EINVALID (a disabled endpoint), EQUOTA, ERATELIMIT,
// EPAYMENT, EUNAVAILABLE (no transformation worker), wrapped database
// errors.
func (s *Service) SendTestEvent(ctx context.Context, tenantID, id uuid.UUID, sample *TestSample) (Event, error) {
	var rows []endpointRow
	if err := s.db.WithContext(ctx).Scopes(forTenant(tenantID)).Select("id", "kind", "enabled", "transformation", "headers", "customer_id", "customer_uid").
		Where("id = ? AND deleted_at IS NULL", id).Limit(1).Find(&rows).Error; err != nil {
		return Event{}, fmt.Errorf("load endpoint %s: %w", id, err)
	}
	if len(rows) == 0 {
		return Event{}, ferry.NotFound("endpoint")
	}
	ep := rows[0]
	if !ep.Enabled {
		return Event{}, ferry.Invalid("endpoint", "the endpoint is disabled; enable it to send it a test event")
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	data, err := json.Marshal(map[string]string{"message": "Test event from Ferry", "endpoint_id": id.String(),
		"sent_at": now.Format(time.RFC3339Nano)})
	if err != nil {
		return Event{}, fmt.Errorf("encode test event: %w", err)
	}
	// A customer's endpoint's test event is that customer's: its portal
	// shows it among the customer's messages.
	in := EventInput{Type: TestEventType, Data: data}
	if sample != nil {
		in = EventInput{Type: sample.Type, Data: sample.Data}
		if err := in.validate(); err != nil {
			return Event{}, err
		}
	}
	ev := Event{ID: uuid.New(), Type: in.Type, Data: in.Data, CreatedAt: now, Customer: ep.CustomerUID, customerID: ep.CustomerID}
	match := batchMatch{I: 1, EndpointID: id, Kind: Kind(ep.Kind), Transformation: ep.Transformation, Headers: ep.Headers}
	r := &ingestRequest{tenantID: tenantID, in: in, ev: ev,
		routed: true, matches: []batchMatch{match}}
	out, _, err := s.ingestOne(ctx, r, true)
	return out, err
}
