// Package billing owns Ferry's plans, usage metering, quotas, invoices and
// payment collection.
//
// # Plans
//
// Plans are rows of the plans table (seeded by migration 00004 with free,
// pro and enterprise, editable in the database). A tenant's terms are its
// plan's row with any plan_overrides row for (tenant, plan) laid over it;
// staff write overrides for enterprise contracts. Entitlements is that
// merged view.
//
// # Metering
//
// Events: delivery asks Service.Meter for a Meter on its ingest
// transaction (a dbtx.Tx; app adapts Service to delivery.Limits).
// Meter.ConsumeEvents UPSERTs the tenant's usage_counters row for the
// calendar month (UTC) in that transaction, so the counter commits or rolls
// back with the event itself: the monthly total equals the events accepted, across any number
// of replicas. Hard-capped plans (free) count in one row whose row lock
// serialises concurrent ingests, so RETURNING gives the exact running total
// and the cap is never exceeded; paid plans spread increments over
// usageSlots rows (the total is their sum) so one busy tenant does not
// serialise its own ingest on a single hot row.
//
// Attempts: the attempt log belongs to delivery and is written in COPY
// batches; billing does not hook into it (a trigger would add work and a
// failure mode to the delivery hot path). Instead MeterAttempts asks the
// attempt log (AttemptLog) for each UTC day's count per tenant and stores
// it in attempt_usage_days with GREATEST, which is idempotent and exact because
// attempt rows are immutable and only ever removed by retention. The job
// counts every day since the last final one on each run (normally today
// and yesterday; the attempt log flushes within seconds) before it prunes,
// and the invoice run recounts the whole period first, so every attempt is
// counted before it can be pruned. The monthly total is the sum of the
// month's days; it trails the attempt log by at most one job interval.
//
// # Quotas
//
//   - Monthly events on a hard-capped plan: EQUOTA (429 quota_exceeded) with
//     RetryAfterSeconds until the next month starts (UTC).
//   - Events per second: a per-second window in rate_windows, incremented
//     in the same transaction and shared by replicas; over the limit gives
//     ERATELIMIT with Retry-After 1. Like the usage counter it is one row on
//     hard-capped plans (exact) and spread over slots on paid plans, where a
//     burst may overshoot by at most the number of concurrent uncommitted
//     ingests.
//   - Endpoints: Meter.CheckEndpointLimit asks delivery (EndpointCounter)
//     for the live endpoints, in the creating transaction and under a
//     per-tenant advisory lock shared with plan changes, and returns
//     EPLANLIMIT.
//   - Paid plans never refuse for volume; events beyond the included amount
//     are billed as overage.
//   - Overdue invoices: an invoice unpaid PaymentGrace (14 days) after it
//     was issued makes ConsumeEvents refuse with EPAYMENT (402) until it
//     is paid or staff lift the restriction (LiftPaymentRestriction). The
//     check rides in the same query as the plan terms.
//
// # Payment methods
//
// Moving to a self-serve plan with a fee needs a payment method the
// PaymentProvider accepts (SetupPaymentMethod, asked before the plan
// change's transaction); payment_methods keeps the provider's reference
// and a label, never card data. Without a provider, such changes answer
// EPAYMENT; operators assign plans with AssignPlan regardless.
//
// # Invoices
//
// RunInvoices(period) issues one invoice per tenant and finished calendar
// month with line items in minor units: the base fee of every plan held
// during the month, pro-rated by the seconds held, and overage for the
// whole month's events priced by the last plan held that bills overage. An
// invoice and its lines are inserted in one transaction guarded by
// UNIQUE (tenant_id, period), so the run is safe to repeat. Collection goes
// through PaymentProvider with the invoice id as idempotency key.
//
// # Retention
//
// The attempt-log partition job drops whole days past the longest plan
// retention (MaxRetention); PruneAttempts computes each tenant's cutoff
// from its plan and asks the attempt log to delete the older attempts of
// tenants whose plan keeps less.
//
// # Boundaries
//
// billing owns plans, plan_overrides, plan_changes, usage_counters,
// rate_windows, attempt_usage_days, attempt_metering, invoices,
// invoice_lines, invoice_runs and payment_methods, and names no other
// table. What it needs
// from other domains it asks through the interfaces in deps.go, which app
// satisfies with tenants (tenants and their plan assignment, a column of
// the tenants table) and delivery (endpoint and attempt counts, pruning).
// Work that must commit with another domain's transaction takes a
// dbtx.Tx. billing imports neither delivery nor tenants.
//
// # Storage
//
// CRUD goes through the GORM models in rows.go. Hand-written SQL remains
// where it earns its keep, each with its reason: the ingest counters
// (UPSERT ... RETURNING), the plan terms read on every ingest, and the
// advisory lock.
package billing
