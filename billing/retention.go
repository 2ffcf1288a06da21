package billing

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// PruneAttempts deletes the attempts each tenant's plan no longer keeps:
// those started more than retention_days ago. The partition job drops
// whole days past the longest retention (MaxRetentionDays); this removes
// the rest for tenants on shorter plans. It returns how many rows went.
func (s *Service) PruneAttempts(ctx context.Context) (int64, error) {
	now := s.clock.Now().UTC()
	maxDays, err := s.MaxRetentionDays(ctx)
	if err != nil {
		return 0, err
	}
	// Attempts older than the longest retention are the partition job's.
	floor := now.AddDate(0, 0, -maxDays-1)
	days, err := s.retentionDays(ctx)
	if err != nil {
		return 0, err
	}
	cutoffs := map[uuid.UUID]time.Time{}
	for id, d := range days {
		if d < maxDays {
			cutoffs[id] = now.AddDate(0, 0, -d)
		}
	}
	if len(cutoffs) == 0 {
		return 0, nil
	}
	n, err := s.deps.Attempts.PruneAttempts(ctx, floor, cutoffs)
	if err != nil {
		return 0, fmt.Errorf("prune attempts past plan retention: %w", err)
	}
	if n > 0 {
		s.log.InfoContext(ctx, "pruned attempts past plan retention", "rows", n)
	}
	return n, nil
}

// CleanRateWindows removes per-second rate windows older than a minute.
func (s *Service) CleanRateWindows(ctx context.Context) error {
	cutoff := s.clock.Now().Add(-time.Minute).Unix()
	if err := s.db.WithContext(ctx).Where("second < ?", cutoff).Delete(&rateWindowRow{}).Error; err != nil {
		return fmt.Errorf("clean rate windows: %w", err)
	}
	return nil
}

// AttemptRetention is how long the tenant's plan keeps attempts. delivery
// hides older attempts with it, so the log shown matches the plan between
// runs of PruneAttempts.
func (s *Service) AttemptRetention(ctx context.Context, tenantID uuid.UUID) (time.Duration, error) {
	e, err := s.Entitlements(ctx, tenantID)
	if err != nil {
		return 0, err
	}
	return time.Duration(e.RetentionDays) * 24 * time.Hour, nil
}
