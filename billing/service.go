package billing

import (
	"cmp"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"gorm.io/gorm"
)

// Config tunes the Service and its job.
type Config struct {
	// JobInterval is how often the worker job meters attempts, prunes the
	// attempt log, invoices the previous month and collects payments
	// (default 5 minutes).
	JobInterval time.Duration
	// Payments collects invoice amounts; nil leaves invoices open.
	Payments PaymentProvider
	// Invoices hears of each invoice the monthly run issues, once it is
	// committed (email to the owners); nil tells nobody.
	Invoices InvoiceNotifier
}

func (c Config) withDefaults() Config {
	c.JobInterval = cmp.Or(c.JobInterval, 5*time.Minute)
	return c
}

// Service is billing: entitlements, metering, quotas, plan changes,
// invoices. Delivery meters through it (see Meter); app adapts it to
// delivery.Limits.
type Service struct {
	db   *gorm.DB
	deps Deps
	cfg  Config
	log  *slog.Logger
	now  func() time.Time
	rand func(n int) int
}

// NewService returns a Service on db, asking deps for what other domains
// own. now defaults to time.Now.
func NewService(db *gorm.DB, deps Deps, cfg Config, log *slog.Logger, now func() time.Time) (*Service, error) {
	if db == nil || log == nil || !deps.complete() {
		return nil, errors.New("billing.NewService: db, log and every dependency are required")
	}
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, deps: deps, cfg: cfg.withDefaults(), log: log, now: now, rand: randIntN}, nil
}

// randIntN picks a usage slot; it needs spread, not secrecy.
func randIntN(n int) int { return rand.IntN(n) }
