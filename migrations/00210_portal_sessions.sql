-- +goose Up
-- The customer portal (docs/customer-portal.md): sessions a tenant mints
-- for one of its customers, the tokens their pages hold, what their users
-- did, and each tenant's framing allow-list and theme.
CREATE TABLE portal_settings (
    tenant_id        uuid PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
    allowed_origins  jsonb NOT NULL DEFAULT '[]',
    theme            jsonb NOT NULL DEFAULT '{}',
    updated_at       timestamptz NOT NULL
);

CREATE TABLE portal_sessions (
    id                   uuid PRIMARY KEY,
    tenant_id            uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    customer_id          uuid NOT NULL,
    customer_uid         text NOT NULL,
    capabilities         jsonb NOT NULL,
    endpoint_ids         jsonb,
    read_only            boolean NOT NULL DEFAULT false,
    theme                jsonb NOT NULL DEFAULT '{}',
    external_user_id     text NOT NULL,
    external_user_email  text NOT NULL DEFAULT '',
    -- The single-use code of the session's URL: its SHA-256 only.
    code_hash            text NOT NULL,
    code_expires_at      timestamptz NOT NULL,
    code_used_at         timestamptz,
    created_at           timestamptz NOT NULL,
    expires_at           timestamptz NOT NULL,
    revoked_at           timestamptz
);
CREATE INDEX portal_sessions_customer_idx ON portal_sessions (tenant_id, customer_uid, created_at DESC);

-- Bearer tokens of sessions (their SHA-256), 10 minutes each.
CREATE TABLE portal_tokens (
    token_hash  text PRIMARY KEY,
    session_id  uuid NOT NULL REFERENCES portal_sessions(id) ON DELETE CASCADE,
    expires_at  timestamptz NOT NULL
);
CREATE INDEX portal_tokens_session_idx ON portal_tokens (session_id);

CREATE TABLE portal_audit (
    id                   bigserial PRIMARY KEY,
    tenant_id            uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    session_id           uuid NOT NULL,
    customer_uid         text NOT NULL,
    external_user_id     text NOT NULL,
    external_user_email  text NOT NULL,
    action               text NOT NULL,
    target               text NOT NULL DEFAULT '',
    at                   timestamptz NOT NULL
);
CREATE INDEX portal_audit_tenant_idx ON portal_audit (tenant_id, at DESC, id DESC);

-- +goose Down
DROP TABLE portal_audit;
DROP TABLE portal_tokens;
DROP TABLE portal_sessions;
DROP TABLE portal_settings;
