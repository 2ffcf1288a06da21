package tenants

import (
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/internal/ttlcache"
)

// apiKeyCache remembers keys that authenticated, for a short TTL, so that
// a tenant sending thousands of events a second does not cost Postgres a
// key lookup per request. Only valid keys are kept (a wrong key always
// reaches the database). A key revoked through this process is forgotten
// at once; one revoked through another replica stops working here within
// the TTL.
type apiKeyCache struct {
	keys *ttlcache.Cache[[32]byte, cachedKey]
}

type cachedKey struct {
	principal Principal
	lastUsed  time.Time // last_used_at as recorded in Postgres
	loadedAt  time.Time
}

func newAPIKeyCache(ttl time.Duration, max int) *apiKeyCache {
	return &apiKeyCache{keys: ttlcache.New[[32]byte, cachedKey](ttl, max)}
}

// get returns the cached key for hash if it is fresh at now.
func (c *apiKeyCache) get(hash [32]byte, now time.Time) (cachedKey, bool) {
	return c.keys.Get(hash, now)
}

// put remembers a key that authenticated; its freshness counts from when
// it was loaded from Postgres.
func (c *apiKeyCache) put(hash [32]byte, e cachedKey) {
	c.keys.Put(hash, e, e.loadedAt)
}

// forget drops the key with id (after a revocation).
func (c *apiKeyCache) forget(id uuid.UUID) {
	c.keys.Forget([32]byte{}, func(_ [32]byte, e cachedKey) bool { return e.principal.KeyID == id })
}
