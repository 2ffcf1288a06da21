-- +goose Up
-- JavaScript transformations per endpoint (docs/contract.md#transformations).

-- function handler(webhook) {...}; '' means none.
ALTER TABLE endpoints ADD COLUMN transformation text NOT NULL DEFAULT '';

-- What an endpoint's transformation made of one delivery, stored once at
-- fan-out so every attempt, retry and replay sends the same bytes, signed
-- over them. Only deliveries to an endpoint with a transformation have a
-- row; the dispatcher reads it with the delivery's state (LEFT JOIN on
-- the primary key). Exactly one of: error set (the transformation threw,
-- timed out or went over its memory bound; the delivery is dropped),
-- cancelled (the handler set cancel; dropped, nothing sent), or body
-- (the payload to send) with headers (the custom headers the handler
-- set, name -> value, or name -> null for one it removed; the endpoint's
-- other custom headers are sent as they are at the time of the attempt).
CREATE TABLE delivery_transforms (
    delivery_id  uuid PRIMARY KEY REFERENCES deliveries(id) ON DELETE CASCADE,
    tenant_id    uuid NOT NULL,
    cancelled    boolean NOT NULL DEFAULT false,
    error        text,
    body         bytea,
    headers      jsonb,
    created_at   timestamptz NOT NULL,
    CHECK ((error IS NOT NULL)::int + cancelled::int + (body IS NOT NULL)::int = 1)
);

-- +goose Down
DROP TABLE delivery_transforms;
ALTER TABLE endpoints DROP COLUMN transformation;
