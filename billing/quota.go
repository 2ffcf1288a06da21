package billing

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
)

// usageSlots is how many counter rows a paid tenant's increments spread
// over, per month and per second (see the package doc).
const usageSlots = 16

// Meter is billing inside one transaction of another domain (an ingest,
// an endpoint creation): its counters and checks run in that transaction,
// so they commit or roll back with it. Get one per transaction from
// Service.Meter; app hands it to delivery as a delivery.Meter.
type Meter struct {
	s  *Service
	tx dbtx.Tx
}

// Meter returns billing's meter for tx, an open transaction owned by the
// caller, who commits or rolls it back.
func (s *Service) Meter(tx dbtx.Tx) *Meter { return &Meter{s: s, tx: tx} }

// ConsumeEvents meters n accepted events for tenantID in the meter's
// transaction (the ingest's): the month's usage counter and the current
// second's rate window are incremented there, so both roll back with a
// refused or failed ingest. Errors: ERATELIMIT (events/s over the plan's
// limit, Retry-After 1), EQUOTA (a hard-capped plan's monthly events used
// up, Retry-After until next month), EPAYMENT (an invoice is overdue;
// see PaymentGrace), ENOTFOUND, wrapped database errors.
func (m *Meter) ConsumeEvents(ctx context.Context, tenantID uuid.UUID, n int) error {
	if n <= 0 {
		return nil
	}
	plan, err := m.s.deps.Tenants.TenantPlan(ctx, m.tx, tenantID)
	if err != nil {
		return fmt.Errorf("load plan of tenant %s: %w", tenantID, err)
	}
	st := m.s.consumeStatement(tenantID, plan, n, false)
	db := m.tx.DB(ctx)
	// Straight to database/sql: the statement's parameters are numbered
	// already ($n), as Pipeline's pgx batches need them.
	_, err = st.check(db.Statement.ConnPool.QueryRowContext(ctx, st.query, st.args...))
	return err
}

// consumption is the statement metering n events of a tenant, ready to
// run, and what its answer is checked against.
type consumption struct {
	tenantID uuid.UUID
	n        int
	now      time.Time
	query    string
	args     []any
}

// consumeStatement is the statement of ConsumeEvents for n events of
// tenantID, on plan.
//
// Hand-written: this runs in every ingest transaction, where each round
// trip holds a committer that other events queue behind. So the terms
// (termsSQL), the second's rate window and the month's counter are one
// statement. A tenant whose payment is overdue increments nothing; a
// refused increment rolls back with the ingest. An upsert's RETURNING
// sees its slot's latest committed value (it waits for the row lock);
// other slots are read from the snapshot.
//
// With raise, a refusal makes the statement fail (billing_refuse, with
// the row in its DETAIL), so that a COMMIT sent after it in the same
// round trip (Pipeline) finds the transaction aborted.
func (s *Service) consumeStatement(tenantID uuid.UUID, plan string, n int, raise bool) consumption {
	now := s.clock.Now().UTC()
	period := MonthStart(now)
	// GORM only numbers the named parameters: the statement runs on
	// database/sql or on a pgx batch.
	st := s.db.Session(&gorm.Session{DryRun: true, NewDB: true}).Raw(`WITH terms AS (`+termsSQL+`),
		counted AS (
			SELECT CASE WHEN hard_cap THEN 0 ELSE @slot END AS slot FROM terms WHERE NOT payment_overdue),
		rate AS (
			INSERT INTO rate_windows (tenant_id, second, slot, events) SELECT @tenant, @second, slot, @n FROM counted
			ON CONFLICT (tenant_id, second, slot) DO UPDATE SET events = rate_windows.events + EXCLUDED.events
			RETURNING slot, events),
		usage AS (
			INSERT INTO usage_counters (tenant_id, period, slot, events) SELECT @tenant, @period, slot, @n FROM counted
			ON CONFLICT (tenant_id, period, slot) DO UPDATE SET events = usage_counters.events + EXCLUDED.events
			RETURNING slot, events),
		counts AS (
			SELECT terms.display_name, terms.events_per_second, terms.events_per_month, terms.hard_cap, terms.payment_overdue,
				coalesce((SELECT events FROM rate) + coalesce((SELECT sum(w.events) FROM rate_windows w
					WHERE w.tenant_id = @tenant AND w.second = @second AND w.slot <> (SELECT slot FROM rate)), 0), 0) AS in_second,
				coalesce(CASE WHEN terms.hard_cap THEN (SELECT events FROM usage) + coalesce((SELECT sum(u.events) FROM usage_counters u
					WHERE u.tenant_id = @tenant AND u.period = @period AND u.slot <> (SELECT slot FROM usage)), 0) END, 0) AS in_month
			FROM terms)
		SELECT c.*, CASE WHEN @raise AND (c.payment_overdue OR c.in_second > c.events_per_second
				OR (c.hard_cap AND c.in_month > c.events_per_month))
			THEN billing_refuse(row_to_json(c)::text) END AS refused
		FROM counts c`,
		sql.Named("tenant", tenantID), sql.Named("plan", plan), sql.Named("overdue_before", now.Add(-PaymentGrace)),
		sql.Named("slot", s.rand(usageSlots)), sql.Named("second", now.Unix()), sql.Named("period", period),
		sql.Named("n", n), sql.Named("raise", raise)).Statement
	return consumption{tenantID: tenantID, n: n, now: now, query: st.SQL.String(), args: st.Vars}
}

// metered is the metering statement's row: the terms it checked and
// the counts with the new events. DETAIL of billing_refuse is the same
// row as JSON.
type metered struct {
	DisplayName    string `json:"display_name"`
	PerSecond      int    `json:"events_per_second"`
	PerMonth       int64  `json:"events_per_month"`
	HardCap        bool   `json:"hard_cap"`
	PaymentOverdue bool   `json:"payment_overdue"`
	InSecond       int64  `json:"in_second"`
	InMonth        int64  `json:"in_month"`
}

// refusedCode is billing_refuse's SQLSTATE (migrations/00270_metering_refusal.sql).
const refusedCode = "FYREF"

// check reads the statement's answer from row and returns the refusal
// it means, if any, with how many of the n events would have been
// accepted (fewer than n when refused). A row the statement refused
// with billing_refuse is read from the error's DETAIL. Errors:
// EPAYMENT, ERATELIMIT, EQUOTA, ENOTFOUND (no such plan), wrapped
// database errors.
func (c consumption) check(row interface{ Scan(...any) error }) (fits int, err error) {
	var m metered
	var refused *bool
	err = row.Scan(&m.DisplayName, &m.PerSecond, &m.PerMonth, &m.HardCap, &m.PaymentOverdue, &m.InSecond, &m.InMonth, &refused)
	if pgErr, ok := errors.AsType[*pgconn.PgError](err); ok && pgErr.Code == refusedCode {
		if err := json.Unmarshal([]byte(pgErr.Detail), &m); err != nil {
			return 0, fmt.Errorf("meter %d events of tenant %s: read the refusal: %w", c.n, c.tenantID, err)
		}
		err = nil
	}
	if errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows) {
		return 0, ferry.NotFound("plan")
	}
	if err != nil {
		return 0, fmt.Errorf("meter %d events of tenant %s: %w", c.n, c.tenantID, err)
	}
	return c.judge(m)
}

// judge returns the refusal m means, if any, and how many of the n
// events would fit.
func (c consumption) judge(m metered) (fits int, err error) {
	if m.PaymentOverdue {
		return 0, &ferry.Error{Code: ferry.EPAYMENT, Message: fmt.Sprintf("an invoice has been unpaid for more than %d days; "+
			"pay it (see the billing page) to send events again", int(PaymentGrace/(24*time.Hour)))}
	}
	n := int64(c.n)
	if m.InSecond > int64(m.PerSecond) {
		fits := min(n-1, int64(m.PerSecond)-(m.InSecond-n))
		if m.HardCap && m.InMonth > m.PerMonth {
			fits = min(fits, m.PerMonth-(m.InMonth-n))
		}
		return int(max(fits, 0)), &ferry.Error{Code: ferry.ERATELIMIT, RetryAfterSeconds: 1,
			Message: fmt.Sprintf("the %s plan accepts %d events per second; slow down and retry", m.DisplayName, m.PerSecond)}
	}
	if m.HardCap && m.InMonth > m.PerMonth {
		return int(max(min(n-1, m.PerMonth-(m.InMonth-n)), 0)), &ferry.Error{Code: ferry.EQUOTA,
			RetryAfterSeconds: secondsUntilNextMonth(c.now),
			Message: fmt.Sprintf("the %s plan's %d events for %s are used up; upgrade your plan or wait until next month",
				m.DisplayName, m.PerMonth, FormatPeriod(MonthStart(c.now)))}
	}
	return c.n, nil
}

// Pipeline is billing's metering of events whose statements travel in
// the caller's pgx batches, sharing their round trips: an ingest queues
// QueuePlans with its first batch (its reads) and QueueConsumeEvents,
// with the plans read, in the batch that writes its rows, in the same
// transaction. Get one per transaction from Service.Pipeline.
type Pipeline struct {
	s     *Service
	plans map[uuid.UUID]*planRead
}

// planRead is a tenant's plan as a batch read it.
type planRead struct {
	name string
	err  error
}

// Pipeline returns a metering for one transaction's batches.
func (s *Service) Pipeline() *Pipeline { return &Pipeline{s: s, plans: map[uuid.UUID]*planRead{}} }

// QueuePlans queues onto b the reads of tenants' plans, which
// QueueConsumeEvents needs once b has run.
func (p *Pipeline) QueuePlans(b *pgx.Batch, tenants []uuid.UUID) {
	for _, id := range tenants {
		if _, ok := p.plans[id]; ok {
			continue
		}
		r := &planRead{}
		p.plans[id] = r
		p.s.deps.Tenants.QueueTenantPlan(b, id, func(plan string, err error) {
			r.name, r.err = plan, err
		})
	}
}

// QueueConsumeEvents queues onto b the metering of n events of tenantID,
// whose plan a batch queued by QueuePlans has read. A refusal aborts the
// transaction (so a COMMIT queued after it on b does not commit) and
// fails b. check, called once b has run, returns what ConsumeEvents
// would: nil, or the refusal with how many of the n events the plan
// would have accepted, or an error (also when the statement did not run,
// b having failed before it).
func (p *Pipeline) QueueConsumeEvents(b *pgx.Batch, tenantID uuid.UUID, n int) (check func() (fits int, err error)) {
	r, ok := p.plans[tenantID]
	switch {
	case n <= 0:
		return func() (int, error) { return 0, nil }
	case !ok:
		return func() (int, error) { return 0, fmt.Errorf("meter tenant %s: its plan was not queued", tenantID) }
	case r.err != nil:
		return func() (int, error) { return 0, fmt.Errorf("load plan of tenant %s: %w", tenantID, r.err) }
	}
	st := p.s.consumeStatement(tenantID, r.name, n, true)
	fits, answer := 0, fmt.Errorf("meter %d events of tenant %s: the statement did not run", n, tenantID)
	b.Queue(st.query, st.args...).QueryRow(func(row pgx.Row) error {
		fits, answer = st.check(row)
		// A refusal aborted the transaction: the batch ends here.
		return answer
	})
	return func() (int, error) { return fits, answer }
}

// CheckEndpointLimit returns EPLANLIMIT when tenantID already has as many
// endpoints as its plan allows. It takes the tenant's billing lock in the
// meter's transaction (the endpoint creation's), so concurrent creations
// and plan changes cannot overshoot the limit. Errors: EPLANLIMIT,
// ENOTFOUND, wrapped database errors.
func (m *Meter) CheckEndpointLimit(ctx context.Context, tenantID uuid.UUID) error {
	if err := lockTenant(m.tx.DB(ctx), tenantID); err != nil {
		return err
	}
	ent, err := m.s.entitlements(ctx, m.tx, tenantID)
	if err != nil {
		return err
	}
	count, err := m.s.countEndpoints(ctx, m.tx, tenantID)
	if err != nil {
		return err
	}
	if count >= int64(ent.MaxEndpoints) {
		return &ferry.Error{Code: ferry.EPLANLIMIT,
			Message: fmt.Sprintf("the %s plan allows %d endpoints; delete one or upgrade your plan", ent.DisplayName, ent.MaxEndpoints)}
	}
	return nil
}

// lockTenant takes a transaction-scoped advisory lock on the tenant's
// billing state (endpoint count and plan).
func lockTenant(tx *gorm.DB, tenantID uuid.UUID) error {
	// Hand-written: an advisory lock has no query-builder form.
	if err := tx.Exec(`SELECT pg_advisory_xact_lock(hashtextextended('ferry.billing:' || ?::text, 0))`, tenantID).Error; err != nil {
		return fmt.Errorf("lock billing of tenant %s: %w", tenantID, err)
	}
	return nil
}

// countEndpoints asks delivery how many live endpoints tenantID has, in
// tx.
func (s *Service) countEndpoints(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID) (int64, error) {
	n, err := s.deps.Endpoints.CountEndpoints(ctx, tx, tenantID)
	if err != nil {
		return 0, fmt.Errorf("count endpoints of tenant %s: %w", tenantID, err)
	}
	return n, nil
}
