-- +goose Up
-- The event-type catalog (package catalog, PRODUCT.md §16): per tenant,
-- the event types it sends, each with numbered versions holding a JSON
-- Schema (draft 2020-12) and examples, and a validation mode that ingest
-- applies to the data of events of that type (off, warn, reject).
CREATE TABLE event_types (
    id              uuid PRIMARY KEY,
    tenant_id       uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    name            text NOT NULL,
    group_name      text NOT NULL DEFAULT '',
    description     text NOT NULL DEFAULT '',
    validation      text NOT NULL DEFAULT 'off' CHECK (validation IN ('off', 'warn', 'reject')),
    deprecated_at   timestamptz,
    latest_version  integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    UNIQUE (tenant_id, name)
);
CREATE INDEX event_types_tenant_idx ON event_types (tenant_id, created_at DESC, id DESC);
-- Ingest's rules: the types of a tenant that validate.
CREATE INDEX event_types_validating_idx ON event_types (tenant_id) WHERE validation <> 'off';

-- Versions are never changed once added; schema and examples are json
-- (kept as sent, compacted); schema_sha256 (of the schema as
-- stored) keys the compiled-schema cache.
CREATE TABLE event_type_versions (
    event_type_id  uuid NOT NULL REFERENCES event_types(id) ON DELETE CASCADE,
    tenant_id      uuid NOT NULL,
    version        integer NOT NULL CHECK (version > 0),
    schema         json NOT NULL,
    schema_sha256  bytea NOT NULL,
    examples       json NOT NULL DEFAULT '[]',
    created_at     timestamptz NOT NULL,
    PRIMARY KEY (event_type_id, version)
);

-- The latest validation warnings of each type in warn mode (sampled;
-- trimmed to the newest few on insert).
CREATE TABLE event_type_warnings (
    id             bigserial PRIMARY KEY,
    event_type_id  uuid NOT NULL REFERENCES event_types(id) ON DELETE CASCADE,
    tenant_id      uuid NOT NULL,
    version        integer NOT NULL,
    field          text NOT NULL,
    message        text NOT NULL,
    created_at     timestamptz NOT NULL
);
CREATE INDEX event_type_warnings_type_idx ON event_type_warnings (event_type_id, id DESC);

-- +goose Down
DROP TABLE event_type_warnings;
DROP TABLE event_type_versions;
DROP TABLE event_types;
