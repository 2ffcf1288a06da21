-- +goose Up
-- An operational event is emitted in the transaction that logs the
-- attempts causing it, which many tenants' attempts share; its
-- deliveries' transformations run after that commits, never inside it
-- (docs/contract.md#transformations). Until then such a delivery has a
-- pending row here and no outbox row; the run's result replaces the
-- pending mark and the outbox row follows, in one transaction. The
-- sweeper finds pending rows a crash left behind by age.
ALTER TABLE delivery_transforms ADD COLUMN pending boolean NOT NULL DEFAULT false;
ALTER TABLE delivery_transforms DROP CONSTRAINT delivery_transforms_check;
ALTER TABLE delivery_transforms ADD CONSTRAINT delivery_transforms_check
    CHECK ((error IS NOT NULL)::int + cancelled::int + (body IS NOT NULL)::int + pending::int = 1);
CREATE INDEX delivery_transforms_pending_idx ON delivery_transforms (created_at) WHERE pending;

-- +goose Down
DROP INDEX delivery_transforms_pending_idx;
UPDATE delivery_transforms SET pending = false, error = 'transformation not run (downgrade)' WHERE pending;
ALTER TABLE delivery_transforms DROP CONSTRAINT delivery_transforms_check;
ALTER TABLE delivery_transforms ADD CONSTRAINT delivery_transforms_check
    CHECK ((error IS NOT NULL)::int + cancelled::int + (body IS NOT NULL)::int = 1);
ALTER TABLE delivery_transforms DROP COLUMN pending;
