-- +goose Up
-- deliveries_queue_head_idx (endpoint_id, created_at, id), over the same
-- unfinished rows, answers every query deliveries_endpoint_open_idx
-- (endpoint_id, created_at) did: an endpoint's backlog and its oldest
-- unfinished delivery. Every new delivery paid for an entry in both.
DROP INDEX IF EXISTS deliveries_endpoint_open_idx;

-- +goose Down
CREATE INDEX deliveries_endpoint_open_idx ON deliveries (endpoint_id, created_at)
    WHERE status IN ('pending', 'retrying');
