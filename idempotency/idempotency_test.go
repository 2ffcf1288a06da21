package idempotency_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/idempotency"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/internal/seal"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/tests/testenv"
)

func TestValidKey(t *testing.T) {
	t.Parallel()
	for key, ok := range map[string]bool{
		"a": true, "order-42/retry": true, strings.Repeat("k", 255): true, "ключ": true,
		"": false, strings.Repeat("k", 256): false, "\xff\xfe": false,
	} {
		err := idempotency.ValidKey(key)
		require.Equal(t, ok, err == nil, "ValidKey(%q) = %v", key, err)
		if err != nil {
			require.Equal(t, ferry.EINVALID, ferry.ErrorCode(err))
		}
	}
}

func newStore(t *testing.T, clk clock.Clock) (*idempotency.Store, *gorm.DB) {
	t.Helper()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard})
	require.NoError(t, err)
	sqlDB, err := db.DB()
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	require.NoError(t, migrations.Up(context.Background(), sqlDB))
	cipher, err := seal.New(bytes.Repeat([]byte{9}, 32))
	require.NoError(t, err)
	return idempotency.NewStore(db, cipher, slog.New(slog.DiscardHandler), clk), db
}

// A key runs its request once: a repeat gets the stored answer, another
// request under it is refused, and a repeat while the first runs waits
// its turn. A failed request frees its key; keys are per scope and last
// 24 hours; a claim whose process died is taken over after two minutes.
func TestKeyLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := clock.NewManual(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC))
	s, db := newStore(t, clk)
	first, other := []byte("fingerprint-1"), []byte("fingerprint-2")
	answer := idempotency.Response{Status: 201, ContentType: "application/json", Body: []byte(`{"secret":"whsec_abc"}`)}

	got, err := s.Begin(ctx, "tenant:a", "k1", first)
	require.NoError(t, err)
	require.Nil(t, got, "a new key runs its request")

	_, err = s.Begin(ctx, "tenant:a", "k1", first)
	require.Equal(t, ferry.ECONFLICT, ferry.ErrorCode(err), "a repeat while the first runs")
	_, err = s.Begin(ctx, "tenant:a", "k1", other)
	require.Equal(t, ferry.EKEYREUSED, ferry.ErrorCode(err), "another request under a running key")

	require.NoError(t, s.Finish(ctx, "tenant:a", "k1", answer))
	got, err = s.Begin(ctx, "tenant:a", "k1", first)
	require.NoError(t, err)
	require.Equal(t, &answer, got, "a repeat gets the first answer")
	_, err = s.Begin(ctx, "tenant:a", "k1", other)
	require.Equal(t, ferry.EKEYREUSED, ferry.ErrorCode(err))

	// The answer is sealed at rest: its secret is not in the row.
	var stored []byte
	require.NoError(t, db.Raw(`SELECT response FROM idempotency_keys WHERE scope = 'tenant:a' AND key = 'k1'`).Row().Scan(&stored))
	require.NotContains(t, string(stored), "whsec_abc")

	// Another scope's same key is its own.
	got, err = s.Begin(ctx, "tenant:b", "k1", other)
	require.NoError(t, err)
	require.Nil(t, got)

	// A failed request frees its key for the retry.
	require.NoError(t, s.Release(ctx, "tenant:b", "k1"))
	got, err = s.Begin(ctx, "tenant:b", "k1", first)
	require.NoError(t, err)
	require.Nil(t, got)

	// A claim never finished (its process died) is taken over after two
	// minutes, not before.
	clk.Advance(time.Minute)
	_, err = s.Begin(ctx, "tenant:b", "k1", first)
	require.Equal(t, ferry.ECONFLICT, ferry.ErrorCode(err))
	clk.Advance(90 * time.Second)
	got, err = s.Begin(ctx, "tenant:b", "k1", other)
	require.NoError(t, err)
	require.Nil(t, got)

	// After 24 hours the key is free again, and pruned.
	clk.Advance(idempotency.Window + time.Second)
	n, err := s.Prune(ctx)
	require.NoError(t, err)
	require.GreaterOrEqual(t, n, int64(2))
	got, err = s.Begin(ctx, "tenant:a", "k1", other)
	require.NoError(t, err)
	require.Nil(t, got, "a key is free after the window")
}

// Concurrent repeats of one key: exactly one runs.
func TestConcurrentRepeatsRunOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t, nil)
	results := make(chan error, 16)
	claimed := make(chan struct{}, 16)
	for range 16 {
		go func() {
			got, err := s.Begin(ctx, "tenant:c", "race", []byte("fp"))
			if err == nil && got == nil {
				claimed <- struct{}{}
			}
			results <- err
		}()
	}
	conflicts := 0
	for range 16 {
		if err := <-results; err != nil {
			require.Equal(t, ferry.ECONFLICT, ferry.ErrorCode(err))
			conflicts++
		}
	}
	require.Len(t, claimed, 1)
	require.Equal(t, 15, conflicts)
}
