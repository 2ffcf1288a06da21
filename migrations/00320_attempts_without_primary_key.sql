-- +goose Up
-- Nothing looks an attempt up by its id: the attempt log is read by
-- event (attempts_event_idx) and by endpoint (attempts_endpoint_idx),
-- and pruned by partition and tenant. The key, (id, started_at) because
-- a partitioned table's key must hold its partition key, only cost every
-- attempt an entry at a random place in a large tree (ids were random),
-- its WAL, and on a grown table the full-page images of the leaves it
-- touched after each checkpoint (docs/benchmarks.md, 2026-11-27 19:42).
-- Attempt ids are made by the worker that made the attempt (rowid),
-- and each attempt is written once, by one COPY.
ALTER TABLE attempts DROP CONSTRAINT attempts_pkey;

-- +goose Down
ALTER TABLE attempts ADD PRIMARY KEY (id, started_at);
