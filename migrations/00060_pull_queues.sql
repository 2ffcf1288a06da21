-- +goose Up
-- Pull queues: an endpoint of kind 'queue' has no URL; its deliveries get
-- no Kafka job and wait in this table until a consumer leases them
-- (delivery/queue). A live lease is lease_until > now() with lease_id as
-- the single-use part of the receipt; leased_at starts the attempt that
-- the ack, nack, reject or expiry of the lease ends.
ALTER TABLE endpoints ADD COLUMN kind text NOT NULL DEFAULT 'http' CHECK (kind IN ('http', 'queue'));

ALTER TABLE deliveries
    ADD COLUMN lease_id     uuid,
    ADD COLUMN leased_at    timestamptz,
    ADD COLUMN lease_until  timestamptz;

-- Pull reads the head of one queue: unfinished deliveries of the
-- endpoint in acceptance order. Finished rows leave the index.
CREATE INDEX deliveries_queue_head_idx ON deliveries (endpoint_id, created_at, id)
    WHERE status IN ('pending', 'retrying');
-- The sweeper finds leases that ran out.
CREATE INDEX deliveries_lease_idx ON deliveries (lease_until) WHERE lease_until IS NOT NULL;

-- Consumer tokens may use only their queue's routes. Like API keys, only
-- the SHA-256 of the token is stored.
CREATE TABLE queue_consumer_tokens (
    id            uuid PRIMARY KEY,
    tenant_id     uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    endpoint_id   uuid NOT NULL REFERENCES endpoints(id) ON DELETE CASCADE,
    name          text NOT NULL,
    prefix        text NOT NULL,
    token_hash    bytea NOT NULL UNIQUE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    revoked_at    timestamptz
);
CREATE INDEX queue_consumer_tokens_endpoint_idx ON queue_consumer_tokens (endpoint_id, created_at DESC);

-- +goose Down
DROP TABLE queue_consumer_tokens;
DROP INDEX deliveries_lease_idx;
DROP INDEX deliveries_queue_head_idx;
ALTER TABLE deliveries DROP COLUMN lease_until, DROP COLUMN leased_at, DROP COLUMN lease_id;
ALTER TABLE endpoints DROP COLUMN kind;
