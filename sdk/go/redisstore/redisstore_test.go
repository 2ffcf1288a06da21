package redisstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
	"github.com/ferry-dev/ferry/sdk/go/internal/storetest"
	"github.com/ferry-dev/ferry/sdk/go/redisstore"
)

// keyPrefix gives each test its own key space in the shared Redis.
type keyPrefix struct {
	s      *redisstore.Store
	prefix string
}

func (k keyPrefix) Claim(ctx context.Context, key string, lease time.Duration) (ferrywebhooks.Claim, error) {
	return k.s.Claim(ctx, k.prefix+key, lease)
}

func (k keyPrefix) Complete(ctx context.Context, key string, ttl time.Duration) error {
	return k.s.Complete(ctx, k.prefix+key, ttl)
}

func (k keyPrefix) Release(ctx context.Context, key string) error {
	return k.s.Release(ctx, k.prefix+key)
}

func TestRedisStore(t *testing.T) {
	t.Parallel()
	opts, err := redis.ParseURL(storetest.Service(t, "FERRY_TEST_REDIS_URL"))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { _ = rdb.Close() })
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("Redis at FERRY_TEST_REDIS_URL does not answer (start it with `bash scripts/sdk.sh redis`): %v", err)
	}
	storetest.Run(t, func(t *testing.T) ferrywebhooks.Store {
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		return keyPrefix{redisstore.New(rdb), "sdk-go-test:" + hex.EncodeToString(b) + ":"}
	}, time.Sleep)

	// Keys carry Redis's own expiry.
	s := redisstore.New(rdb)
	key := "sdk-go-test:ttl:" + time.Now().Format(time.RFC3339Nano)
	if _, err := s.Claim(context.Background(), key, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := s.Complete(context.Background(), key, ferrywebhooks.MinTTL); err != nil {
		t.Fatal(err)
	}
	ttl := rdb.TTL(context.Background(), key).Val()
	if ttl < ferrywebhooks.MinTTL-time.Minute || ttl > ferrywebhooks.MinTTL {
		t.Fatalf("TTL after Complete = %s, want about %s", ttl, ferrywebhooks.MinTTL)
	}
	rdb.Del(context.Background(), key)
}
