package pgval

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"
)

// ErrNotPgx is returned by WithConn when db's driver is not pgx's
// database/sql driver, so there is no pgx connection to reach.
var ErrNotPgx = errors.New("database driver is not pgx")

// WithConn runs fn on a pgx connection taken from db's pool, for what
// database/sql cannot do (COPY). The connection returns to the pool after.
// Errors: ErrNotPgx (wrapped), pool errors, or fn's error.
func WithConn(ctx context.Context, db *gorm.DB, fn func(*pgx.Conn) error) error {
	sqlDB, err := db.DB()
	if err != nil {
		return fmt.Errorf("database handle: %w", err)
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("take a connection: %w", err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("%w: got %T", ErrNotPgx, dc)
		}
		return fn(sc.Conn())
	})
}
