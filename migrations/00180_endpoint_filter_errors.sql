-- +goose Up
-- An endpoint's filter that cannot be evaluated on an event (a key the
-- event lacks, a type mismatch) does not match it; these columns let the
-- tenant see that it happens: how often since the filter was last saved,
-- and the latest error. Each process adds its counts every few seconds.
ALTER TABLE endpoints ADD COLUMN filter_errors bigint NOT NULL DEFAULT 0,
                      ADD COLUMN last_filter_error text,
                      ADD COLUMN last_filter_error_at timestamptz;

-- +goose Down
ALTER TABLE endpoints DROP COLUMN filter_errors, DROP COLUMN last_filter_error, DROP COLUMN last_filter_error_at;
