-- +goose Up
-- Server-side sessions, one-time account tokens (password reset, member
-- invite, address verification), an atomic throttle for guessing and
-- sign-ups, forced password changes, staff TOTP and disabling.

-- A portal session: the session JWT carries its id (jti). Logout,
-- password change and staff disable set revoked_at; every replica checks
-- it (behind a cache of a few seconds).
CREATE TABLE sessions (
    id          uuid PRIMARY KEY,
    subject_id  uuid NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('user', 'staff')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);
CREATE INDEX sessions_subject_idx ON sessions (subject_id) WHERE revoked_at IS NULL;
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Emailed one-time links. Only the SHA-256 of the token is stored; a
-- token is used by setting used_at, once, before expires_at.
CREATE TABLE account_tokens (
    id          uuid PRIMARY KEY,
    purpose     text NOT NULL CHECK (purpose IN ('password_reset', 'invite', 'verify_email')),
    token_hash  bytea NOT NULL UNIQUE,
    subject_id  uuid NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('user', 'staff')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz
);
CREATE INDEX account_tokens_subject_idx ON account_tokens (subject_id, purpose);

-- Throttle hits: failed logins per account and per client address,
-- sign-ups and reset requests per address. Counted under an advisory
-- lock per key, so parallel requests cannot overshoot a limit.
CREATE TABLE auth_throttle (
    key  text NOT NULL,
    at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_throttle_key_idx ON auth_throttle (key, at);
DROP TABLE login_failures;

-- An invited member has no password until they accept the invite
-- (password_hash = ''). must_change_password forces a change at the next
-- sign-in: staff created with a generated password, and members invited
-- before invites were emailed (they were given a temporary password).
ALTER TABLE users ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;
UPDATE users u SET must_change_password = true
  FROM tenants t WHERE u.tenant_id = t.id AND u.created_at <> t.created_at;

ALTER TABLE staff ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
ALTER TABLE staff ADD COLUMN disabled_at timestamptz;
ALTER TABLE staff ADD COLUMN totp_secret text NOT NULL DEFAULT '';
ALTER TABLE staff ADD COLUMN totp_enabled_at timestamptz;
ALTER TABLE staff ADD COLUMN totp_last_step bigint NOT NULL DEFAULT 0;

-- Deleting a staff account keeps its audit rows (actor_email stays).
ALTER TABLE audit_log DROP CONSTRAINT audit_log_staff_id_fkey;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_staff_id_fkey
  FOREIGN KEY (staff_id) REFERENCES staff(id) ON DELETE SET NULL;

-- Tenants no longer see staff emails as replay actors: earlier rows say
-- "staff:<email>"; the audit log keeps who it was. (A one-time scan of the
-- attempt log, which retention bounds.)
UPDATE replay_jobs SET actor = 'Ferry support' WHERE actor LIKE 'staff:%';
UPDATE attempts SET actor = 'Ferry support' WHERE actor LIKE 'staff:%';

-- +goose Down
ALTER TABLE audit_log DROP CONSTRAINT audit_log_staff_id_fkey;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_staff_id_fkey FOREIGN KEY (staff_id) REFERENCES staff(id);
ALTER TABLE staff DROP COLUMN totp_last_step, DROP COLUMN totp_enabled_at, DROP COLUMN totp_secret,
  DROP COLUMN disabled_at, DROP COLUMN must_change_password;
ALTER TABLE users DROP COLUMN email_verified_at, DROP COLUMN must_change_password;
CREATE TABLE login_failures (
    email       text NOT NULL,
    failed_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_email_idx ON login_failures (lower(email), failed_at);
DROP TABLE auth_throttle;
DROP TABLE account_tokens;
DROP TABLE sessions;
