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

// MeterRecentAttempts meters every day from the one after the last final
// day counted (or, the first time, from the oldest day the attempt log may
// hold) through today, then records the day before yesterday as final:
// the attempt log flushes within seconds, so no attempt arrives later for
// it. Normally that is two days per run; after an outage it catches up,
// and it always runs before PruneAttempts.
func (s *Service) MeterRecentAttempts(ctx context.Context) error {
	today := s.now().UTC().Truncate(24 * time.Hour)
	db := s.db.WithContext(ctx)
	var through []time.Time
	if err := db.Raw(`SELECT final_through FROM attempt_metering`).Scan(&through).Error; err != nil {
		return fmt.Errorf("load attempt metering mark: %w", err)
	}
	from := today.AddDate(0, 0, -1)
	if len(through) == 1 {
		if next := through[0].UTC().AddDate(0, 0, 1); next.Before(from) {
			from = next
		}
	} else {
		maxDays, err := s.MaxRetentionDays(ctx)
		if err != nil {
			return err
		}
		from = today.AddDate(0, 0, -maxDays-1)
	}
	if err := s.MeterAttempts(ctx, from, today.AddDate(0, 0, 1)); err != nil {
		return err
	}
	final := today.AddDate(0, 0, -2)
	if err := db.Exec(`INSERT INTO attempt_metering (id, final_through) VALUES (true, ?)
		ON CONFLICT (id) DO UPDATE SET final_through = greatest(attempt_metering.final_through, EXCLUDED.final_through)`,
		final).Error; err != nil {
		return fmt.Errorf("record attempt metering mark: %w", err)
	}
	return nil
}
