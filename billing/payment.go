package billing

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/google/uuid"
)

// PaymentProvider collects money for invoices. The tenant's payment method
// lives with the provider (a card vault such as Stripe), keyed by tenant:
// Ferry sends amounts and references, never card data.
type PaymentProvider interface {
	// Charge collects c.AmountMinor from the tenant's payment method on
	// file. Calls with the same IdempotencyKey charge at most once and
	// return the first call's result. Errors: ErrPaymentDeclined when the
	// provider refused the charge; anything else is transient.
	Charge(ctx context.Context, c Charge) (Receipt, error)
}

// ErrPaymentDeclined is returned by a PaymentProvider that refused a charge.
var ErrPaymentDeclined = errors.New("payment declined")

// Charge asks a provider to collect one invoice.
type Charge struct {
	// IdempotencyKey is the invoice id: a retried collection never
	// charges twice.
	IdempotencyKey string
	TenantID       uuid.UUID
	InvoiceID      uuid.UUID
	AmountMinor    int64
	Currency       string
	Description    string
}

// Receipt is a provider's record of a successful charge.
type Receipt struct {
	// Reference is the provider's id for the charge.
	Reference string
}

// RecordingProvider is a PaymentProvider that keeps the charges it accepts
// in memory; tests and dev mode use it. ChargeFunc, when set, decides each
// first-time charge (return ErrPaymentDeclined to decline).
type RecordingProvider struct {
	ChargeFunc func(c Charge) error

	mu      sync.Mutex
	charges []Charge
	byKey   map[string]Receipt
}

var _ PaymentProvider = (*RecordingProvider)(nil)

// Charge records c once per IdempotencyKey.
func (p *RecordingProvider) Charge(ctx context.Context, c Charge) (Receipt, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.byKey[c.IdempotencyKey]; ok {
		return r, nil
	}
	if p.ChargeFunc != nil {
		if err := p.ChargeFunc(c); err != nil {
			return Receipt{}, err
		}
	}
	if p.byKey == nil {
		p.byKey = map[string]Receipt{}
	}
	r := Receipt{Reference: fmt.Sprintf("rec_%d", len(p.charges)+1)}
	p.byKey[c.IdempotencyKey] = r
	p.charges = append(p.charges, c)
	return r, nil
}

// Charges returns the charges made so far, one per idempotency key.
func (p *RecordingProvider) Charges() []Charge {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Charge(nil), p.charges...)
}
