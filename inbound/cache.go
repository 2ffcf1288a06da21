package inbound

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// liveSource is what the ingest path needs of a source, secret opened.
type liveSource struct {
	row    sourceRow
	secret []byte
	found  bool // false: no enabled source has the token
}

// sourceCache keeps recently used sources by token hash for a short TTL,
// so a busy source costs no lookup per request. Unknown tokens are not
// cached: a flood of guesses cannot evict real sources.
type sourceCache struct {
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	entries map[[32]byte]cacheEntry
}

type cacheEntry struct {
	src liveSource
	at  time.Time
}

// maxCachedSources bounds the cache; when full it starts over.
const maxCachedSources = 10_000

func newSourceCache(ttl time.Duration, now func() time.Time) *sourceCache {
	return &sourceCache{ttl: ttl, now: now, entries: map[[32]byte]cacheEntry{}}
}

func (c *sourceCache) get(key [32]byte) (liveSource, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || c.now().Sub(e.at) > c.ttl {
		return liveSource{}, false
	}
	return e.src, true
}

func (c *sourceCache) put(key [32]byte, src liveSource) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxCachedSources {
		clear(c.entries)
	}
	c.entries[key] = cacheEntry{src: src, at: c.now()}
}

// clear forgets every source: after a change made through this process,
// the next request reads it again.
func (c *sourceCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
}

// lookup returns the enabled source holding tok (found false when none).
// Every token costs the same work whether or not it exists: one hash and
// one indexed read (or a cache hit for live ones).
func (s *Service) lookup(ctx context.Context, tok string) (liveSource, error) {
	var key [32]byte
	copy(key[:], hashToken(tok))
	if src, ok := s.cache.get(key); ok {
		return src, nil
	}
	var rows []sourceRow
	if err := s.db.WithContext(ctx).Where("token_hash = ? AND enabled AND deleted_at IS NULL", key[:]).
		Limit(1).Find(&rows).Error; err != nil {
		return liveSource{}, fmt.Errorf("look up source: %w", err)
	}
	if len(rows) == 0 {
		return liveSource{}, nil
	}
	src := liveSource{row: rows[0], found: true}
	if rows[0].SecretCiphertext != nil {
		secret, err := s.sealer.Open(rows[0].SecretCiphertext, secretAAD(rows[0].ID))
		if err != nil {
			return liveSource{}, fmt.Errorf("source %s secret: %w", rows[0].ID, err)
		}
		src.secret = secret
	}
	s.cache.put(key, src)
	return src, nil
}
