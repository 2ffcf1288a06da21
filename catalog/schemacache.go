package catalog

import (
	"crypto/sha256"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/internal/ownercache"
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

// schemaCache keeps compiled schemas by tenant and schema hash within a
// byte budget per tenant and one in total (internal/ownercache): over
// the total, the tenant holding the most loses its least recently used
// schema.
type schemaCache struct {
	schemas *ownercache.Cache[uuid.UUID, [sha256.Size]byte, *compiled]
}

// schemaKey names a compiled schema: its tenant and the hash of its text.
type schemaKey struct {
	tenant uuid.UUID
	sum    [sha256.Size]byte
}

func newSchemaCache(total, perTenant int64) *schemaCache {
	return &schemaCache{schemas: ownercache.New[uuid.UUID, [sha256.Size]byte, *compiled](total, perTenant)}
}

// get returns the cached schema of key.
func (c *schemaCache) get(key schemaKey) (*compiled, bool) { return c.schemas.Get(key.tenant, key.sum) }

// put keeps cs for key (not when it alone is over a tenant's share) and
// returns the schema now cached for key: cs, or one another caller put
// meanwhile.
func (c *schemaCache) put(key schemaKey, cs *compiled) *compiled {
	return c.schemas.Put(key.tenant, key.sum, cs, schemaCost(cs.size))
}

// stats reports the bytes held in total and by tenant, and how many
// schemas tenant has.
func (c *schemaCache) stats(tenant uuid.UUID) (total, tenantBytes int64, schemas int) {
	return c.schemas.Stats(tenant)
}
