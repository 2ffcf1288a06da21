-- +goose Up
-- A tenant's own customers (docs/customers.md). uid is the tenant's id for
-- the customer, unique per tenant and never reused for another customer: a
-- deleted customer keeps its row (and uid) so its endpoints' and events'
-- history still names it, and an upsert of the same uid revives it.
CREATE TABLE customers (
    id          uuid PRIMARY KEY,
    tenant_id   uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    uid         text NOT NULL,
    name        text NOT NULL DEFAULT '',
    metadata    jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    deleted_at  timestamptz,
    UNIQUE (tenant_id, uid)
);
CREATE INDEX customers_tenant_created_idx ON customers (tenant_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- Endpoints and events may belong to a customer. delivery keeps the uid
-- beside the id, so it answers with the tenant's own id without reading
-- another domain's table.
ALTER TABLE endpoints ADD COLUMN customer_id uuid, ADD COLUMN customer_uid text;
ALTER TABLE events ADD COLUMN customer_id uuid, ADD COLUMN customer_uid text;
CREATE INDEX endpoints_customer_idx ON endpoints (tenant_id, customer_id) WHERE customer_id IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX endpoints_customer_uid_idx ON endpoints (tenant_id, customer_uid, created_at DESC, id DESC) WHERE customer_uid IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX events_customer_created_idx ON events (tenant_id, customer_uid, created_at DESC, id DESC) WHERE customer_uid IS NOT NULL;

-- +goose Down
DROP INDEX events_customer_created_idx;
DROP INDEX endpoints_customer_uid_idx;
DROP INDEX endpoints_customer_idx;
ALTER TABLE events DROP COLUMN customer_id, DROP COLUMN customer_uid;
ALTER TABLE endpoints DROP COLUMN customer_id, DROP COLUMN customer_uid;
DROP TABLE customers;
