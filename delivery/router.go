package delivery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/delivery/routing/sandbox"
)

// Router evaluates endpoints' filters and runs their transformations. One
// per process is shared by ingest and by operational events (whose
// emitters start before the Service), so both route alike, every compiled
// filter is cached once, and every transformation, from any path, counts
// against its tenant's share of one sandbox pool.
type Router struct {
	filters *routing.Filters
	// filterErrors counts failed filter evaluations per endpoint, for
	// Service.FlushFilterErrors to record on the endpoints.
	filterErrors filterErrorLog
	transforms   *sandbox.Pool
	log          *slog.Logger
}

// NewRouter returns a Router with the given filter and transformation
// settings (zero values take the defaults). Transformations run in
// worker processes started from this executable, which must call
// sandbox.MainHook first thing (the ferry command and the test binaries
// of packages that run transformations do). Close it when done.
func NewRouter(filters routing.Config, transforms sandbox.Config, log *slog.Logger) (*Router, error) {
	f, err := routing.NewFilters(filters)
	if err != nil {
		return nil, fmt.Errorf("delivery.NewRouter: %w", err)
	}
	pool, err := sandbox.New(transforms, log)
	if err != nil {
		return nil, fmt.Errorf("delivery.NewRouter: %w", err)
	}
	return &Router{filters: f, transforms: pool, log: log}, nil
}

// Close stops the transformation workers.
func (r *Router) Close() error { return r.transforms.Close() }

// accepts evaluates an endpoint's filter on ev. An evaluation error is
// "not matched": it is logged (and counted by routing.Filters), never
// returned, so no filter can fail an ingest.
func (r *Router) accepts(tenantID uuid.UUID, ev Event, in *routing.Input, endpointID uuid.UUID, filter string) bool {
	if filter == "" {
		return true
	}
	ok, err := r.filters.Eval(filter, in)
	if err != nil {
		r.filterErrors.add(tenantID, endpointID, err.Error())
		r.log.Warn("endpoint filter failed; event not routed to it", "tenant_id", tenantID, "event_id", ev.ID,
			"endpoint_id", endpointID, "err", err)
	}
	return ok
}

// check validates a transformation about to be saved (see
// sandbox.Pool.Check).
func (r *Router) check(ctx context.Context, tenantID uuid.UUID, src string) error {
	err := r.transforms.Check(ctx, routing.Source{Tenant: tenantID.String(), Code: src})
	if errors.Is(err, sandbox.ErrUnavailable) {
		return sandboxUnavailable("check transformation", err)
	}
	return err
}
