package billing

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/dbtx"
)

// Deps are what billing asks other domains for. billing never names their
// tables; app plugs in the packages that own them. Every field is
// required.
type Deps struct {
	// Tenants lists the tenants to bill and stores which plan each is on.
	Tenants TenantPlans
	// Endpoints counts a tenant's live endpoints for the endpoint limit.
	Endpoints EndpointCounter
	// Attempts counts and prunes the attempt log.
	Attempts AttemptLog
}

func (d Deps) complete() bool {
	return d.Tenants != nil && d.Endpoints != nil && d.Attempts != nil
}

// TenantPlans is what billing needs from tenants: which tenants exist,
// since when, and which plan each is on. The plan assignment is a column
// of the tenant's record, owned by tenants; billing owns the plans it
// names and their history (plan_changes). tenants.Service satisfies it.
type TenantPlans interface {
	// TenantPlan returns the name of tenantID's current plan, read in tx.
	// Errors: ENOTFOUND (no such tenant), wrapped database errors.
	TenantPlan(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID) (string, error)
	// QueueTenantPlan queues onto b the read of tenantID's current plan;
	// set gets it, or ENOTFOUND, when b runs (Pipeline).
	QueueTenantPlan(b *pgx.Batch, tenantID uuid.UUID, set func(plan string, err error))
	// SetTenantPlan assigns plan to tenantID in tx, so the assignment
	// commits with billing's record of the change. Errors: ENOTFOUND (no
	// such tenant), wrapped database errors (plan names no plan).
	SetTenantPlan(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID, plan string) error
	// EachTenant calls fn for every tenant created before before (every
	// tenant when before is zero), oldest first, with its plan and
	// creation time. The list is read before the first call, so fn may
	// use the database. fn's error stops the walk and is returned.
	// Errors: fn's, wrapped database errors.
	EachTenant(ctx context.Context, before time.Time, fn func(id uuid.UUID, plan string, createdAt time.Time) error) error
}

// EndpointCounter is what billing needs from delivery's endpoints: how
// many a tenant has, for the plan's endpoint limit.
// delivery.EndpointCounter satisfies it.
type EndpointCounter interface {
	// CountEndpoints returns how many live (not deleted) endpoints
	// tenantID has, read in tx. Errors: wrapped database errors.
	CountEndpoints(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID) (int64, error)
}

// AttemptLog is what billing needs from delivery's attempt log: attempts
// to meter, and pruning past each tenant's plan retention.
// attemptlog.Usage satisfies it.
type AttemptLog interface {
	// CountAttempts returns how many attempts each tenant started in
	// [from, to); tenants without any are absent. Errors: wrapped
	// database errors.
	CountAttempts(ctx context.Context, from, to time.Time) (map[uuid.UUID]int64, error)
	// PruneAttempts deletes the attempts of each tenant in cutoffs that
	// started at or after floor and before the tenant's cutoff, and
	// returns how many went. Errors: wrapped database errors.
	PruneAttempts(ctx context.Context, floor time.Time, cutoffs map[uuid.UUID]time.Time) (int64, error)
}

// InvoiceNotifier hears of invoices once they are issued, to tell the
// tenant's owners. It must not block: it runs on the invoice run's
// goroutine. notify.Mailer satisfies it.
type InvoiceNotifier interface {
	InvoiceIssued(ctx context.Context, inv Invoice)
}
