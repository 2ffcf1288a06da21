package inbound

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// Prune deletes captured requests past retention, rejected ones too:
// everything older than Config.MaxRetention, and for each tenant on a
// shorter plan everything older than its plan keeps (the plan's
// attempt retention, so a capture lives as long as the attempts of the
// event it became). It also forgets dedupe keys past their window. It
// returns how many requests went. Errors: wrapped database errors.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	now := s.clock.Now().UTC()
	db := s.db.WithContext(ctx)
	if err := db.Exec(`DELETE FROM source_dedupe WHERE created_at < ?`, now.Add(-DedupeWindow)).Error; err != nil {
		return 0, fmt.Errorf("prune dedupe keys: %w", err)
	}
	res := db.Exec(`DELETE FROM source_requests WHERE received_at < ?`, now.Add(-s.cfg.MaxRetention))
	if res.Error != nil {
		return 0, fmt.Errorf("prune requests past %s: %w", s.cfg.MaxRetention, res.Error)
	}
	n := res.RowsAffected
	if s.retention == nil {
		return n, nil
	}
	var tenants []uuid.UUID
	if err := db.Raw(`SELECT DISTINCT tenant_id FROM sources`).Scan(&tenants).Error; err != nil {
		return n, fmt.Errorf("list tenants with sources: %w", err)
	}
	for _, id := range tenants {
		keep, err := s.retention.AttemptRetention(ctx, id)
		if err != nil {
			return n, fmt.Errorf("retention of tenant %s: %w", id, err)
		}
		if keep <= 0 || keep >= s.cfg.MaxRetention {
			continue
		}
		res := db.Exec(`DELETE FROM source_requests WHERE tenant_id = ? AND received_at < ?`, id, now.Add(-keep))
		if res.Error != nil {
			return n, fmt.Errorf("prune requests of tenant %s: %w", id, res.Error)
		}
		n += res.RowsAffected
	}
	if n > 0 {
		s.log.InfoContext(ctx, "pruned source requests past retention", "rows", n)
	}
	return n, nil
}
