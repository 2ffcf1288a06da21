package billing

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Usage is what a tenant used in one calendar month (UTC).
type Usage struct {
	Period      string    `json:"period"`
	PeriodStart time.Time `json:"period_start"` // start of the month (UTC)
	PeriodEnd   time.Time `json:"period_end"`   // start of the next month (UTC)
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
	if err := db.Model(&usageCounterRow{}).Scopes(forTenant(tenantID)).Where("period = ?", period).
		Select("coalesce(sum(events), 0)").Scan(&u.Events).Error; err != nil {
		return Usage{}, fmt.Errorf("load events of tenant %s for %s: %w", tenantID, u.Period, err)
	}
	if err := db.Model(&attemptUsageDayRow{}).Scopes(forTenant(tenantID)).Where("day >= ? AND day < ?", period, u.PeriodEnd).
		Select("coalesce(sum(attempts), 0)").Scan(&u.Attempts).Error; err != nil {
		return Usage{}, fmt.Errorf("load attempts of tenant %s for %s: %w", tenantID, u.Period, err)
	}
	return u, nil
}

// MeterAttempts counts the attempts made on each UTC day in [from, to)
// per tenant (asking delivery's attempt log) and records the counts in
// attempt_usage_days. Re-counting a day is harmless: the stored count only
// ever grows (GREATEST), so a day whose attempts were since pruned keeps
// the count taken before.
func (s *Service) MeterAttempts(ctx context.Context, from, to time.Time) error {
	db := s.db.WithContext(ctx)
	known := map[uuid.UUID]bool{}
	if err := s.deps.Tenants.EachTenant(ctx, time.Time{}, func(id uuid.UUID, _ string, _ time.Time) error {
		known[id] = true
		return nil
	}); err != nil {
		return fmt.Errorf("list tenants to meter: %w", err)
	}
	day := from.UTC().Truncate(24 * time.Hour)
	for ; day.Before(to); day = day.AddDate(0, 0, 1) {
		counts, err := s.deps.Attempts.CountAttempts(ctx, day, day.AddDate(0, 0, 1))
		if err != nil {
			return fmt.Errorf("count attempts of %s: %w", day.Format(time.DateOnly), err)
		}
		rows := make([]attemptUsageDayRow, 0, len(counts))
		for id, n := range counts {
			if known[id] { // attempts outlive a deleted tenant until retention
				rows = append(rows, attemptUsageDayRow{TenantID: id, Day: day, Attempts: n})
			}
		}
		if len(rows) == 0 {
			continue
		}
		// Upserting in tenant order keeps concurrent replicas' row locks
		// in one order, so they cannot deadlock.
		slices.SortFunc(rows, func(a, b attemptUsageDayRow) int { return bytes.Compare(a.TenantID[:], b.TenantID[:]) })
		err = db.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "tenant_id"}, {Name: "day"}},
			DoUpdates: clause.Assignments(map[string]any{"attempts": gorm.Expr("greatest(attempt_usage_days.attempts, excluded.attempts)")}),
		}).CreateInBatches(&rows, 1000).Error
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
	today := s.clock.Now().UTC().Truncate(24 * time.Hour)
	db := s.db.WithContext(ctx)
	var marks []attemptMeteringRow
	if err := db.Find(&marks).Error; err != nil {
		return fmt.Errorf("load attempt metering mark: %w", err)
	}
	from := today.AddDate(0, 0, -1)
	if len(marks) == 1 {
		if next := marks[0].FinalThrough.UTC().AddDate(0, 0, 1); next.Before(from) {
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
	mark := attemptMeteringRow{ID: true, FinalThrough: today.AddDate(0, 0, -2)}
	if err := db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "id"}},
		DoUpdates: clause.Assignments(map[string]any{"final_through": gorm.Expr("greatest(attempt_metering.final_through, excluded.final_through)")}),
	}).Create(&mark).Error; err != nil {
		return fmt.Errorf("record attempt metering mark: %w", err)
	}
	return nil
}
