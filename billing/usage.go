package billing

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Usage is what a tenant used in one calendar month (UTC).
type Usage struct {
	Period      string    `json:"period"`
	PeriodStart time.Time `json:"period_start"`
	PeriodEnd   time.Time `json:"period_end"`
	// Events accepted this month (exact, metered at ingest).
	Events int64 `json:"events"`
	// Attempts made this month, as counted by the billing job so far.
	Attempts int64 `json:"attempts"`
}

// Usage returns tenantID's usage in the month starting at period.
func (s *Service) Usage(ctx context.Context, tenantID uuid.UUID, period time.Time) (Usage, error) {
	return usageOf(s.db.WithContext(ctx), tenantID, MonthStart(period))
}

func usageOf(db *gorm.DB, tenantID uuid.UUID, period time.Time) (Usage, error) {
	u := Usage{Period: FormatPeriod(period), PeriodStart: period, PeriodEnd: NextMonth(period)}
	err := db.Raw(`SELECT
			(SELECT coalesce(sum(events), 0) FROM usage_counters WHERE tenant_id = ? AND period = ?) AS events,
			(SELECT coalesce(sum(attempts), 0) FROM attempt_usage_days WHERE tenant_id = ? AND day >= ? AND day < ?) AS attempts`,
		tenantID, period, tenantID, period, u.PeriodEnd).Row().Scan(&u.Events, &u.Attempts)
	if err != nil {
		return Usage{}, fmt.Errorf("load usage of tenant %s for %s: %w", tenantID, u.Period, err)
	}
	return u, nil
}

// MeterAttempts counts the attempts made on each UTC day in [from, to)
// per tenant and records the counts in attempt_usage_days. Re-counting a
// day is harmless: the stored count only ever grows (GREATEST), so a day
// whose attempts were since pruned keeps the count taken before.
func (s *Service) MeterAttempts(ctx context.Context, from, to time.Time) error {
	db := s.db.WithContext(ctx)
	day := from.UTC().Truncate(24 * time.Hour)
	for ; day.Before(to); day = day.AddDate(0, 0, 1) {
		err := db.Exec(`INSERT INTO attempt_usage_days (tenant_id, day, attempts)
			SELECT a.tenant_id, ?::date, count(*) FROM attempts a JOIN tenants t ON t.id = a.tenant_id
			WHERE a.started_at >= ? AND a.started_at < ? GROUP BY a.tenant_id ORDER BY a.tenant_id
			ON CONFLICT (tenant_id, day) DO UPDATE
			SET attempts = greatest(attempt_usage_days.attempts, EXCLUDED.attempts)`,
			day, day, day.AddDate(0, 0, 1)).Error
		if err != nil {
			return fmt.Errorf("meter attempts of %s: %w", day.Format(time.DateOnly), err)
		}
	}
	return nil
}
