package routing

import (
	"crypto/sha256"

	"github.com/dop251/goja"

	"github.com/ferry-dev/ferry/internal/ownercache"
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
// hash, within a byte budget per owner and one in total
// (internal/ownercache): one owner's flood of programs evicts its own,
// never those of owners within their share.
type transformCache struct {
	programs *ownercache.Cache[string, [sha256.Size]byte, *goja.Program]
}

func newTransformCache(total, perTenant int64) *transformCache {
	return &transformCache{programs: ownercache.New[string, [sha256.Size]byte, *goja.Program](total, perTenant)}
}

// get returns the compiled program of s, compiling it on a miss. An
// unsaved source, one that failed to compile or one larger than an
// owner's budget is not kept.
func (c *transformCache) get(s Source, compile func(string) (*goja.Program, error)) (*goja.Program, error) {
	sum := sha256.Sum256([]byte(s.Code))
	if prg, ok := c.programs.Get(s.Tenant, sum); ok {
		return prg, nil
	}
	prg, err := compile(s.Code)
	if err != nil || s.Unsaved {
		return prg, err
	}
	return c.programs.Put(s.Tenant, sum, prg, programCost(s.Code)), nil
}

// stats reports the bytes held in total and by tenant, and how many
// programs tenant has.
func (c *transformCache) stats(tenant string) (total, tenantBytes int64, programs int) {
	return c.programs.Stats(tenant)
}
