package routing

import (
	"container/list"
	"crypto/sha256"
	"sync"

	"github.com/dop251/goja"
)

// Transformation cache bounds (per process: each sandbox worker has its
// own cache).
const (
	// DefaultCacheBytes bounds the estimated size of all compiled
	// transformations kept.
	DefaultCacheBytes = 64 << 20
	// DefaultTenantCacheBytes bounds the estimated size of one tenant's
	// compiled transformations: a tenant that keeps changing its code
	// (or saves many large transformations) evicts its own programs, not
	// other tenants'.
	DefaultTenantCacheBytes = 8 << 20
)

// programCost estimates what a compiled program of src holds in memory.
// goja keeps the source and its compiled form; measured, the compiled
// form of dense code is about 12 times the source, of comments about 1
// time. The estimate errs high so that the byte bounds hold.
func programCost(src string) int64 { return 16*int64(len(src)) + 1024 }

// transformCache keeps compiled transformations by owner and source
// hash, least recently used first out, within a byte budget per owner and
// one in total. When the total is over, the owner holding the most bytes
// loses its least recently used program: one owner's flood of programs
// evicts its own, never those of owners within their share.
type transformCache struct {
	total, perTenant int64

	mu      sync.Mutex
	bytes   int64
	entries map[cacheKey]*list.Element
	tenants map[string]*tenantPrograms
}

type cacheKey struct {
	tenant string
	sum    [sha256.Size]byte
}

type cacheEntry struct {
	key  cacheKey
	prg  *goja.Program
	cost int64
}

// tenantPrograms are one owner's entries, most recently used first.
type tenantPrograms struct {
	lru   list.List
	bytes int64
}

func newTransformCache(total, perTenant int64) *transformCache {
	return &transformCache{total: total, perTenant: min(perTenant, total),
		entries: make(map[cacheKey]*list.Element), tenants: make(map[string]*tenantPrograms)}
}

// get returns the compiled program of s, compiling it on a miss. An
// unsaved source, one that failed to compile or one larger than an
// owner's budget is not kept.
func (c *transformCache) get(s Source, compile func(string) (*goja.Program, error)) (*goja.Program, error) {
	key := cacheKey{tenant: s.Tenant, sum: sha256.Sum256([]byte(s.Code))}
	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		c.tenants[key.tenant].lru.MoveToFront(el)
		prg := el.Value.(*cacheEntry).prg
		c.mu.Unlock()
		return prg, nil
	}
	c.mu.Unlock()
	prg, err := compile(s.Code)
	if err != nil || s.Unsaved {
		return prg, err
	}
	cost := programCost(s.Code)
	if cost > c.perTenant {
		return prg, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		return prg, nil // compiled meanwhile by another caller
	}
	tp := c.tenants[key.tenant]
	if tp == nil {
		tp = &tenantPrograms{}
		c.tenants[key.tenant] = tp
	}
	c.entries[key] = tp.lru.PushFront(&cacheEntry{key: key, prg: prg, cost: cost})
	tp.bytes += cost
	c.bytes += cost
	for tp.bytes > c.perTenant {
		c.evictOldest(tp)
	}
	for c.bytes > c.total {
		c.evictOldest(c.largest())
	}
	return prg, nil
}

// largest is the owner holding the most bytes. Called with c.mu held
// and c.bytes > 0.
func (c *transformCache) largest() *tenantPrograms {
	var big *tenantPrograms
	for _, tp := range c.tenants {
		if big == nil || tp.bytes > big.bytes {
			big = tp
		}
	}
	return big
}

// evictOldest drops tp's least recently used program. Called with c.mu
// held.
func (c *transformCache) evictOldest(tp *tenantPrograms) {
	el := tp.lru.Back()
	e := el.Value.(*cacheEntry)
	tp.lru.Remove(el)
	delete(c.entries, e.key)
	tp.bytes -= e.cost
	c.bytes -= e.cost
	if tp.lru.Len() == 0 {
		delete(c.tenants, e.key.tenant)
	}
}

// stats reports the bytes held in total and by tenant, and how many
// programs tenant has.
func (c *transformCache) stats(tenant string) (total, tenantBytes int64, programs int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if tp := c.tenants[tenant]; tp != nil {
		tenantBytes, programs = tp.bytes, tp.lru.Len()
	}
	return c.bytes, tenantBytes, programs
}
