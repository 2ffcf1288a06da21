-- +goose Up
-- An invite to an address that already has a Ferry account elsewhere: a
-- Ferry account belongs to one organisation, so it cannot join, but the
-- inviter is answered and shown exactly as for any pending invite (so
-- inviting reveals nobody's account); the address's holder is mailed what
-- happened. Listed, re-sent, changed and removed like a pending member.
CREATE TABLE invites_to_existing_accounts (
    id          uuid PRIMARY KEY,
    tenant_id   uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    email       text NOT NULL,
    role        text NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX invites_to_existing_accounts_email_idx ON invites_to_existing_accounts (tenant_id, lower(email));

-- +goose Down
DROP TABLE invites_to_existing_accounts;
