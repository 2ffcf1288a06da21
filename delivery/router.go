package delivery

import (
	"fmt"
	"log/slog"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/routing"
)

// Router evaluates endpoints' filters and runs their transformations. One
// per process is shared by ingest and by operational events (whose
// emitters start before the Service), so both route alike and every
// compiled filter and program is cached once.
type Router struct {
	filters    *routing.Filters
	transforms *routing.Transformer
	log        *slog.Logger
}

// NewRouter returns a Router with the given filter and transformation
// settings (zero values take the defaults).
func NewRouter(filters routing.Config, transforms routing.TransformConfig, log *slog.Logger) (*Router, error) {
	f, err := routing.NewFilters(filters)
	if err != nil {
		return nil, fmt.Errorf("delivery.NewRouter: %w", err)
	}
	return &Router{filters: f, transforms: routing.NewTransformer(transforms), log: log}, nil
}

// accepts evaluates an endpoint's filter on ev. An evaluation error is
// "not matched": it is logged (and counted by routing.Filters), never
// returned, so no filter can fail an ingest.
func (r *Router) accepts(tenantID uuid.UUID, ev Event, in *routing.Input, endpointID uuid.UUID, filter string) bool {
	if filter == "" {
		return true
	}
	ok, err := r.filters.Eval(filter, in)
	if err != nil {
		r.log.Warn("endpoint filter failed; event not routed to it", "tenant_id", tenantID, "event_id", ev.ID,
			"endpoint_id", endpointID, "err", err)
	}
	return ok
}
