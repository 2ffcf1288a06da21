// Package ttlcache is a small bounded map whose entries go stale after a
// fixed time: the in-process caches of API keys, sessions, queue signing
// targets and inbound sources are built on it.
package ttlcache

import (
	"sync"
	"time"
)

// Cache is a bounded map whose entries are fresh for ttl after they were
// loaded; a zero ttl caches nothing. Full, it first drops stale entries,
// then starts over rather than grow. It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	ttl time.Duration
	max int

	mu      sync.Mutex
	entries map[K]entry[V]
}

type entry[V any] struct {
	value    V
	loadedAt time.Time
}

// New returns a Cache of at most max entries, each fresh for ttl.
func New[K comparable, V any](ttl time.Duration, max int) *Cache[K, V] {
	return &Cache[K, V]{ttl: ttl, max: max, entries: make(map[K]entry[V])}
}

// Get returns k's value if it was loaded less than ttl before now; a
// stale entry is dropped.
func (c *Cache[K, V]) Get(k K, now time.Time) (V, bool) {
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

// Put remembers v for k as loaded at loadedAt.
func (c *Cache[K, V]) Put(k K, v V, loadedAt time.Time) {
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
	c.entries[k] = entry[V]{value: v, loadedAt: loadedAt}
}

// Forget drops k, and every entry match accepts (match may be nil).
func (c *Cache[K, V]) Forget(k K, match func(K, V) bool) {
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
