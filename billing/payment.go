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
	// SetupPaymentMethod makes sure the provider holds a payment method
	// for tenantID that it accepts for future charges. token is what the
	// provider's own checkout gave the portal (empty: use the method
	// already on file). Errors: ErrNoPaymentMethod (none on file and no
	// token), ErrPaymentDeclined (the provider refused the method);
	// anything else is transient.
	SetupPaymentMethod(ctx context.Context, tenantID uuid.UUID, token string) (PaymentMethod, error)
}

var (
	// ErrPaymentDeclined is returned by a PaymentProvider that refused a
	// charge or a payment method.
	ErrPaymentDeclined = errors.New("payment declined")
	// ErrNoPaymentMethod is returned by a PaymentProvider that holds no
	// payment method for the tenant.
	ErrNoPaymentMethod = errors.New("no payment method on file")
)

// PaymentMethod is the provider's record of a tenant's accepted payment
// method: a reference and a label safe to show ("Visa ending 4242").
type PaymentMethod struct {
	Reference string `json:"-"`
	Label     string `json:"label"` // how the provider names the method, e.g. Visa ending 4242
}

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
	// MethodFunc, when set, decides each SetupPaymentMethod call (return
	// ErrPaymentDeclined or ErrNoPaymentMethod to refuse); by default every
	// tenant has an accepted test card.
	MethodFunc func(tenantID uuid.UUID, token string) error

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

// SetupPaymentMethod accepts every tenant with a test card unless
// MethodFunc refuses.
func (p *RecordingProvider) SetupPaymentMethod(_ context.Context, tenantID uuid.UUID, token string) (PaymentMethod, error) {
	if p.MethodFunc != nil {
		if err := p.MethodFunc(tenantID, token); err != nil {
			return PaymentMethod{}, err
		}
	}
	return PaymentMethod{Reference: "pm_test_" + tenantID.String(), Label: "Test card (built-in test provider)"}, nil
}
