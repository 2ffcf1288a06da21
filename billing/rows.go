package billing

import (
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// GORM models of billing's tables (migrations/00004_billing.sql). They
// match the schema column for column; migrations stay goose SQL.

// planRow is a row of plans.
type planRow struct {
	Name              string `gorm:"primaryKey"`
	DisplayName       string
	EventsPerMonth    int64
	MaxEndpoints      int
	RetentionDays     int
	EventsPerSecond   int
	HardCap           bool
	BaseFeeMinor      int64
	OverageUnitEvents int64
	OveragePriceMinor int64
	Currency          string
	SelfServe         bool
	SortOrder         int
	MaxSources        int
	// CapturedBytesPerMonth is named for its column (captured_bytes_per_month).
	CapturedBytesPerMonth int64
}

func (planRow) TableName() string { return "plans" }

func (r planRow) plan() Plan {
	return Plan{Name: r.Name, DisplayName: r.DisplayName, EventsPerMonth: r.EventsPerMonth, MaxEndpoints: r.MaxEndpoints,
		RetentionDays: r.RetentionDays, EventsPerSecond: r.EventsPerSecond, HardCap: r.HardCap, BaseFeeMinor: r.BaseFeeMinor,
		OverageUnitEvents: r.OverageUnitEvents, OveragePriceMinor: r.OveragePriceMinor, Currency: r.Currency, SelfServe: r.SelfServe,
		MaxSources: r.MaxSources, CapturedBytesPerMonth: r.CapturedBytesPerMonth}
}

// overrideRow is a row of plan_overrides: a nil column keeps the plan's
// value.
type overrideRow struct {
	TenantID              uuid.UUID `gorm:"primaryKey"`
	Plan                  string    `gorm:"primaryKey"`
	EventsPerMonth        *int64
	MaxEndpoints          *int
	RetentionDays         *int
	EventsPerSecond       *int
	BaseFeeMinor          *int64
	OveragePriceMinor     *int64
	MaxSources            *int
	CapturedBytesPerMonth *int64
}

func (overrideRow) TableName() string { return "plan_overrides" }

// planChangeRow is a row of plan_changes.
type planChangeRow struct {
	ID        int64 `gorm:"primaryKey"`
	TenantID  uuid.UUID
	FromPlan  string
	ToPlan    string
	Actor     string
	ChangedAt time.Time
}

func (planChangeRow) TableName() string { return "plan_changes" }

// invoiceRow is a row of invoices; Period is the month's first day.
type invoiceRow struct {
	ID               uuid.UUID `gorm:"primaryKey"`
	TenantID         uuid.UUID
	Period           time.Time `gorm:"type:date"`
	Currency         string
	TotalMinor       int64
	Events           int64
	Attempts         int64
	Status           string
	PaymentReference string
	PaymentError     string
	PaymentAttempts  int
	CreatedAt        time.Time
	PaidAt           *time.Time
}

func (invoiceRow) TableName() string { return "invoices" }

func (r invoiceRow) invoice() Invoice {
	return Invoice{ID: r.ID, TenantID: r.TenantID, Period: FormatPeriod(r.Period), Currency: r.Currency,
		TotalMinor: r.TotalMinor, Events: r.Events, Attempts: r.Attempts, Status: r.Status,
		PaymentReference: r.PaymentReference, PaymentError: r.PaymentError, CreatedAt: r.CreatedAt, PaidAt: r.PaidAt}
}

// invoiceLineRow is a row of invoice_lines.
type invoiceLineRow struct {
	InvoiceID      uuid.UUID `gorm:"primaryKey"`
	LineNo         int       `gorm:"primaryKey;autoIncrement:false"`
	Kind           string
	Plan           string
	Description    string
	Quantity       int64
	UnitPriceMinor int64
	AmountMinor    int64
}

func (invoiceLineRow) TableName() string { return "invoice_lines" }

func (r invoiceLineRow) line() Line {
	return Line{Kind: r.Kind, Plan: r.Plan, Description: r.Description, Quantity: r.Quantity,
		UnitPriceMinor: r.UnitPriceMinor, AmountMinor: r.AmountMinor}
}

// invoiceRunRow is a row of invoice_runs: a completed run for a period.
type invoiceRunRow struct {
	Period      time.Time `gorm:"primaryKey;type:date"`
	CompletedAt time.Time
}

func (invoiceRunRow) TableName() string { return "invoice_runs" }

// attemptUsageDayRow is a row of attempt_usage_days.
type attemptUsageDayRow struct {
	TenantID uuid.UUID `gorm:"primaryKey"`
	Day      time.Time `gorm:"primaryKey;type:date"`
	Attempts int64
}

func (attemptUsageDayRow) TableName() string { return "attempt_usage_days" }

// attemptMeteringRow is the single row of attempt_metering.
type attemptMeteringRow struct {
	ID           bool      `gorm:"primaryKey"`
	FinalThrough time.Time `gorm:"type:date"`
}

func (attemptMeteringRow) TableName() string { return "attempt_metering" }

// usageCounterRow is a row of usage_counters (written by hand-written
// SQL at ingest, see quota.go; read here).
type usageCounterRow struct {
	TenantID uuid.UUID `gorm:"primaryKey"`
	Period   time.Time `gorm:"primaryKey;type:date"`
	Slot     int16     `gorm:"primaryKey;autoIncrement:false"`
	Events   int64
}

func (usageCounterRow) TableName() string { return "usage_counters" }

// rateWindowRow is a row of rate_windows (written at ingest, see
// quota.go).
type rateWindowRow struct {
	TenantID uuid.UUID `gorm:"primaryKey"`
	Second   int64     `gorm:"primaryKey;autoIncrement:false"`
	Slot     int16     `gorm:"primaryKey;autoIncrement:false"`
	Events   int
}

func (rateWindowRow) TableName() string { return "rate_windows" }

// forTenant narrows a query on a tenant-owned table to one tenant.
func forTenant(id uuid.UUID) func(*gorm.DB) *gorm.DB {
	return func(db *gorm.DB) *gorm.DB { return db.Where("tenant_id = ?", id) }
}
