// Package replay sends events again (docs/contract.md#replay): one event,
// one delivery, or, as a bulk replay job a Worker works through page by
// page, every delivery a filter matches. A replayed delivery goes back to
// pending and gets a job for its next attempt number with trigger
// "replay" and the actor who asked, committed with its outbox row in one
// transaction and then handed to the relay. Replays are metered like
// ingested events.
package replay

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/delivery"
)

// Limits is what replay asks of the tenant's plan; app plugs billing in.
type Limits interface {
	// Meter returns the limits as seen from tx, the open transaction of a
	// replay: what it counts commits or rolls back with it.
	Meter(tx dbtx.Tx) delivery.Meter
	// EventsPerSecond returns the tenant's plan limit on events per
	// second (0 = none); a bulk-replay page never re-queues more.
	// Errors: ENOTFOUND, wrapped database errors.
	EventsPerSecond(ctx context.Context, tenantID uuid.UUID) (int, error)
}

// Service replays events and manages bulk replay jobs.
type Service struct {
	db       *gorm.DB
	delivery *delivery.Service
	limits   Limits
	relay    delivery.Enqueuer
	log      *slog.Logger
	now      func() time.Time
}

// New returns a Service. svc makes the deliveries of endpoints that never
// had one (with their transformation); limits may be nil (no plan
// limits); relay publishes the replayed jobs once committed; now may be
// nil.
func New(db *gorm.DB, svc *delivery.Service, limits Limits, relay delivery.Enqueuer, log *slog.Logger, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, delivery: svc, limits: limits, relay: relay, log: log, now: now}
}
