package httpapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ferry-dev/ferry/delivery"
)

// TestOpenAPIStatesEndpointLimits: the ranges and defaults the document
// gives for an endpoint's settings are the ones delivery enforces. The
// descriptions come from doc comments, which once said 15 and 10 where
// the code defaulted to 10 and 16.
func TestOpenAPIStatesEndpointLimits(t *testing.T) {
	t.Parallel()
	b, err := documentBytes("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Description string `json:"description"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		schema, property, want string
	}{
		{"EndpointInput", "timeout_seconds", fmt.Sprintf("(1-%d, default %d)", delivery.MaxTimeoutSeconds, delivery.DefaultTimeoutSeconds)},
		{"EndpointInput", "max_in_flight", fmt.Sprintf("(1-%d, default %d)", delivery.MaxMaxInFlight, delivery.DefaultMaxInFlight)},
		{"EndpointPatch", "timeout_seconds", fmt.Sprintf("(1-%d)", delivery.MaxTimeoutSeconds)},
		{"EndpointPatch", "max_in_flight", fmt.Sprintf("(1-%d)", delivery.MaxMaxInFlight)},
	}
	for _, tt := range tests {
		got := doc.Components.Schemas[tt.schema].Properties[tt.property].Description
		if !strings.HasSuffix(got, tt.want) {
			t.Errorf("%s.%s is described %q, want it to end %q", tt.schema, tt.property, got, tt.want)
		}
	}
}
