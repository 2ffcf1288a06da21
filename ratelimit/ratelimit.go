// Package ratelimit keeps token buckets in PostgreSQL, one per key (a
// tenant's API requests, say), shared by every Ferry process, so a
// tenant's limit holds however many API replicas serve it. Processes
// lease tokens in batches and spend them locally: the database sees one
// statement per batch, not per request.
package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"gorm.io/gorm"
)

// Buckets are the shared buckets.
type Buckets struct {
	db *gorm.DB
}

// New returns the buckets kept in db.
func New(db *gorm.DB) *Buckets { return &Buckets{db: db} }

// leaseSQL refills key's bucket for the time since its last lease (at
// most to capacity $2, at $4 tokens a second), takes up to $3 whole
// tokens and returns how many it took and how many are left. The row
// lock serialises concurrent leases of one key; the database's clock is
// the one clock every process shares. now() is when the transaction
// began, so a lease that waited for the lock may find the row updated
// after its own now(): it gets no refill, and the row's time never moves
// back, or the same interval would be refilled twice.
const leaseSQL = `WITH cur AS (
		SELECT least($2::float8, tokens + greatest(0, extract(epoch FROM now() - updated_at)) * $4::float8) AS avail,
			greatest(updated_at, now()) AS at
		FROM rate_buckets WHERE key = $1 FOR UPDATE)
	UPDATE rate_buckets b SET tokens = cur.avail - least($3::int, floor(cur.avail)), updated_at = cur.at
	FROM cur WHERE b.key = $1
	RETURNING least($3::int, floor(cur.avail))::int AS granted, b.tokens AS remaining`

// Lease takes up to want tokens (1 ≤ want ≤ perSecond) from key's
// bucket, which holds at most perSecond tokens and refills perSecond a
// second, and returns how many it got (0: the bucket is empty) and how
// many the bucket holds after.
func (b *Buckets) Lease(ctx context.Context, key string, perSecond, want int) (granted int, left float64, err error) {
	if want < 1 || want > perSecond {
		return 0, 0, fmt.Errorf("ratelimit: lease of %d tokens from a bucket of %d", want, perSecond)
	}
	for range 2 {
		var rows []struct {
			Granted   int
			Remaining float64
		}
		if err := b.db.WithContext(ctx).Raw(leaseSQL, key, perSecond, want, perSecond).Scan(&rows).Error; err != nil {
			return 0, 0, fmt.Errorf("lease rate tokens: %w", err)
		}
		if len(rows) == 1 {
			return rows[0].Granted, rows[0].Remaining, nil
		}
		// A new key starts full, less this lease.
		res := b.db.WithContext(ctx).Exec(`INSERT INTO rate_buckets (key, tokens, updated_at) VALUES (?, ?, now())
			ON CONFLICT (key) DO NOTHING`, key, perSecond-want)
		if res.Error != nil {
			return 0, 0, fmt.Errorf("create rate bucket: %w", res.Error)
		}
		if res.RowsAffected == 1 {
			return want, float64(perSecond - want), nil
		}
		// Another process created it first: lease from it.
	}
	return 0, 0, fmt.Errorf("lease rate tokens: bucket %s neither found nor created", key)
}

// idleAfter is how long a bucket goes unleased before Prune forgets it. A
// bucket refills its whole capacity within a second, so one idle this
// long is full: what a new one starts as.
const idleAfter = time.Minute

// Prune deletes the buckets nobody leased for a minute (every deleted
// source, endpoint or tenant leaves one behind) and returns how many.
// A lease racing the delete either updates the row first, and the
// delete, re-checking it, keeps it, or finds no row and starts a full
// bucket, as the deleted one was. Errors: wrapped database errors.
func (b *Buckets) Prune(ctx context.Context) (int64, error) {
	res := b.db.WithContext(ctx).Exec(`DELETE FROM rate_buckets WHERE updated_at < now() - make_interval(secs => ?)`,
		idleAfter.Seconds())
	if res.Error != nil {
		return 0, fmt.Errorf("prune rate buckets: %w", res.Error)
	}
	return res.RowsAffected, nil
}

// Run prunes idle buckets every interval until ctx ends; a failed prune
// is logged and tried again at the next.
func (b *Buckets) Run(ctx context.Context, interval time.Duration, log *slog.Logger) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			if _, err := b.Prune(ctx); err != nil && ctx.Err() == nil {
				log.Warn("rate buckets not pruned", "err", err)
			}
		}
	}
}
