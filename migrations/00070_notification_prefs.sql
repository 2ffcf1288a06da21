-- +goose Up
-- Which notification mails a user wants. A user without a row gets every
-- mail (the defaults), so existing users need no backfill.
CREATE TABLE notification_prefs (
    user_id          uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    endpoint_health  boolean NOT NULL DEFAULT true,
    quota            boolean NOT NULL DEFAULT true,
    invoices         boolean NOT NULL DEFAULT true,
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE notification_prefs;
