package billing

import (
	"cmp"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/internal/clock"
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
	// clock is JobInterval's ticker and every "now" of billing.
	clock clock.Clock
	rand  func(n int) int
}

// NewService returns a Service on db, asking deps for what other domains
// own; clk nil is the system clock.
func NewService(db *gorm.DB, deps Deps, cfg Config, log *slog.Logger, clk clock.Clock) (*Service, error) {
	if db == nil || log == nil || !deps.complete() {
		return nil, errors.New("billing.NewService: db, log and every dependency are required")
	}
	return &Service{db: db, deps: deps, cfg: cfg.withDefaults(), log: log, clock: clock.Or(clk), rand: randIntN}, nil
}

// randIntN picks a usage slot; it needs spread, not secrecy.
func randIntN(n int) int { return rand.IntN(n) }
