package tenants

import (
	"sync"
	"time"

	"github.com/google/uuid"
)

// apiKeyCache remembers keys that authenticated, for a short TTL, so that
// a tenant sending thousands of events a second does not cost Postgres a
// key lookup per request. Only valid keys are kept (a wrong key always
// reaches the database). A key revoked through this process is forgotten
// at once; one revoked through another replica stops working here within
// the TTL.
type apiKeyCache struct {
	ttl time.Duration
	max int

	mu      sync.Mutex
	entries map[[32]byte]cachedKey
}

type cachedKey struct {
	principal Principal
	lastUsed  time.Time // last_used_at as recorded in Postgres
	loadedAt  time.Time
}

func newAPIKeyCache(ttl time.Duration, max int) *apiKeyCache {
	return &apiKeyCache{ttl: ttl, max: max, entries: make(map[[32]byte]cachedKey)}
}

// get returns the cached key for hash if it is fresh at now.
func (c *apiKeyCache) get(hash [32]byte, now time.Time) (cachedKey, bool) {
	if c.ttl <= 0 {
		return cachedKey{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[hash]
	if !ok || now.Sub(e.loadedAt) >= c.ttl {
		return cachedKey{}, false
	}
	return e, true
}

// put remembers a key that authenticated.
func (c *apiKeyCache) put(hash [32]byte, e cachedKey) {
	if c.ttl <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		for h, old := range c.entries {
			if e.loadedAt.Sub(old.loadedAt) >= c.ttl {
				delete(c.entries, h)
			}
		}
		if len(c.entries) >= c.max {
			// Every entry is fresh: start over rather than grow.
			clear(c.entries)
		}
	}
	c.entries[hash] = e
}

// forget drops the key with id (after a revocation).
func (c *apiKeyCache) forget(id uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, e := range c.entries {
		if e.principal.KeyID == id {
			delete(c.entries, h)
		}
	}
}
