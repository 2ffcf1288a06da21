// Package redisstore is a ferrywebhooks.Store in Redis: one key per
// webhook-id, claimed with SET NX EX and expired by Redis itself.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

const (
	processing = "processing"
	done       = "done"
)

// releaseScript deletes a key only while it is still in progress, so a
// completed key is never dropped.
var releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// Store keeps dedupe keys in Redis.
type Store struct {
	rdb redis.UniversalClient
}

var _ ferrywebhooks.Store = (*Store)(nil)

// New returns a Store using rdb (a *redis.Client, cluster or ring client).
func New(rdb redis.UniversalClient) *Store {
	return &Store{rdb: rdb}
}

// Claim implements ferrywebhooks.Store with SET key processing NX EX
// lease, and a GET of the holder's state when the key exists.
func (s *Store) Claim(ctx context.Context, key string, lease time.Duration) (ferrywebhooks.Claim, error) {
	for range 3 {
		ok, err := s.rdb.SetNX(ctx, key, processing, lease).Result()
		if err != nil {
			return 0, fmt.Errorf("redis SET NX %s: %w", key, err)
		}
		if ok {
			return ferrywebhooks.Claimed, nil
		}
		state, err := s.rdb.Get(ctx, key).Result()
		switch {
		case errors.Is(err, redis.Nil):
			continue // expired or released in between
		case err != nil:
			return 0, fmt.Errorf("redis GET %s: %w", key, err)
		case state == done:
			return ferrywebhooks.Done, nil
		default:
			return ferrywebhooks.InProgress, nil
		}
	}
	return 0, fmt.Errorf("redis claim %s: key kept changing", key)
}

// Complete implements ferrywebhooks.Store.
func (s *Store) Complete(ctx context.Context, key string, ttl time.Duration) error {
	if err := s.rdb.Set(ctx, key, done, ttl).Err(); err != nil {
		return fmt.Errorf("redis SET %s: %w", key, err)
	}
	return nil
}

// Release implements ferrywebhooks.Store.
func (s *Store) Release(ctx context.Context, key string) error {
	if err := releaseScript.Run(ctx, s.rdb, []string{key}, processing).Err(); err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("redis release %s: %w", key, err)
	}
	return nil
}
