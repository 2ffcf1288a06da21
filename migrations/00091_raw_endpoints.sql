-- +goose Up
-- Raw endpoints (delivery, docs/contract.md#inbound-sources): an endpoint
-- of format 'raw' receives an event's original request body and content
-- type instead of the envelope. Events made from a source's capture keep
-- that body here, owned by delivery; other events send their data.
ALTER TABLE endpoints ADD COLUMN format text NOT NULL DEFAULT 'envelope' CHECK (format IN ('envelope', 'raw'));

CREATE TABLE event_raw_bodies (
    event_id      uuid PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE,
    tenant_id     uuid NOT NULL,
    content_type  text NOT NULL DEFAULT '',
    body          bytea NOT NULL
);

-- +goose Down
DROP TABLE event_raw_bodies;
ALTER TABLE endpoints DROP COLUMN format;
