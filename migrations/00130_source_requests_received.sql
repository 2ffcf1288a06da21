-- +goose Up
-- Inbound captures are answered once the capture alone has committed
-- (docs/contract.md#inbound-sources); making the event follows. A capture
-- is 'received' until then, and 'refused' when the tenant's plan refused
-- its event (monthly quota, unpaid account): kept, and replayable.
ALTER TABLE source_requests DROP CONSTRAINT source_requests_status_check;
ALTER TABLE source_requests ADD CONSTRAINT source_requests_status_check
    CHECK (status IN ('received', 'verified', 'rejected', 'duplicate', 'refused'));
-- The sweeper finds captures whose event was never made (a crash between
-- the capture's commit and its event's) by age.
CREATE INDEX source_requests_received_idx ON source_requests (received_at) WHERE status = 'received';

-- +goose Down
DROP INDEX source_requests_received_idx;
UPDATE source_requests SET status = 'verified' WHERE status IN ('received', 'refused');
ALTER TABLE source_requests DROP CONSTRAINT source_requests_status_check;
ALTER TABLE source_requests ADD CONSTRAINT source_requests_status_check
    CHECK (status IN ('verified', 'rejected', 'duplicate'));
