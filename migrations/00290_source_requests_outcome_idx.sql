-- +goose Up
-- Nearly every capture is verified, and a page of verified captures is
-- the newest of the source's captures (source_requests_source_idx), found
-- at once. Only the rare outcomes need an index of their own, so that
-- listing them does not read a source's whole history; keeping verified
-- captures out of it spares every capture's insert one index.
CREATE INDEX source_requests_outcome_idx ON source_requests (source_id, status, received_at DESC, id DESC)
    WHERE status IN ('rejected', 'duplicate', 'refused');
DROP INDEX source_requests_status_idx;

-- +goose Down
CREATE INDEX source_requests_status_idx ON source_requests (source_id, status, received_at DESC, id DESC);
DROP INDEX source_requests_outcome_idx;
