-- +goose Up
-- Paid plans need a payment method accepted by the payment provider; the
-- provider keeps the method, Ferry its reference and a label to show.
CREATE TABLE payment_methods (
    tenant_id   uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
    reference   text NOT NULL,
    label       text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);

-- An invoice unpaid 14 days after issue restricts its tenant's new
-- events until paid, or until staff lift the restriction (recorded here
-- and in the audit log).
ALTER TABLE invoices
    ADD COLUMN restriction_lifted_at timestamptz,
    ADD COLUMN restriction_lifted_by text NOT NULL DEFAULT '';
CREATE INDEX invoices_overdue_idx ON invoices (tenant_id, created_at)
    WHERE status <> 'paid' AND restriction_lifted_at IS NULL;

-- +goose Down
DROP INDEX invoices_overdue_idx;
ALTER TABLE invoices DROP COLUMN restriction_lifted_by, DROP COLUMN restriction_lifted_at;
DROP TABLE payment_methods;
