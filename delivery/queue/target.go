package queue

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/internal/ttlcache"
)

// Signing a pulled message needs the endpoint's custom headers and its
// decrypted signing keys. Loading them costs two reads and an AES-GCM
// decryption per secret, so they are cached per process. The lease
// statement returns a fingerprint of what the cache depends on (the
// endpoint's updated_at, and the count and newest creation time of its
// live secrets), read in the same statement that leases the messages, so
// an edit, a rotation or the end of a rotated secret's grace period
// shows up in the very next pull on every replica: there is no window in
// which a stale key signs. The TTL only bounds memory.
const (
	targetCacheTTL = 10 * time.Minute
	targetCacheMax = 10_000
)

// signingTarget is a queue endpoint's cached signing state.
type signingTarget struct {
	fingerprint string
	headers     map[string]string
	keys        [][]byte
	signing     delivery.SignatureTimestamp
}

type targetCache = ttlcache.Cache[uuid.UUID, signingTarget]

func newTargetCache() *targetCache {
	return ttlcache.New[uuid.UUID, signingTarget](targetCacheTTL, targetCacheMax)
}

// target returns the endpoint's signing state as of fingerprint, loading
// and decrypting it only when the cached one was taken under another
// fingerprint. Errors: wrapped database or decryption errors.
func (s *Service) target(ctx context.Context, endpointID uuid.UUID, fingerprint string) (signingTarget, error) {
	now := s.clock.Now()
	if t, ok := s.targets.Get(endpointID, now); ok && t.fingerprint == fingerprint {
		return t, nil
	}
	loaded, err := delivery.LoadTarget(ctx, s.db, s.cipher, endpointID, now)
	if err != nil {
		return signingTarget{}, err
	}
	t := signingTarget{fingerprint: fingerprint, headers: loaded.Endpoint.Headers, keys: loaded.Keys,
		signing: loaded.Endpoint.SignatureTimestamp}
	s.targets.Put(endpointID, t, now)
	s.cfg.Metrics.SigningLoads.Inc()
	return t, nil
}
