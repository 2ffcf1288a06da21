package catalog

import (
	"container/list"
	"crypto/sha256"
	"sync"

	"github.com/google/uuid"
)

// Compiled-schema cache bounds (per process).
const (
	// DefaultCacheBytes bounds the estimated size of all compiled
	// schemas kept.
	DefaultCacheBytes = 64 << 20
	// DefaultTenantCacheBytes bounds one tenant's share: a tenant with
	// many large schemas evicts its own, never another tenant's within
	// its share.
	DefaultTenantCacheBytes = 8 << 20
)

// schemaCost estimates what a compiled schema of size bytes holds: the
// decoded document and the compiled graph, measured at well under 16
// times the text (erring high so that the bounds hold).
func schemaCost(size int) int64 { return 16*int64(size) + 4096 }

type schemaKey struct {
	tenant uuid.UUID
	sum    [sha256.Size]byte
}

type schemaEntry struct {
	key  schemaKey
	cs   *compiled
	cost int64
}

// tenantSchemas are one tenant's entries, most recently used first.
type tenantSchemas struct {
	lru   list.List
	bytes int64
}

// schemaCache keeps compiled schemas by tenant and schema hash, least
// recently used out first, within a byte budget per tenant and one in
// total; over the total, the tenant holding the most loses its least
// recently used schema. It is safe for concurrent use.
type schemaCache struct {
	total, perTenant int64

	mu      sync.Mutex
	bytes   int64
	entries map[schemaKey]*list.Element
	tenants map[uuid.UUID]*tenantSchemas
}

func newSchemaCache(total, perTenant int64) *schemaCache {
	return &schemaCache{total: total, perTenant: min(perTenant, total),
		entries: map[schemaKey]*list.Element{}, tenants: map[uuid.UUID]*tenantSchemas{}}
}

// get returns the cached schema of key.
func (c *schemaCache) get(key schemaKey) (*compiled, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	c.tenants[key.tenant].lru.MoveToFront(el)
	return el.Value.(*schemaEntry).cs, true
}

// put keeps cs for key (not when it alone is over a tenant's share) and
// returns the schema now cached for key: cs, or one another caller put
// meanwhile.
func (c *schemaCache) put(key schemaKey, cs *compiled) *compiled {
	cost := schemaCost(cs.size)
	if cost > c.perTenant {
		return cs
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		return el.Value.(*schemaEntry).cs
	}
	ts := c.tenants[key.tenant]
	if ts == nil {
		ts = &tenantSchemas{}
		c.tenants[key.tenant] = ts
	}
	c.entries[key] = ts.lru.PushFront(&schemaEntry{key: key, cs: cs, cost: cost})
	ts.bytes += cost
	c.bytes += cost
	for ts.bytes > c.perTenant {
		c.evictOldest(ts)
	}
	for c.bytes > c.total {
		c.evictOldest(c.largest())
	}
	return cs
}

// largest is the tenant holding the most bytes. Called with c.mu held
// and c.bytes > 0.
func (c *schemaCache) largest() *tenantSchemas {
	var big *tenantSchemas
	for _, ts := range c.tenants {
		if big == nil || ts.bytes > big.bytes {
			big = ts
		}
	}
	return big
}

// evictOldest drops ts's least recently used schema. Called with c.mu
// held.
func (c *schemaCache) evictOldest(ts *tenantSchemas) {
	el := ts.lru.Back()
	e := el.Value.(*schemaEntry)
	ts.lru.Remove(el)
	delete(c.entries, e.key)
	ts.bytes -= e.cost
	c.bytes -= e.cost
	if ts.lru.Len() == 0 {
		delete(c.tenants, e.key.tenant)
	}
}

// stats reports the bytes held in total and by tenant, and how many
// schemas tenant has.
func (c *schemaCache) stats(tenant uuid.UUID) (total, tenantBytes int64, schemas int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ts := c.tenants[tenant]; ts != nil {
		tenantBytes, schemas = ts.bytes, ts.lru.Len()
	}
	return c.bytes, tenantBytes, schemas
}
