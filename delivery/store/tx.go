package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"gorm.io/gorm"
)

// Tx runs the statements of one transaction (or of a pool, one statement
// each). pgx.Tx and pgx.Conn satisfy it; Gorm adapts GORM's handles.
// Statements use $n placeholders.
type Tx interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Gorm adapts a GORM handle (a transaction inside Transaction, or the
// pool) to Tx. Statements reach the pgx driver under database/sql as
// written: $n placeholders, and arguments pgx encodes natively (see
// pgval.Array).
func Gorm(db *gorm.DB) Tx { return gormTx{db.Statement.ConnPool} }

type gormTx struct{ pool gorm.ConnPool }

func (g gormTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	res, err := g.pool.ExecContext(ctx, sql, args...)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return pgconn.CommandTag{}, fmt.Errorf("rows affected: %w", err)
	}
	return pgconn.NewCommandTag(fmt.Sprintf("UPDATE %d", n)), nil
}

func (g gormTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := g.pool.QueryContext(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return &sqlRows{rows: rows}, nil
}

// sqlRows reads database/sql rows through the part of pgx.Rows this
// package uses: Next, Scan, Err and Close.
type sqlRows struct {
	rows *sql.Rows
	err  error
}

func (r *sqlRows) Close() {
	if err := r.rows.Close(); err != nil && r.err == nil {
		r.err = err
	}
}

func (r *sqlRows) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.rows.Err()
}

func (r *sqlRows) Next() bool { return r.rows.Next() }

func (r *sqlRows) Scan(dest ...any) error { return r.rows.Scan(dest...) }

func (r *sqlRows) CommandTag() pgconn.CommandTag { return pgconn.CommandTag{} }

func (r *sqlRows) FieldDescriptions() []pgconn.FieldDescription { return nil }

func (r *sqlRows) Values() ([]any, error) {
	return nil, fmt.Errorf("store: Values is not available on database/sql rows")
}

func (r *sqlRows) RawValues() [][]byte { return nil }

func (r *sqlRows) Conn() *pgx.Conn { return nil }

func (r *sqlRows) TypeMap() *pgtype.Map { return nil }

// collect scans each row with scan and closes rows.
func collect[T any](rows pgx.Rows, scan func(pgx.Rows) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
