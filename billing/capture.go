package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// CaptureTerms are a tenant's bounds on inbound sources this month: the
// plan's limits and the bytes its sources have captured so far.
type CaptureTerms struct {
	MaxSources            int
	CapturedBytesPerMonth int64
	// CapturedBytes is this month's usage as metered so far.
	CapturedBytes int64
	// MonthEnds is when the month's bytes start over.
	MonthEnds time.Time
}

// CaptureTerms returns tenantID's bounds on inbound sources and captured
// bytes, with this month's usage. Errors: ENOTFOUND, wrapped database
// errors.
func (s *Service) CaptureTerms(ctx context.Context, tenantID uuid.UUID) (CaptureTerms, error) {
	ent, err := s.entitlements(ctx, dbtx.Wrap(s.db), tenantID)
	if err != nil {
		return CaptureTerms{}, err
	}
	now := s.clock.Now().UTC()
	month := MonthStart(now)
	var used []int64
	if err := s.db.WithContext(ctx).Table("capture_usage").Where("tenant_id = ? AND period = ?", tenantID, month).
		Pluck("bytes", &used).Error; err != nil {
		return CaptureTerms{}, fmt.Errorf("load captured bytes of tenant %s: %w", tenantID, err)
	}
	t := CaptureTerms{MaxSources: ent.MaxSources, CapturedBytesPerMonth: ent.CapturedBytesPerMonth, MonthEnds: month.AddDate(0, 1, 0)}
	if len(used) == 1 {
		t.CapturedBytes = used[0]
	}
	return t, nil
}

// MeterCapturedBytes adds the bytes captured per tenant to the month of
// at. A tenant deleted meanwhile is skipped. Errors: wrapped database
// errors.
func (s *Service) MeterCapturedBytes(ctx context.Context, usage map[uuid.UUID]int64, at time.Time) error {
	if len(usage) == 0 {
		return nil
	}
	tenants, bytes := make([]uuid.UUID, 0, len(usage)), make([]int64, 0, len(usage))
	for id, n := range usage {
		tenants, bytes = append(tenants, id), append(bytes, n)
	}
	month := MonthStart(at.UTC())
	if err := meterCaptured(ctx, s, month, tenants, bytes); err == nil {
		return nil
	}
	// One tenant gone (its usage rows cascade away) fails the whole
	// statement: meter the others one by one.
	for i := range tenants {
		if err := meterCaptured(ctx, s, month, tenants[i:i+1], bytes[i:i+1]); err != nil && !isForeignKeyViolation(err) {
			return err
		}
	}
	return nil
}

// meterCaptured is one upsert for every tenant given. Hand-written: a
// flush of many tenants is one statement, each column one array
// parameter (pgval.Array).
func meterCaptured(ctx context.Context, s *Service, month time.Time, tenants []uuid.UUID, bytes []int64) error {
	err := s.db.WithContext(ctx).Exec(`INSERT INTO capture_usage (tenant_id, period, bytes)
		SELECT t, ?::date, b FROM unnest(?::uuid[], ?::bigint[]) AS u(t, b)
		ON CONFLICT (tenant_id, period) DO UPDATE SET bytes = capture_usage.bytes + EXCLUDED.bytes`,
		month, pgval.Array(tenants), pgval.Array(bytes)).Error
	if err != nil {
		return fmt.Errorf("meter captured bytes: %w", err)
	}
	return nil
}

// isForeignKeyViolation reports PostgreSQL's foreign_key_violation.
func isForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23503"
}
