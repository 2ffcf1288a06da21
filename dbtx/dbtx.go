// Package dbtx carries one database transaction from the domain package
// that opened it to another domain package whose rows must commit or roll
// back with it, without either naming the other's tables or handing out a
// bare *gorm.DB in its interfaces.
//
// The opener wraps its transaction with Wrap and passes the Tx through an
// interface the callee's consumer declares (delivery's Meter, billing's
// TenantPlans); the callee runs its own statements on DB and never commits
// or rolls back: the opener does.
package dbtx

import (
	"context"

	"gorm.io/gorm"
)

// Tx is an open transaction shared across a domain boundary. A Tx may also
// wrap the connection pool, for reads that need no atomicity with anything
// else; each statement then commits alone.
type Tx struct {
	db *gorm.DB
}

// Wrap returns the Tx of db, a transaction (or the pool).
func Wrap(db *gorm.DB) Tx { return Tx{db: db} }

// DB returns the transaction's handle bound to ctx, for the callee's own
// statements. It panics on the zero Tx, which is a wiring bug.
func (t Tx) DB(ctx context.Context) *gorm.DB {
	if t.db == nil {
		panic("dbtx: zero Tx")
	}
	return t.db.WithContext(ctx)
}
