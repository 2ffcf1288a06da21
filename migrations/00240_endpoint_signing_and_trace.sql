-- +goose Up
-- signature_timestamp: what webhook-timestamp carries and the signature
-- covers, the event's time (every attempt byte-for-byte the same) or each
-- attempt's own (for receivers whose Standard Webhooks library refuses
-- timestamps older than 5 minutes). propagate_trace: send the attempt's
-- W3C traceparent to the endpoint when tracing is on.
ALTER TABLE endpoints
    ADD COLUMN signature_timestamp text NOT NULL DEFAULT 'event'
        CHECK (signature_timestamp IN ('event', 'attempt')),
    ADD COLUMN propagate_trace boolean NOT NULL DEFAULT false;

-- The trace of the request that made a queue delivery (queue deliveries
-- have no job to carry it), so a pull can join the event's trace. NULL
-- when tracing is off.
ALTER TABLE deliveries ADD COLUMN traceparent text;

-- +goose Down
ALTER TABLE deliveries DROP COLUMN traceparent;
ALTER TABLE endpoints DROP COLUMN signature_timestamp, DROP COLUMN propagate_trace;
