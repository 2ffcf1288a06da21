-- +goose Up
-- Receivers' answers are bounded in the attempt log: at most 8 KiB of
-- response headers and 4 KiB of body are kept, and these mark an attempt
-- whose stored headers or body were cut. Constant defaults make this a
-- catalog-only change on every partition, old and new.
ALTER TABLE attempts
    ADD COLUMN response_headers_truncated boolean NOT NULL DEFAULT false,
    ADD COLUMN response_body_truncated    boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE attempts
    DROP COLUMN response_headers_truncated,
    DROP COLUMN response_body_truncated;
