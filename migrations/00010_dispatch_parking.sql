-- +goose Up
-- Jobs a dispatcher admitted from Kafka but had no room for: its lane, its
-- tenant or the worker was at its cap. The Kafka offset is committed once
-- the row is here, so the fetch loop never waits on one tenant; the owner
-- takes rows back into the lane, oldest first, as soon as it has room, and
-- deletes a row only once its attempt is logged. Rows of an owner whose
-- heartbeat in dispatch_workers is stale (a crash) are republished to
-- Kafka by any live worker. See README "Delivery guarantees" → fairness.
CREATE TABLE dispatch_workers (
    id            uuid PRIMARY KEY,
    heartbeat_at  timestamptz NOT NULL
);

CREATE TABLE parked_jobs (
    id           bigserial PRIMARY KEY,
    owner        uuid NOT NULL,
    endpoint_id  uuid NOT NULL,
    tenant_id    uuid NOT NULL,
    job          jsonb NOT NULL,
    claimed      boolean NOT NULL DEFAULT false,
    parked_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX parked_jobs_owner_endpoint_idx ON parked_jobs (owner, endpoint_id, id) WHERE NOT claimed;
CREATE INDEX parked_jobs_owner_idx ON parked_jobs (owner);

-- +goose Down
DROP TABLE parked_jobs;
DROP TABLE dispatch_workers;
