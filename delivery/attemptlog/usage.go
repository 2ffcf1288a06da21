package attemptlog

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Usage reports the attempts tenants made, for billing, and prunes
// attempts past each tenant's plan retention. It satisfies
// billing.AttemptLog; app plugs it in.
type Usage struct {
	db *gorm.DB
}

// NewUsage returns a Usage on db.
func NewUsage(db *gorm.DB) *Usage { return &Usage{db: db} }

// pruneChunk bounds the tenant ids of one DELETE (Postgres takes at most
// 65535 parameters per statement).
const pruneChunk = 5000

// CountAttempts returns how many attempts each tenant started in
// [from, to); tenants without any are absent. Errors: wrapped database
// errors.
func (u *Usage) CountAttempts(ctx context.Context, from, to time.Time) (map[uuid.UUID]int64, error) {
	var rows []struct {
		TenantID uuid.UUID
		N        int64
	}
	// Hand-written: the attempt log is written by COPY into day partitions
	// and has no GORM model; the range lets Postgres skip other days.
	if err := u.db.WithContext(ctx).Raw(`SELECT tenant_id, count(*) AS n FROM attempts
		WHERE started_at >= ? AND started_at < ? GROUP BY tenant_id`, from, to).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("count attempts from %s: %w", from.Format(time.RFC3339), err)
	}
	counts := make(map[uuid.UUID]int64, len(rows))
	for _, r := range rows {
		counts[r.TenantID] = r.N
	}
	return counts, nil
}

// PruneAttempts deletes the attempts of each tenant in cutoffs that
// started at or after floor and before the tenant's cutoff, and returns
// how many went. Tenants sharing a cutoff are deleted together. Errors:
// wrapped database errors.
func (u *Usage) PruneAttempts(ctx context.Context, floor time.Time, cutoffs map[uuid.UUID]time.Time) (int64, error) {
	byCutoff := map[time.Time][]uuid.UUID{}
	for id, c := range cutoffs {
		byCutoff[c] = append(byCutoff[c], id)
	}
	db := u.db.WithContext(ctx)
	var n int64
	for cutoff, ids := range byCutoff {
		for len(ids) > 0 {
			chunk := ids[:min(len(ids), pruneChunk)]
			ids = ids[len(chunk):]
			// Hand-written: the attempt log has no GORM model (see
			// CountAttempts).
			res := db.Exec(`DELETE FROM attempts WHERE tenant_id IN ? AND started_at >= ? AND started_at < ?`,
				chunk, floor, cutoff)
			if res.Error != nil {
				return n, fmt.Errorf("prune attempts before %s: %w", cutoff.Format(time.RFC3339), res.Error)
			}
			n += res.RowsAffected
		}
	}
	return n, nil
}
