-- +goose Up
-- The answers to creating requests sent with an Idempotency-Key, kept 24
-- hours. scope is whose key it is (a tenant, one customer's portal, a
-- staff member); status is NULL while the first request with the key
-- runs; response is the sealed content type and body.
CREATE TABLE idempotency_keys (
    scope       text        NOT NULL,
    key         text        NOT NULL,
    fingerprint bytea       NOT NULL,
    status      integer,
    response    bytea,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- +goose Down
DROP TABLE idempotency_keys;
