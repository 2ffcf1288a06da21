-- +goose Up
-- Inbound sources (package inbound, docs/contract.md#inbound-sources): a
-- public ingest URL per source that verifies a provider's signature and
-- captures every request exactly before answering.
--
-- The ingest token is looked up by its SHA-256 (token_hash); the token
-- itself is kept only as an AES-GCM ciphertext (token_ciphertext, bound
-- to the source id) so the portal can show the ingest URL again, while a
-- database read alone reveals neither it nor the verification secret.
CREATE TABLE sources (
    id                     uuid PRIMARY KEY,
    tenant_id              uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    name                   text NOT NULL,
    enabled                boolean NOT NULL DEFAULT true,
    -- The scheme and its public parameters (header, encoding, prefix,
    -- username); secrets are in secret_ciphertext.
    verification           jsonb NOT NULL,
    secret_ciphertext      bytea,
    event_type             jsonb NOT NULL,
    response               jsonb,
    dedupe                 jsonb,
    rate_limit_per_second  integer NOT NULL,
    token_hash             bytea NOT NULL UNIQUE,
    token_ciphertext       bytea NOT NULL,
    -- Rejected requests counted but not stored (over the per-minute cap).
    rejected_unstored      bigint NOT NULL DEFAULT 0,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL,
    deleted_at             timestamptz
);
CREATE INDEX sources_tenant_idx ON sources (tenant_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- Every captured request, exactly as received: body is bytea so any
-- bytes (non-UTF-8, binary, empty) survive. path names the token as
-- {token}: a capture never reveals the ingest token.
CREATE TABLE source_requests (
    id            uuid PRIMARY KEY,
    tenant_id     uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    source_id     uuid NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    received_at   timestamptz NOT NULL,
    method        text NOT NULL,
    path          text NOT NULL,
    query         text NOT NULL DEFAULT '',
    headers       jsonb NOT NULL,
    content_type  text NOT NULL DEFAULT '',
    body          bytea NOT NULL,
    status        text NOT NULL CHECK (status IN ('verified', 'rejected', 'duplicate')),
    reason        text NOT NULL DEFAULT '',
    dedupe_key    text,
    event_id      uuid
);
CREATE INDEX source_requests_source_idx ON source_requests (source_id, received_at DESC, id DESC);
CREATE INDEX source_requests_status_idx ON source_requests (source_id, status, received_at DESC, id DESC);
-- Retention deletes by tenant and age.
CREATE INDEX source_requests_tenant_received_idx ON source_requests (tenant_id, received_at);

-- Dedupe keys seen within the window: one row per (source, key), claimed
-- again by a request once the row is older than the window.
CREATE TABLE source_dedupe (
    source_id    uuid NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    key          text NOT NULL,
    request_id   uuid NOT NULL,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (source_id, key)
);
CREATE INDEX source_dedupe_created_idx ON source_dedupe (created_at);

-- +goose Down
DROP TABLE source_dedupe;
DROP TABLE source_requests;
DROP TABLE sources;
