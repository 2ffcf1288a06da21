-- +goose Up
-- Staff authenticator keys are sealed with the master key (AES-GCM, bound
-- to the staff id) so a database dump does not hand out second factors.
-- Keys enrolled before this column existed stay in totp_secret until the
-- next successful sign-in seals them.
ALTER TABLE staff ADD COLUMN totp_secret_sealed bytea;

-- +goose Down
ALTER TABLE staff DROP COLUMN totp_secret_sealed;
