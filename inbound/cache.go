package inbound

import (
	"context"
	"fmt"

	"github.com/google/uuid"
)

// liveSource is what the ingest path needs of a source, secret opened.
type liveSource struct {
	row    sourceRow
	secret []byte
	found  bool // false: no enabled source has the token
}

// maxCachedSources bounds the cache of live sources by token hash
// (Service.cache), which spares a busy source a lookup per request.
// Unknown tokens are not cached: a flood of guesses cannot evict real
// sources.
const maxCachedSources = 10_000

// forget drops source id from the cache after a change made through this
// process, so the next request reads it again.
func (s *Service) forget(id uuid.UUID) {
	s.cache.Forget([32]byte{}, func(_ [32]byte, src liveSource) bool { return src.row.ID == id })
}

// lookup returns the enabled source holding tok (found false when none).
// Every token costs the same work whether or not it exists: one hash and
// one indexed read (or a cache hit for live ones).
func (s *Service) lookup(ctx context.Context, tok string) (liveSource, error) {
	var key [32]byte
	copy(key[:], hashToken(tok))
	if src, ok := s.cache.Get(key, s.clock.Now()); ok {
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
	s.cache.Put(key, src, s.clock.Now())
	return src, nil
}
