-- +goose Up
-- The W3C traceparent of the request that queued an outbox row, so a job
-- the sweeper republishes stays in its event's trace (docs/operations.md#tracing).
-- NULL when tracing is off: no cost beyond the null bitmap.
ALTER TABLE outbox ADD COLUMN traceparent text;

-- +goose Down
ALTER TABLE outbox DROP COLUMN traceparent;
