package openapi

import (
	"fmt"
	"reflect"

	"github.com/getkin/kin-openapi/openapi3"
)

// Webhook is one kind of request Ferry sends to a receiver: an event of
// one type (or, with Type "event", any of the tenant's own), in the
// envelope {id, type, created_at, data}, signed with the Standard
// Webhooks headers.
type Webhook struct {
	// Type is the event type (ferry.endpoint.failing), or a name for a
	// family of types (event: the tenant's own).
	Type        string
	Summary     string
	Description string
	// TypeEnum lists the values of the envelope's type; nil: any string
	// (the tenant's own types).
	TypeEnum []string
	// Data is the Go type of the envelope's data; nil: any JSON value.
	Data reflect.Type
	// Example is a whole envelope, hand-written.
	Example any
}

// webhookHeaders are the headers of every webhook request
// (delivery/webhook.Headers).
func webhookHeaders() openapi3.Parameters {
	header := func(name, desc string, schema *openapi3.Schema) *openapi3.ParameterRef {
		p := openapi3.NewHeaderParameter(name).WithDescription(desc).WithSchema(schema).WithRequired(true)
		return &openapi3.ParameterRef{Value: p}
	}
	return openapi3.Parameters{
		header("webhook-id", "The event's id (the envelope's id): the same on every retry and replay. Dedupe on it.", openapi3.NewUUIDSchema()),
		header("webhook-timestamp", "The event's created_at in Unix seconds, the same on every retry and replay: "+
			"accept timestamps up to 7 days old (the 72 h retry window plus replays).", openapi3.NewStringSchema().WithPattern(`^[0-9]+$`)),
		header("webhook-signature", "Space-separated v1,<base64 HMAC-SHA256> signatures (Standard Webhooks) over "+
			"\"{webhook-id}.{webhook-timestamp}.{body}\" with the endpoint's secret (whsec_…, base64 after the prefix); "+
			"two during a secret rotation's grace period. Verify against the raw body.", openapi3.NewStringSchema()),
		header("X-Webhook-ID", "The same value as webhook-id, for receivers that look for it.", openapi3.NewUUIDSchema()),
		header("User-Agent", "Ferry/<version>.", openapi3.NewStringSchema()),
		header("Content-Type", "application/json (format envelope).", openapi3.NewStringSchema().WithEnum("application/json")),
	}
}

// webhooks builds the document's webhooks section, adding the data
// schemas to s.
func (a API) webhooks(s *schemaSet) (map[string]*openapi3.PathItem, error) {
	if len(a.Webhooks) == 0 {
		return nil, nil
	}
	out := map[string]*openapi3.PathItem{}
	for _, w := range a.Webhooks {
		if w.Summary == "" || w.Description == "" || w.Example == nil {
			return nil, fmt.Errorf("webhook %s: needs a summary, a description and an example", w.Type)
		}
		if _, dup := out[w.Type]; dup {
			return nil, fmt.Errorf("webhook %s described twice", w.Type)
		}
		data := &openapi3.SchemaRef{Value: &openapi3.Schema{Description: "any JSON value but null: the data the tenant sent"}}
		if w.Data != nil {
			ref, err := s.schema(w.Data, responseSide)
			if err != nil {
				return nil, fmt.Errorf("webhook %s: %w", w.Type, err)
			}
			// The component is shared; the description of what it is
			// here sits beside its $ref.
			data = &openapi3.SchemaRef{Value: &openapi3.Schema{Description: "the event's data: " + w.Summary,
				AllOf: openapi3.SchemaRefs{ref}}}
		}
		typ := described(openapi3.NewStringSchema(), "The event's type.")
		if w.TypeEnum != nil {
			typ.Enum = Enum(w.TypeEnum...)
		}
		envelope := openapi3.NewObjectSchema().
			WithProperty("id", described(openapi3.NewUUIDSchema(), "The event's id; also in webhook-id.")).
			WithProperty("type", typ).
			WithProperty("created_at", described(openapi3.NewDateTimeSchema(),
				"When the event was accepted: UTC, three fractional digits, Z. Order by it, not by arrival.")).
			WithPropertyRef("data", data)
		envelope.Required = []string{"created_at", "data", "id", "type"}
		envelope.Description = "The envelope: the body of every request to an endpoint of format envelope."
		example, err := exampleValue(w.Example)
		if err != nil {
			return nil, fmt.Errorf("webhook %s example: %w", w.Type, err)
		}
		content := openapi3.NewContentWithJSONSchema(envelope)
		content.Get(jsonMedia).Example = example
		op := &openapi3.Operation{
			OperationID: "webhooks." + w.Type,
			Summary:     w.Summary,
			Description: w.Description,
			Tags:        []string{"webhooks"},
			Parameters:  webhookHeaders(),
			Security:    &openapi3.SecurityRequirements{},
			RequestBody: &openapi3.RequestBodyRef{Value: &openapi3.RequestBody{Required: true,
				Description: "The envelope, exactly the bytes signed.", Content: content}},
			Responses: openapi3.NewResponses(
				openapi3.WithName("2XX", &openapi3.Response{Description: ptr("Any 2xx acknowledges the delivery; the body is kept (first 4 KiB) but not read.")}),
				openapi3.WithName("4XX", &openapi3.Response{Description: ptr("400, 401, 403, 405, 406 and 422 drop the delivery: " +
					"it is not retried (replay it once fixed). Any other 4xx is retried.")}),
				openapi3.WithName("default", &openapi3.Response{Description: ptr("Anything else (3xx, 5xx, no answer within the " +
					"endpoint's timeout) is retried on the retry schedule for up to 72 h, then the delivery is exhausted.")}),
			),
		}
		if !validID(op.OperationID) {
			return nil, fmt.Errorf("webhook %s: operation id %q is not resource.action", w.Type, op.OperationID)
		}
		out[w.Type] = &openapi3.PathItem{Post: op}
	}
	return out, nil
}

// described sets s's description and returns s.
func described(s *openapi3.Schema, desc string) *openapi3.Schema {
	s.Description = desc
	return s
}
