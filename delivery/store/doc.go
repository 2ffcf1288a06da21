// Package store is the only code that inserts or changes rows of
// deliveries, outbox and delivery_transforms. Every path that creates
// deliveries (ingest, batched ingest, operational events, replay, finished
// transformations) calls InsertFanOut or its small siblings, and every
// path that moves a delivery's status (the attempt log, the dispatcher,
// pull queues, replay) goes through the functions of transition.go, where
// the guards that keep concurrent writers from undoing each other sit
// together with the state machine they enforce.
//
// The functions take a Tx, so the GORM paths (Gorm) and the pgx paths
// (pgx.Tx) share one set of statements.
package store
