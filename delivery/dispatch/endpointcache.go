package dispatch

import (
	"context"
	"sync"
	"time"

	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/ferry-dev/ferry/delivery"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// target is what the dispatcher needs to deliver to one endpoint.
type target struct {
	endpoint delivery.Endpoint
	tenantID uuid.UUID
	deleted  bool
	keys     [][]byte // signing keys, current first
	loadedAt time.Time
}

// endpointCache keeps targets for a short TTL so a burst to one endpoint
// costs one endpoint query, while edits (disable, rotation, URL) still take
// effect within the TTL.
type endpointCache struct {
	db     *gorm.DB
	cipher *seal.Cipher
	ttl    time.Duration
	now    func() time.Time

	mu      sync.Mutex
	entries map[uuid.UUID]*target
}

func newEndpointCache(db *gorm.DB, c *seal.Cipher, ttl time.Duration, now func() time.Time) *endpointCache {
	return &endpointCache{db: db, cipher: c, ttl: ttl, now: now, entries: make(map[uuid.UUID]*target)}
}

// get returns the endpoint's target, at most the cache's TTL old.
func (c *endpointCache) get(ctx context.Context, id uuid.UUID) (*target, error) {
	return c.lookup(ctx, id, c.ttl)
}

// fresh returns the endpoint's target as Postgres has it now.
func (c *endpointCache) fresh(ctx context.Context, id uuid.UUID) (*target, error) {
	return c.lookup(ctx, id, 0)
}

func (c *endpointCache) lookup(ctx context.Context, id uuid.UUID, maxAge time.Duration) (*target, error) {
	now := c.now()
	c.mu.Lock()
	t, ok := c.entries[id]
	c.mu.Unlock()
	if ok && now.Sub(t.loadedAt) < maxAge {
		return t, nil
	}
	fresh, err := c.load(ctx, id, now)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[id] = fresh
	if len(c.entries) > 100_000 {
		for k, v := range c.entries {
			if now.Sub(v.loadedAt) >= c.ttl {
				delete(c.entries, k)
			}
		}
	}
	return fresh, nil
}

func (c *endpointCache) load(ctx context.Context, id uuid.UUID, now time.Time) (*target, error) {
	loaded, err := delivery.LoadTarget(ctx, c.db, c.cipher, id, now)
	if err != nil {
		return nil, err
	}
	return &target{loadedAt: now, deleted: loaded.Deleted, endpoint: loaded.Endpoint, tenantID: loaded.TenantID, keys: loaded.Keys}, nil
}
