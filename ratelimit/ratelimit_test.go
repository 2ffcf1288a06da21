package ratelimit_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/ratelimit"
	"github.com/ferry-dev/ferry/tests/testenv"
)

func newBuckets(t *testing.T) (*ratelimit.Buckets, *gorm.DB) {
	t.Helper()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard})
	require.NoError(t, err)
	sqlDB, err := db.DB()
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	require.NoError(t, migrations.Up(context.Background(), sqlDB))
	return ratelimit.New(db), db
}

// A bucket starts full, hands out whole tokens until empty, refills at
// its rate up to its capacity, and refuses bad leases.
func TestLease(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b, db := newBuckets(t)
	key := "api:" + uuid.NewString()

	got, left, err := b.Lease(ctx, key, 10, 4)
	require.NoError(t, err)
	require.Equal(t, 4, got)
	require.InDelta(t, 6, left, 0.01)
	got, _, err = b.Lease(ctx, key, 10, 10)
	require.NoError(t, err)
	require.InDelta(t, 6, got, 1, "what is left (a little refill allowed)")
	got, _, err = b.Lease(ctx, key, 10, 5)
	require.NoError(t, err)
	require.LessOrEqual(t, got, 1, "an empty bucket")

	// Two seconds later (moved back in the row, not waited for): full
	// again, never above capacity.
	require.NoError(t, db.Exec(`UPDATE rate_buckets SET updated_at = updated_at - interval '2 seconds' WHERE key = ?`, key).Error)
	got, left, err = b.Lease(ctx, key, 10, 10)
	require.NoError(t, err)
	require.Equal(t, 10, got)
	require.Less(t, left, 1.0)

	for _, want := range []int{0, 11} {
		_, _, err := b.Lease(ctx, key, 10, want)
		require.Error(t, err, "want %d", want)
	}
}

// Concurrent leases from many processes never hand out more than the
// bucket holds.
func TestConcurrentLeasesShareOneBucket(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b, _ := newBuckets(t)
	key := "api:" + uuid.NewString()
	const perSecond = 1000
	var mu sync.Mutex
	total := 0
	start := time.Now()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				got, _, err := b.Lease(ctx, key, perSecond, 50)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				total += got
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	// The bucket's capacity plus what it refilled while they ran.
	require.LessOrEqual(t, float64(total), perSecond+elapsed*perSecond+1)
	require.GreaterOrEqual(t, total, perSecond)
}

// A lease whose transaction began before another process's lease (its
// now() is the earlier one, as when it waited for the row lock) gets no
// refill for the time between them, takes nothing from an empty bucket
// and leaves the bucket no fuller than it found it.
func TestLeaseFromAnOlderTransaction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b, db := newBuckets(t)
	key := "api:" + uuid.NewString()

	got, _, err := b.Lease(ctx, key, 10, 10)
	require.NoError(t, err)
	require.Equal(t, 10, got)

	older := db.Begin()
	require.NoError(t, older.Error)
	t.Cleanup(func() { older.Rollback() })
	require.NoError(t, older.Exec(`SELECT 1`).Error, "begin the older transaction: its now() is fixed here")
	time.Sleep(300 * time.Millisecond)
	// Meanwhile another process leases the refill (3 tokens at 10/s, or
	// more on a slow machine).
	got, _, err = b.Lease(ctx, key, 10, 10)
	require.NoError(t, err)
	require.GreaterOrEqual(t, got, 3)
	type row struct {
		Tokens    float64
		UpdatedAt time.Time
	}
	bucket := func() (r row) {
		require.NoError(t, db.Raw(`SELECT tokens, updated_at FROM rate_buckets WHERE key = ?`, key).Scan(&r).Error)
		return r
	}
	before := bucket()

	got, left, err := ratelimit.New(older).Lease(ctx, key, 10, 1)
	require.NoError(t, err)
	require.Equal(t, 0, got, "an empty bucket hands out nothing, whatever the lease's clock")
	require.InDelta(t, before.Tokens, left, 1e-9)
	require.NoError(t, older.Commit().Error)

	after := bucket()
	require.InDelta(t, before.Tokens, after.Tokens, 1e-9, "the bucket gained no token from the older lease")
	require.True(t, after.UpdatedAt.Equal(before.UpdatedAt), "the bucket's time moved from %s to %s", before.UpdatedAt, after.UpdatedAt)
}

// Prune forgets buckets nobody leased for a minute and keeps the others;
// a pruned key starts full again.
func TestPruneForgetsIdleBuckets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b, db := newBuckets(t)
	idle, busy := "source:"+uuid.NewString(), "source:"+uuid.NewString()
	for _, key := range []string{idle, busy} {
		_, _, err := b.Lease(ctx, key, 10, 10)
		require.NoError(t, err)
	}
	require.NoError(t, db.Exec(`UPDATE rate_buckets SET updated_at = now() - interval '2 minutes' WHERE key = ?`, idle).Error)

	_, err := b.Prune(ctx)
	require.NoError(t, err)
	var keys []string
	require.NoError(t, db.Raw(`SELECT key FROM rate_buckets WHERE key IN (?, ?)`, idle, busy).Scan(&keys).Error)
	require.Equal(t, []string{busy}, keys, "the idle bucket is gone, the busy one kept")

	got, _, err := b.Lease(ctx, idle, 10, 10)
	require.NoError(t, err)
	require.Equal(t, 10, got, "a pruned key starts full")
	got, _, err = b.Lease(ctx, busy, 10, 10)
	require.NoError(t, err)
	require.Less(t, got, 10, "the busy bucket kept its count")
}
