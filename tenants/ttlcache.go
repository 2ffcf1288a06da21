package tenants

import (
	"sync"
	"time"
)

// ttlCache is a bounded map whose entries are fresh for ttl after they
// were loaded; a zero ttl caches nothing. Full, it first drops stale
// entries, then starts over rather than grow. The API-key and session
// caches are built on it.
type ttlCache[K comparable, V any] struct {
	ttl time.Duration
	max int

	mu      sync.Mutex
	entries map[K]ttlEntry[V]
}

type ttlEntry[V any] struct {
	value    V
	loadedAt time.Time
}

func newTTLCache[K comparable, V any](ttl time.Duration, max int) *ttlCache[K, V] {
	return &ttlCache[K, V]{ttl: ttl, max: max, entries: make(map[K]ttlEntry[V])}
}

// get returns k's value if it was loaded less than ttl before now; a
// stale entry is dropped.
func (c *ttlCache[K, V]) get(k K, now time.Time) (V, bool) {
	var zero V
	if c.ttl <= 0 {
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok {
		return zero, false
	}
	if now.Sub(e.loadedAt) >= c.ttl {
		delete(c.entries, k)
		return zero, false
	}
	return e.value, true
}

// put remembers v for k as loaded at loadedAt.
func (c *ttlCache[K, V]) put(k K, v V, loadedAt time.Time) {
	if c.ttl <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		for old, e := range c.entries {
			if loadedAt.Sub(e.loadedAt) >= c.ttl {
				delete(c.entries, old)
			}
		}
		if len(c.entries) >= c.max {
			// Every entry is fresh: start over rather than grow.
			clear(c.entries)
		}
	}
	c.entries[k] = ttlEntry[V]{value: v, loadedAt: loadedAt}
}

// forget drops k, and every entry match accepts (match may be nil).
func (c *ttlCache[K, V]) forget(k K, match func(K, V) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, k)
	if match == nil {
		return
	}
	for other, e := range c.entries {
		if match(other, e.value) {
			delete(c.entries, other)
		}
	}
}
