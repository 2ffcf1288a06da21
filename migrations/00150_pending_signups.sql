-- +goose Up
-- A sign-up waits here until its address is confirmed: the tenant and
-- its owner are created only when the emailed link is followed, and the
-- sign-up form answers the same whether or not the address already has an
-- account (the mail to the address says which). Only the SHA-256 of the
-- link's token is stored.
CREATE TABLE pending_signups (
    token_hash    bytea PRIMARY KEY,
    email         text NOT NULL,
    password_hash text NOT NULL,
    organization  text NOT NULL,
    created_at    timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL
);
CREATE INDEX pending_signups_email_idx ON pending_signups (lower(email));

-- +goose Down
DROP TABLE pending_signups;
