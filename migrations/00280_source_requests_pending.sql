-- +goose Up
-- A verified capture is written once. It is stored verified, with the id
-- its event will have, and a small row in source_requests_pending says
-- the event is still to be made; making the event deletes that row in
-- the event's transaction. Until now the capture was stored received and
-- updated to verified with its event: the update could never be HOT
-- (status is indexed), so it copied the whole row, body included, into
-- a new row version, the WAL and every index, at 1,000 requests/s.
-- The API still shows a capture with a pending row as 'received'.
--
-- No foreign key: its check would lock the capture's row, which is the
-- write this table exists to avoid. The sweeper deletes pending rows
-- whose capture is gone (a deleted tenant).
CREATE TABLE source_requests_pending (
    request_id   uuid PRIMARY KEY,
    received_at  timestamptz NOT NULL
);
INSERT INTO source_requests_pending (request_id, received_at)
    SELECT id, received_at FROM source_requests WHERE status = 'received';
UPDATE source_requests SET status = 'verified', event_id = coalesce(event_id, gen_random_uuid()) WHERE status = 'received';
DROP INDEX source_requests_received_idx;
ALTER TABLE source_requests DROP CONSTRAINT source_requests_status_check;
ALTER TABLE source_requests ADD CONSTRAINT source_requests_status_check
    CHECK (status IN ('verified', 'rejected', 'duplicate', 'refused'));

-- +goose Down
ALTER TABLE source_requests DROP CONSTRAINT source_requests_status_check;
ALTER TABLE source_requests ADD CONSTRAINT source_requests_status_check
    CHECK (status IN ('received', 'verified', 'rejected', 'duplicate', 'refused'));
UPDATE source_requests r SET status = 'received', event_id = NULL
    FROM source_requests_pending p WHERE p.request_id = r.id;
CREATE INDEX source_requests_received_idx ON source_requests (received_at) WHERE status = 'received';
DROP TABLE source_requests_pending;
