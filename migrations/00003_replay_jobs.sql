-- +goose Up
-- Bulk replay jobs (docs/contract.md#replay). A worker claims a job with
-- FOR UPDATE SKIP LOCKED, replays matching deliveries page by page in
-- (created_at, id) order, and records its position after each page, so
-- a job resumes where it stopped after a restart.
CREATE TABLE replay_jobs (
    id             uuid PRIMARY KEY,
    tenant_id      uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    actor          text NOT NULL,
    reason         text NOT NULL DEFAULT '',
    endpoint_id    uuid,
    event_type     text NOT NULL DEFAULT '',
    since          timestamptz,
    until          timestamptz,
    status_filter  text NOT NULL DEFAULT '',
    state          text NOT NULL DEFAULT 'queued'
                   CHECK (state IN ('queued', 'running', 'completed', 'cancelled', 'failed')),
    total          integer NOT NULL DEFAULT 0,
    done           integer NOT NULL DEFAULT 0,
    cursor_at      timestamptz,
    cursor_id      uuid,
    error          text NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    started_at     timestamptz,
    finished_at    timestamptz
);
CREATE INDEX replay_jobs_tenant_idx ON replay_jobs (tenant_id, created_at DESC);
CREATE INDEX replay_jobs_open_idx ON replay_jobs (created_at) WHERE state IN ('queued', 'running');

-- Bulk replay scans a tenant's deliveries by time.
CREATE INDEX deliveries_tenant_created_idx ON deliveries (tenant_id, created_at, id);

-- Staff audit log: listing by tenant.
CREATE INDEX audit_log_tenant_idx ON audit_log (tenant_id, created_at DESC);

-- +goose Down
DROP INDEX audit_log_tenant_idx;
DROP INDEX deliveries_tenant_created_idx;
DROP TABLE replay_jobs;
