-- +goose Up
-- Tenancy and identity (docs/contract.md#tenancy).
CREATE TABLE tenants (
    id          uuid PRIMARY KEY,
    name        text NOT NULL,
    plan        text NOT NULL DEFAULT 'free',
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
    id             uuid PRIMARY KEY,
    tenant_id      uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    email          text NOT NULL,
    password_hash  text NOT NULL,
    role           text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_tenant_idx ON users (tenant_id);

CREATE TABLE staff (
    id             uuid PRIMARY KEY,
    email          text NOT NULL,
    password_hash  text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX staff_email_key ON staff (lower(email));

CREATE TABLE api_keys (
    id            uuid PRIMARY KEY,
    tenant_id     uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    name          text NOT NULL,
    prefix        text NOT NULL,
    key_hash      bytea NOT NULL UNIQUE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz,
    revoked_at    timestamptz
);
CREATE INDEX api_keys_tenant_idx ON api_keys (tenant_id, created_at DESC);

-- Failed logins per email, for brute-force throttling shared by replicas.
CREATE TABLE login_failures (
    email       text NOT NULL,
    failed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_email_idx ON login_failures (lower(email), failed_at);

CREATE TABLE audit_log (
    id           bigserial PRIMARY KEY,
    staff_id     uuid REFERENCES staff(id),
    actor_email  text NOT NULL,
    tenant_id    uuid REFERENCES tenants(id) ON DELETE SET NULL,
    action       text NOT NULL,
    reason       text NOT NULL DEFAULT '',
    detail       jsonb NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_created_idx ON audit_log (created_at DESC);

-- Endpoints and their signing secrets (docs/contract.md#events-and-endpoints).
CREATE TABLE endpoints (
    id                     uuid PRIMARY KEY,
    tenant_id              uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    url                    text NOT NULL,
    description            text NOT NULL DEFAULT '',
    event_types            jsonb NOT NULL DEFAULT '[]',
    enabled                boolean NOT NULL DEFAULT true,
    disabled_reason        text NOT NULL DEFAULT '',
    timeout_ms             integer NOT NULL DEFAULT 10000,
    rate_limit_per_second  integer,
    max_in_flight          integer NOT NULL DEFAULT 16,
    headers                jsonb NOT NULL DEFAULT '{}',
    failing_since          timestamptz,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now(),
    deleted_at             timestamptz
);
CREATE INDEX endpoints_tenant_idx ON endpoints (tenant_id, created_at DESC) WHERE deleted_at IS NULL;

-- Secrets are AES-GCM ciphertexts; expires_at is set on the old secret
-- when it is rotated, so both sign until the grace period ends.
CREATE TABLE endpoint_secrets (
    id           uuid PRIMARY KEY,
    endpoint_id  uuid NOT NULL REFERENCES endpoints(id) ON DELETE CASCADE,
    tenant_id    uuid NOT NULL,
    ciphertext   bytea NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz
);
CREATE INDEX endpoint_secrets_endpoint_idx ON endpoint_secrets (endpoint_id, created_at DESC);

-- Events, deliveries and the transactional outbox (docs/contract.md#delivery-status, #durability-on-ingest).
-- data keeps the tenant's JSON text exactly (json, not jsonb) so the
-- envelope is byte-identical on every attempt.
CREATE TABLE events (
    id               uuid PRIMARY KEY,
    tenant_id        uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    type             text NOT NULL,
    data             json NOT NULL,
    idempotency_key  text,
    created_at       timestamptz NOT NULL
);
CREATE INDEX events_tenant_created_idx ON events (tenant_id, created_at DESC, id DESC);
CREATE INDEX events_tenant_type_idx ON events (tenant_id, type, created_at DESC);
CREATE UNIQUE INDEX events_idempotency_key ON events (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE TABLE deliveries (
    id                uuid PRIMARY KEY,
    tenant_id         uuid NOT NULL,
    event_id          uuid NOT NULL REFERENCES events(id) ON DELETE CASCADE,
    endpoint_id       uuid NOT NULL REFERENCES endpoints(id) ON DELETE CASCADE,
    status            text NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'retrying', 'succeeded', 'dropped', 'exhausted')),
    attempt_count     integer NOT NULL DEFAULT 0,
    first_attempt_at  timestamptz,
    last_attempt_at   timestamptz,
    next_attempt_at   timestamptz,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deliveries_event_idx ON deliveries (event_id);
CREATE INDEX deliveries_endpoint_idx ON deliveries (endpoint_id, created_at DESC);
CREATE INDEX deliveries_tenant_status_idx ON deliveries (tenant_id, status, created_at DESC);

-- A row per delivery job committed but not yet acknowledged by Kafka.
CREATE TABLE outbox (
    delivery_id  uuid NOT NULL,
    job          jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (delivery_id, created_at)
);
CREATE INDEX outbox_created_idx ON outbox (created_at);

-- The attempt log, range-partitioned by day on started_at; partitions are
-- created ahead and dropped for retention by the partition job.
CREATE TABLE attempts (
    id                uuid NOT NULL,
    tenant_id         uuid NOT NULL,
    delivery_id       uuid NOT NULL,
    event_id          uuid NOT NULL,
    endpoint_id       uuid NOT NULL,
    attempt_number    integer NOT NULL,
    trigger           text NOT NULL,
    actor             text NOT NULL DEFAULT '',
    started_at        timestamptz NOT NULL,
    duration_ms       integer NOT NULL,
    request_headers   jsonb NOT NULL,
    response_status   integer,
    response_headers  jsonb,
    response_body     text NOT NULL DEFAULT '',
    error_class       text NOT NULL DEFAULT '',
    error_message     text NOT NULL DEFAULT '',
    outcome           text NOT NULL CHECK (outcome IN ('success', 'retry', 'dropped')),
    next_attempt_at   timestamptz,
    PRIMARY KEY (id, started_at)
) PARTITION BY RANGE (started_at);
CREATE INDEX attempts_delivery_idx ON attempts (delivery_id, attempt_number);
CREATE INDEX attempts_event_idx ON attempts (tenant_id, event_id, started_at);
CREATE INDEX attempts_endpoint_idx ON attempts (tenant_id, endpoint_id, started_at DESC);

-- +goose Down
DROP TABLE attempts;
DROP TABLE outbox;
DROP TABLE deliveries;
DROP TABLE events;
DROP TABLE endpoint_secrets;
DROP TABLE endpoints;
DROP TABLE audit_log;
DROP TABLE login_failures;
DROP TABLE api_keys;
DROP TABLE staff;
DROP TABLE users;
DROP TABLE tenants;
