-- +goose Up
-- Routing: event-type wildcards and CEL filters per endpoint.
--
-- Fan-out looks endpoints up with subscription ?| <every pattern that
-- matches the event type> (the type itself, each of its prefixes + '*',
-- and '*'). subscription is event_types with "no types" (every type)
-- spelled '["*"]', so one condition covers all endpoints. The GIN index
-- over (tenant_id, subscription) answers tenant and patterns together
-- (btree_gin lets the uuid sit in a GIN index): a tenant's endpoints that
-- are not subscribed are never read, however many there are. fastupdate
-- is off so lookups never scan a pending list of recent changes.
CREATE EXTENSION IF NOT EXISTS btree_gin;
ALTER TABLE endpoints ADD COLUMN subscription jsonb NOT NULL
    GENERATED ALWAYS AS (CASE WHEN event_types = '[]'::jsonb THEN '["*"]'::jsonb ELSE event_types END) STORED;
CREATE INDEX endpoints_subscription_idx ON endpoints USING gin (tenant_id, subscription)
    WITH (fastupdate = off) WHERE enabled AND deleted_at IS NULL;

-- A CEL expression over the event; '' accepts every event.
ALTER TABLE endpoints ADD COLUMN filter text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE endpoints DROP COLUMN filter;
DROP INDEX endpoints_subscription_idx;
ALTER TABLE endpoints DROP COLUMN subscription;
