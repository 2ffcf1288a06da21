-- +goose Up
-- Billing (README, Plans and billing): plans, per-tenant overrides, plan history, usage
-- metering, rate windows, invoices.

-- Plans are rows, editable in the database; amounts are integer minor
-- currency units (cents). overage_price_minor is charged per started block
-- of overage_unit_events events beyond events_per_month on plans that are
-- not hard-capped.
CREATE TABLE plans (
    name                 text PRIMARY KEY,
    display_name         text NOT NULL,
    events_per_month     bigint NOT NULL CHECK (events_per_month >= 0),
    max_endpoints        integer NOT NULL CHECK (max_endpoints >= 0),
    retention_days       integer NOT NULL CHECK (retention_days >= 1),
    events_per_second    integer NOT NULL CHECK (events_per_second >= 1),
    hard_cap             boolean NOT NULL,
    base_fee_minor       bigint NOT NULL DEFAULT 0 CHECK (base_fee_minor >= 0),
    overage_unit_events  bigint NOT NULL DEFAULT 10000 CHECK (overage_unit_events >= 1),
    overage_price_minor  bigint NOT NULL DEFAULT 0 CHECK (overage_price_minor >= 0),
    currency             text NOT NULL DEFAULT 'USD',
    self_serve           boolean NOT NULL DEFAULT true,
    sort_order           integer NOT NULL DEFAULT 0
);

INSERT INTO plans (name, display_name, events_per_month, max_endpoints, retention_days, events_per_second,
                   hard_cap, base_fee_minor, overage_unit_events, overage_price_minor, currency, self_serve, sort_order)
VALUES
    ('free',       'Free',       10000,    3,    3,  10,   true,  0,    10000, 0,   'USD', true,  1),
    ('pro',        'Pro',        1000000,  50,   30, 200,  false, 4900, 10000, 100, 'USD', true,  2),
    ('enterprise', 'Enterprise', 10000000, 1000, 30, 2000, false, 0,    10000, 50,  'USD', false, 3);

ALTER TABLE tenants ADD CONSTRAINT tenants_plan_fkey FOREIGN KEY (plan) REFERENCES plans (name) ON UPDATE CASCADE;

-- Custom terms for one tenant while it is on one plan (enterprise
-- contracts, or a tighter test quota): a NULL column keeps the plan's value.
CREATE TABLE plan_overrides (
    tenant_id            uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    plan                 text NOT NULL REFERENCES plans (name) ON UPDATE CASCADE,
    events_per_month     bigint CHECK (events_per_month >= 0),
    max_endpoints        integer CHECK (max_endpoints >= 0),
    retention_days       integer CHECK (retention_days >= 1),
    events_per_second    integer CHECK (events_per_second >= 1),
    base_fee_minor       bigint CHECK (base_fee_minor >= 0),
    overage_price_minor  bigint CHECK (overage_price_minor >= 0),
    PRIMARY KEY (tenant_id, plan)
);

-- Every plan change; invoices pro-rate base fees from this history.
CREATE TABLE plan_changes (
    id          bigserial PRIMARY KEY,
    tenant_id   uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    from_plan   text NOT NULL,
    to_plan     text NOT NULL,
    actor       text NOT NULL DEFAULT '',
    changed_at  timestamptz NOT NULL
);
CREATE INDEX plan_changes_tenant_idx ON plan_changes (tenant_id, changed_at);

-- Events accepted per tenant per calendar month (UTC), incremented in the
-- ingest transaction. A paid tenant's increments spread over slots to avoid
-- one hot row; the month's total is the sum of its slots.
CREATE TABLE usage_counters (
    tenant_id  uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    period     date NOT NULL,
    slot       smallint NOT NULL,
    events     bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, period, slot)
);

-- Attempts made per tenant per UTC day, counted from the attempt log by
-- the billing job (monotonic: GREATEST of every count taken).
CREATE TABLE attempt_usage_days (
    tenant_id  uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    day        date NOT NULL,
    attempts   bigint NOT NULL,
    PRIMARY KEY (tenant_id, day)
);

-- The last UTC day whose attempts are final and counted: the job meters
-- from the day after it, so an outage longer than a plan's retention
-- still counts every attempt before pruning.
CREATE TABLE attempt_metering (
    id             boolean PRIMARY KEY DEFAULT true CHECK (id),
    final_through  date NOT NULL
);

-- Per-second ingest windows for the plan's events/s limit, shared by every
-- replica. Unlogged: losing them in a crash only resets one second.
CREATE UNLOGGED TABLE rate_windows (
    tenant_id  uuid NOT NULL,
    second     bigint NOT NULL,
    slot       smallint NOT NULL,
    events     integer NOT NULL,
    PRIMARY KEY (tenant_id, second, slot)
);

CREATE TABLE invoices (
    id                  uuid PRIMARY KEY,
    tenant_id           uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    period              date NOT NULL,
    currency            text NOT NULL,
    total_minor         bigint NOT NULL,
    events              bigint NOT NULL,
    attempts            bigint NOT NULL,
    status              text NOT NULL CHECK (status IN ('open', 'paid', 'payment_failed')),
    payment_reference   text NOT NULL DEFAULT '',
    payment_error       text NOT NULL DEFAULT '',
    payment_attempts    integer NOT NULL DEFAULT 0,
    created_at          timestamptz NOT NULL,
    paid_at             timestamptz,
    UNIQUE (tenant_id, period)
);
CREATE INDEX invoices_collect_idx ON invoices (status) WHERE status <> 'paid';

CREATE TABLE invoice_lines (
    invoice_id        uuid NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
    line_no           integer NOT NULL,
    kind              text NOT NULL CHECK (kind IN ('base_fee', 'overage')),
    plan              text NOT NULL,
    description       text NOT NULL,
    quantity          bigint NOT NULL,
    unit_price_minor  bigint NOT NULL,
    amount_minor      bigint NOT NULL,
    PRIMARY KEY (invoice_id, line_no)
);

-- A completed invoice run for a period; the periodic job skips it after.
CREATE TABLE invoice_runs (
    period        date PRIMARY KEY,
    completed_at  timestamptz NOT NULL
);

-- +goose Down
DROP TABLE invoice_runs;
DROP TABLE invoice_lines;
DROP TABLE invoices;
DROP TABLE rate_windows;
DROP TABLE attempt_metering;
DROP TABLE attempt_usage_days;
DROP TABLE usage_counters;
DROP TABLE plan_changes;
DROP TABLE plan_overrides;
ALTER TABLE tenants DROP CONSTRAINT tenants_plan_fkey;
DROP TABLE plans;
