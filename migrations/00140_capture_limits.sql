-- +goose Up
-- Plan bounds on inbound sources: how many a tenant may have, and how many
-- bytes of requests its sources may capture per calendar month (UTC).
-- Captures past the month's bytes are refused, not stored.
ALTER TABLE plans ADD COLUMN max_sources integer NOT NULL DEFAULT 3 CHECK (max_sources >= 0),
                  ADD COLUMN captured_bytes_per_month bigint NOT NULL DEFAULT 104857600 CHECK (captured_bytes_per_month >= 0);
UPDATE plans SET max_sources = 3,    captured_bytes_per_month = 104857600     WHERE name = 'free';       -- 100 MiB
UPDATE plans SET max_sources = 50,   captured_bytes_per_month = 10737418240   WHERE name = 'pro';        -- 10 GiB
UPDATE plans SET max_sources = 1000, captured_bytes_per_month = 1099511627776 WHERE name = 'enterprise'; -- 1 TiB

ALTER TABLE plan_overrides ADD COLUMN max_sources integer CHECK (max_sources >= 0),
                           ADD COLUMN captured_bytes_per_month bigint CHECK (captured_bytes_per_month >= 0);

-- Bytes captured per tenant per month, counted by each process and added
-- here every few seconds.
CREATE TABLE capture_usage (
    tenant_id  uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    period     date NOT NULL,
    bytes      bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, period)
);

-- +goose Down
DROP TABLE capture_usage;
ALTER TABLE plan_overrides DROP COLUMN max_sources, DROP COLUMN captured_bytes_per_month;
ALTER TABLE plans DROP COLUMN max_sources, DROP COLUMN captured_bytes_per_month;
