// Package pgstore is a ferrywebhooks.Store in a PostgreSQL table, through
// database/sql: any PostgreSQL driver using $n placeholders (pgx's stdlib,
// lib/pq). It is a module of its own so that the verifier module
// (github.com/ferry-dev/ferry/sdk/go) stays free of dependencies; this
// package itself imports only the standard library and the verifier.
package pgstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"time"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

// Store is a ferrywebhooks.Store in a PostgreSQL table whose primary key
// is the dedupe key. Expiry uses the database's clock.
type Store struct {
	db    *sql.DB
	table string
}

var _ ferrywebhooks.Store = (*Store)(nil)

// DefaultTable is the table Store uses by default.
const DefaultTable = "ferry_webhook_dedupe"

var tableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)

// New returns a store on table (DefaultTable when
// empty; "schema.table" allowed). Call CreateTable once, or create the
// table by your migrations with the statement CreateTable runs.
func New(db *sql.DB, table string) (*Store, error) {
	table = cmp.Or(table, DefaultTable)
	if !tableName.MatchString(table) {
		return nil, fmt.Errorf("pgstore: invalid table name %q", table)
	}
	return &Store{db: db, table: table}, nil
}

// CreateTable creates the table and its expiry index if missing.
func (s *Store) CreateTable(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+s.table+` (
	key text PRIMARY KEY,
	done boolean NOT NULL DEFAULT false,
	expires_at timestamptz NOT NULL
)`)
	if err != nil {
		return fmt.Errorf("create dedupe table %s: %w", s.table, err)
	}
	return nil
}

// Claim implements ferrywebhooks.Store: an insert that takes over an expired row, and
// a read of the row's state when the key is held.
func (s *Store) Claim(ctx context.Context, key string, lease time.Duration) (ferrywebhooks.Claim, error) {
	for range 3 {
		var got string
		err := s.db.QueryRowContext(ctx, `INSERT INTO `+s.table+` AS t (key, done, expires_at)
VALUES ($1, false, now() + $2::bigint * interval '1 millisecond')
ON CONFLICT (key) DO UPDATE SET done = false, expires_at = EXCLUDED.expires_at
WHERE t.expires_at <= now()
RETURNING key`, key, lease.Milliseconds()).Scan(&got)
		if err == nil {
			return ferrywebhooks.Claimed, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("claim dedupe key: %w", err)
		}
		var done bool
		err = s.db.QueryRowContext(ctx, `SELECT done FROM `+s.table+` WHERE key = $1 AND expires_at > now()`, key).Scan(&done)
		switch {
		case err == nil && done:
			return ferrywebhooks.Done, nil
		case err == nil:
			return ferrywebhooks.InProgress, nil
		case !errors.Is(err, sql.ErrNoRows):
			return 0, fmt.Errorf("read dedupe key: %w", err)
		}
		// The row expired or was released in between: try again.
	}
	return 0, errors.New("claim dedupe key: row kept changing")
}

// Complete implements ferrywebhooks.Store.
func (s *Store) Complete(ctx context.Context, key string, ttl time.Duration) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO `+s.table+` AS t (key, done, expires_at)
VALUES ($1, true, now() + $2::bigint * interval '1 millisecond')
ON CONFLICT (key) DO UPDATE SET done = true, expires_at = EXCLUDED.expires_at`, key, ttl.Milliseconds())
	if err != nil {
		return fmt.Errorf("complete dedupe key: %w", err)
	}
	return nil
}

// Release implements ferrywebhooks.Store.
func (s *Store) Release(ctx context.Context, key string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM `+s.table+` WHERE key = $1 AND NOT done`, key); err != nil {
		return fmt.Errorf("release dedupe key: %w", err)
	}
	return nil
}

// Purge deletes expired keys and returns how many; run it from a daily
// job (expired keys are otherwise only taken over, never removed).
func (s *Store) Purge(ctx context.Context) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM `+s.table+` WHERE expires_at <= now()`)
	if err != nil {
		return 0, fmt.Errorf("purge dedupe keys: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("purge dedupe keys: %w", err)
	}
	return n, nil
}
