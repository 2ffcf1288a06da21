-- +goose Up
-- Routing: event-type wildcards and CEL filters per endpoint.
--
-- Fan-out looks endpoints up with event_types ?| <every pattern matching
-- the event type> (the type itself, each prefix + '*', '*'); this GIN
-- index over (tenant_id, event_types) answers that from the index, so a
-- tenant's endpoints that are not subscribed are never read, however many
-- there are. btree_gin lets tenant_id (a uuid) sit in the GIN index. The
-- second index serves endpoints with no event types (subscribed to all).
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX endpoints_subscription_idx ON endpoints USING gin (tenant_id, event_types)
    WHERE enabled AND deleted_at IS NULL;
CREATE INDEX endpoints_all_types_idx ON endpoints (tenant_id)
    WHERE event_types = '[]'::jsonb AND enabled AND deleted_at IS NULL;

-- A CEL expression over the event; '' accepts every event.
ALTER TABLE endpoints ADD COLUMN filter text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE endpoints DROP COLUMN filter;
DROP INDEX endpoints_all_types_idx;
DROP INDEX endpoints_subscription_idx;
