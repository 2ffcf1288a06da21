// Package ownercache is the in-process cache shared by many owners
// (tenants) where one owner must not crowd out the others: entries carry
// a cost, each owner may hold up to its share, and over the total the
// owner holding the most gives up its least recently used entry. Compiled
// transformations and schemas, and resolved customer uids, are kept in
// it.
package ownercache

import (
	"container/list"
	"sync"
)

// Cache keeps values by owner and key, least recently used out first,
// within a cost budget per owner and one in total. It is safe for
// concurrent use.
type Cache[O, K comparable, V any] struct {
	total, perOwner int64

	mu      sync.Mutex
	cost    int64
	entries map[entryKey[O, K]]*list.Element
	owners  map[O]*owned
}

type entryKey[O, K comparable] struct {
	owner O
	key   K
}

type entry[O, K comparable, V any] struct {
	key   entryKey[O, K]
	value V
	cost  int64
}

// owned are one owner's entries, most recently used first.
type owned struct {
	lru  list.List
	cost int64
}

// New returns a Cache of at most total cost, perOwner of it per owner.
func New[O, K comparable, V any](total, perOwner int64) *Cache[O, K, V] {
	return &Cache[O, K, V]{total: total, perOwner: min(perOwner, total),
		entries: map[entryKey[O, K]]*list.Element{}, owners: map[O]*owned{}}
}

// Get returns owner's value for key.
func (c *Cache[O, K, V]) Get(owner O, key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[entryKey[O, K]{owner, key}]
	if !ok {
		var zero V
		return zero, false
	}
	c.owners[owner].lru.MoveToFront(el)
	return el.Value.(*entry[O, K, V]).value, true
}

// Put keeps v for owner's key at cost (not when it alone is over an
// owner's share) and returns the value now cached: v, or the one another
// caller put meanwhile.
func (c *Cache[O, K, V]) Put(owner O, key K, v V, cost int64) V {
	if cost > c.perOwner {
		return v
	}
	k := entryKey[O, K]{owner, key}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[k]; ok {
		return el.Value.(*entry[O, K, V]).value
	}
	o := c.owners[owner]
	if o == nil {
		o = &owned{}
		c.owners[owner] = o
	}
	c.entries[k] = o.lru.PushFront(&entry[O, K, V]{key: k, value: v, cost: cost})
	o.cost += cost
	c.cost += cost
	for o.cost > c.perOwner {
		c.evictOldest(o)
	}
	for c.cost > c.total {
		c.evictOldest(c.largest())
	}
	return v
}

// Remove drops owner's value for key, if any.
func (c *Cache[O, K, V]) Remove(owner O, key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[entryKey[O, K]{owner, key}]; ok {
		c.drop(c.owners[owner], el)
	}
}

// Stats reports the cost held in total and by owner, and how many
// entries owner has.
func (c *Cache[O, K, V]) Stats(owner O) (total, ownerCost int64, entries int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if o := c.owners[owner]; o != nil {
		ownerCost, entries = o.cost, o.lru.Len()
	}
	return c.cost, ownerCost, entries
}

// largest is the owner holding the most. Called with c.mu held and
// c.cost > 0.
func (c *Cache[O, K, V]) largest() *owned {
	var big *owned
	for _, o := range c.owners {
		if big == nil || o.cost > big.cost {
			big = o
		}
	}
	return big
}

// evictOldest drops o's least recently used entry. Called with c.mu held.
func (c *Cache[O, K, V]) evictOldest(o *owned) { c.drop(o, o.lru.Back()) }

func (c *Cache[O, K, V]) drop(o *owned, el *list.Element) {
	e := el.Value.(*entry[O, K, V])
	o.lru.Remove(el)
	delete(c.entries, e.key)
	o.cost -= e.cost
	c.cost -= e.cost
	if o.lru.Len() == 0 {
		delete(c.owners, e.key.owner)
	}
}
