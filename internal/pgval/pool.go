package pgval

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// OpenLookups opens a pool of at most maxConns connections to dsn for
// statements that read rows by primary key, a batch of ids at a time,
// from tables that grow. On its connections each statement is prepared
// and planned once (a generic plan), and the planner may use neither
// whole-table scans nor hash or merge joins: the plan it makes is index
// probes and nested loops, which stays right whether the tables held
// nothing or millions of rows when it was made. On the shared pool such
// statements are planned at every execution instead (Replan), which
// under load cost PostgreSQL more than running them
// (docs/architecture.md#plans-for-tables-that-grow). Only statements
// for which index probes are the right plan at every table size belong
// here.
func OpenLookups(ctx context.Context, dsn string, maxConns int) (*gorm.DB, error) {
	db, err := Open(ctx, dsn, maxConns, map[string]string{
		"plan_cache_mode":  "force_generic_plan",
		"enable_seqscan":   "off",
		"enable_hashjoin":  "off",
		"enable_mergejoin": "off",
	})
	if err != nil {
		return nil, fmt.Errorf("lookup pool: %w", err)
	}
	return db, nil
}

// Open connects a pool of at most maxConns connections to dsn, whose
// sessions start with settings (PostgreSQL parameters; nil keeps the
// server's), and checks that the database answers.
func Open(ctx context.Context, dsn string, maxConns int, settings map[string]string) (*gorm.DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	maps.Copy(cfg.RuntimeParams, settings)
	sqlDB := stdlib.OpenDB(*cfg)
	sqlDB.SetMaxOpenConns(maxConns)
	sqlDB.SetMaxIdleConns(maxConns)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := sqlDB.PingContext(pingCtx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	db, err := gorm.Open(postgres.New(postgres.Config{Conn: sqlDB}), &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true})
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("open database: %w", err)
	}
	return db, nil
}
