-- +goose Up
-- Bulk replay is shared fairly across tenants: a worker holds a job for
-- one turn of a few pages (claimed_until is its lease), then hands it
-- back; the next claim goes to the tenant whose jobs had a turn longest
-- ago (turn_at). A job its tenant's events-per-second limit holds back
-- waits until not_before.
ALTER TABLE replay_jobs
    ADD COLUMN claimed_until timestamptz,
    ADD COLUMN turn_at       timestamptz,
    ADD COLUMN not_before    timestamptz;

-- Open jobs per tenant: the 3-job limit and the fair claim.
CREATE INDEX replay_jobs_tenant_open_idx ON replay_jobs (tenant_id, turn_at) WHERE state IN ('queued', 'running');

-- +goose Down
DROP INDEX replay_jobs_tenant_open_idx;
ALTER TABLE replay_jobs DROP COLUMN not_before, DROP COLUMN turn_at, DROP COLUMN claimed_until;
