-- +goose Up
-- Nothing reads the attempt log by delivery: a delivery's attempts are
-- shown with its event's (attempts_event_idx), an endpoint's from
-- attempts_endpoint_idx, and pruning goes by partition and tenant. The
-- index only cost every attempt an entry at a random place in a large
-- tree (delivery ids are random), its WAL, and about 40 bytes of disk.
DROP INDEX attempts_delivery_idx;

-- +goose Down
CREATE INDEX attempts_delivery_idx ON attempts (delivery_id, attempt_number);
