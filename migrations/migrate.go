package migrations

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Up applies every pending migration. A Postgres advisory lock held by
// goose's provider serialises replicas migrating at once.
func Up(ctx context.Context, db *sql.DB) error {
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	// Out-of-order application lets a migration numbered below one
	// already applied (two branches landing in either order) still run.
	p, err := goose.NewProvider(goose.DialectPostgres, db, FS, goose.WithSessionLocker(locker), goose.WithAllowOutofOrder(true))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate up: %w", err)
	}
	return nil
}

// Pending lists the migrations this binary carries that the database has
// not applied, without applying anything (ferry doctor), and the newest
// version applied.
func Pending(ctx context.Context, db *sql.DB) (pending []int64, applied int64, err error) {
	p, err := goose.NewProvider(goose.DialectPostgres, db, FS, goose.WithAllowOutofOrder(true))
	if err != nil {
		return nil, 0, fmt.Errorf("migrations: %w", err)
	}
	statuses, err := p.Status(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("migration status: %w", err)
	}
	for _, s := range statuses {
		switch s.State {
		case goose.StatePending:
			pending = append(pending, s.Source.Version)
		case goose.StateApplied:
			applied = max(applied, s.Source.Version)
		}
	}
	return pending, applied, nil
}
