package ferrywebhooks

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"
)

// DefaultTTL is how long a processed webhook-id is remembered: longer
// than DefaultTolerance, so every request that still passes the
// timestamp check is recognised as a duplicate.
const DefaultTTL = DefaultTolerance + 24*time.Hour

// MinTTL is the shortest TTL NewDeduper accepts: Ferry retries for 72
// hours, and a key must outlive them with a margin.
const MinTTL = 4 * 24 * time.Hour

// DefaultLease is how long a claim holds while the handler runs. If the
// process dies mid-handler, the key frees itself after the lease and a
// retry is processed.
const DefaultLease = 2 * time.Minute

// Claim is the state of a key found by Store.Claim.
type Claim int

const (
	// Claimed: the key was free; the caller now holds it for the lease.
	Claimed Claim = iota + 1
	// InProgress: another request holds a live claim on the key.
	InProgress
	// Done: the key was processed and is remembered until its TTL ends.
	Done
)

// Store keeps dedupe keys. Implementations must make Claim atomic across
// every process that shares the store. MemoryStore, pgstore.Store and
// redisstore.Store implement it.
type Store interface {
	// Claim records key as in progress for lease unless a live claim or
	// a completion exists, and reports which. It returns an error only
	// when the store cannot be reached or answers oddly.
	Claim(ctx context.Context, key string, lease time.Duration) (Claim, error)
	// Complete marks key done and keeps it for ttl. It returns an error
	// only when the store fails.
	Complete(ctx context.Context, key string, ttl time.Duration) error
	// Release removes an in-progress claim on key (a completed key is
	// kept), so the next delivery of the event is processed. It returns
	// an error only when the store fails.
	Release(ctx context.Context, key string) error
}

// Dedupe errors returned by Deduper.Do.
var (
	// ErrDuplicate: the event was already processed. Answer 2xx.
	ErrDuplicate = errors.New("duplicate webhook: already processed")
	// ErrInProgress: another request is processing the event right now.
	// Answer a retryable status (409) so Ferry tries again later.
	ErrInProgress = errors.New("duplicate webhook: being processed")
	// ErrNotRecorded: the handler succeeded but the store could not
	// record it; the event may be processed again. Answer 2xx.
	ErrNotRecorded = errors.New("webhook processed but not recorded as done")
	// ErrStore: the store could not be asked before running the handler.
	// Answer a retryable status (503).
	ErrStore = errors.New("dedupe store failed")
)

// DedupeConfig configures a Deduper. Zero fields take their defaults.
type DedupeConfig struct {
	// TTL is how long processed ids are kept (DefaultTTL; at least
	// MinTTL). Keep it above the Verifier's Tolerance.
	TTL time.Duration
	// Lease is how long a claim holds while the handler runs
	// (DefaultLease).
	Lease time.Duration
	// Prefix is put before webhook-id to make the key ("ferry:" by
	// default); give each endpoint its own when several share a store.
	Prefix string
}

// Deduper runs a handler at most once per webhook-id.
type Deduper struct {
	store Store
	cfg   DedupeConfig
}

// NewDeduper returns a Deduper over store.
func NewDeduper(store Store, cfg DedupeConfig) (*Deduper, error) {
	if store == nil {
		return nil, errors.New("ferrywebhooks: nil dedupe store")
	}
	cfg.TTL = cmp.Or(cfg.TTL, DefaultTTL)
	cfg.Lease = cmp.Or(cfg.Lease, DefaultLease)
	cfg.Prefix = cmp.Or(cfg.Prefix, "ferry:")
	if cfg.TTL < MinTTL {
		return nil, fmt.Errorf("ferrywebhooks: dedupe TTL %s is below the minimum %s", cfg.TTL, MinTTL)
	}
	if cfg.Lease <= 0 || cfg.Lease > cfg.TTL {
		return nil, fmt.Errorf("ferrywebhooks: dedupe lease %s must be positive and below the TTL", cfg.Lease)
	}
	return &Deduper{store: store, cfg: cfg}, nil
}

// Do runs fn unless the event id was already processed or is being
// processed. When fn fails the claim is released, so Ferry's retry of
// the event runs fn again; when fn succeeds the id is kept for the TTL.
//
// Do returns nil after a successful fn; ErrDuplicate or ErrInProgress
// without running fn; fn's error (wrapped); ErrNotRecorded when fn
// succeeded but completion could not be stored; or ErrStore.
func (d *Deduper) Do(ctx context.Context, id string, fn func(context.Context) error) error {
	key := d.cfg.Prefix + id
	c, err := d.store.Claim(ctx, key, d.cfg.Lease)
	if err != nil {
		return fmt.Errorf("%w: claim webhook %s: %w", ErrStore, id, err)
	}
	switch c {
	case Claimed:
	case Done:
		return ErrDuplicate
	case InProgress:
		return ErrInProgress
	default:
		return fmt.Errorf("claim webhook %s: unknown claim state %d", id, c)
	}
	// Record the outcome even if the request's context was cancelled.
	after := context.WithoutCancel(ctx)
	if err := runHandler(ctx, fn); err != nil {
		if rerr := d.store.Release(after, key); rerr != nil {
			return errors.Join(fmt.Errorf("handle webhook %s: %w", id, err), fmt.Errorf("release webhook %s: %w", id, rerr))
		}
		return fmt.Errorf("handle webhook %s: %w", id, err)
	}
	if err := d.store.Complete(after, key, d.cfg.TTL); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrNotRecorded, id, err)
	}
	return nil
}

// runHandler calls fn, turning a panic into an error so the claim is
// released.
func runHandler(ctx context.Context, fn func(context.Context) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("handler panicked: %v", r)
		}
	}()
	return fn(ctx)
}
