package pgstore_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
	"github.com/ferry-dev/ferry/sdk/go/internal/storetest"
	"github.com/ferry-dev/ferry/sdk/go/pgstore"
)

// newPostgresStore opens FERRY_TEST_DATABASE_URL and returns a store on
// a table in a schema of its own, dropped when the test ends.
func newPostgresStore(t *testing.T) *pgstore.Store {
	t.Helper()
	db, err := sql.Open("pgx", storetest.Service(t, "FERRY_TEST_DATABASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "sdk_go_" + hex.EncodeToString(b)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema (is PostgreSQL running? `make services`): %v", err)
	}
	t.Cleanup(func() { _, _ = db.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE") })
	s, err := pgstore.New(db, schema+".dedupe")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPostgresStore(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) ferrywebhooks.Store { return newPostgresStore(t) }, time.Sleep)
}

// TestPostgresStorePurge checks expired keys are deleted and live ones
// kept.
func TestPostgresStorePurge(t *testing.T) {
	t.Parallel()
	s := newPostgresStore(t)
	ctx := t.Context()
	_, _ = s.Claim(ctx, "short", time.Millisecond)
	_, _ = s.Claim(ctx, "long", time.Hour)
	time.Sleep(20 * time.Millisecond)
	n, err := s.Purge(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Purge = %d, %v; want 1", n, err)
	}
	if c, _ := s.Claim(ctx, "long", time.Hour); c != ferrywebhooks.InProgress {
		t.Fatalf("live key purged: claim = %d", c)
	}
}

func TestPostgresStoreRejectsBadTableName(t *testing.T) {
	t.Parallel()
	if _, err := pgstore.New(nil, "x; DROP TABLE y"); err == nil {
		t.Fatal("bad table name accepted")
	}
}
