package pgval

import "github.com/jackc/pgx/v5"

// Replan, passed as a statement's first argument, has pgx send the
// statement unnamed, so PostgreSQL plans each execution for its
// arguments and the tables as they are, rather than keeping a prepared
// statement's generic plan made while a table was small
// (docs/architecture.md#plans-for-tables-that-grow). It is for
// statements that look rows up by a batch of ids in a table that grows
// or churns. database/sql hands it to pgx unchanged, so it works through
// GORM's Statement.ConnPool with $n placeholders; GORM's query builder
// would take it for a placeholder's value.
const Replan = pgx.QueryExecModeCacheDescribe
