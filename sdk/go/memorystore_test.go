package ferrywebhooks_test

import (
	"context"
	"sync"
	"testing"
	"time"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
	"github.com/ferry-dev/ferry/sdk/go/internal/storetest"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestMemoryStore(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)}
	storetest.Run(t, func(*testing.T) ferrywebhooks.Store { return ferrywebhooks.NewMemoryStore(clock.Now) }, clock.Advance)
}

// TestMemoryStoreExpiresKeys checks a completed key lives for its TTL and
// is swept afterwards.
func TestMemoryStoreExpiresKeys(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)}
	s := ferrywebhooks.NewMemoryStore(clock.Now)
	ctx := context.Background()
	if _, err := s.Claim(ctx, "old", time.Minute); err != nil {
		t.Fatal(err)
	}
	_ = s.Complete(ctx, "old", ferrywebhooks.MinTTL)
	clock.Advance(ferrywebhooks.MinTTL - time.Second)
	if c, _ := s.Claim(ctx, "old", time.Minute); c != ferrywebhooks.Done {
		t.Fatalf("claim before the TTL = %d, want Done", c)
	}
	clock.Advance(2 * time.Second)
	if c, _ := s.Claim(ctx, "old", time.Minute); c != ferrywebhooks.Claimed {
		t.Fatalf("claim after the TTL = %d, want Claimed", c)
	}
	for i := range 2048 {
		_, _ = s.Claim(ctx, "k"+string(rune('a'+i%26))+time.Duration(i).String(), time.Second)
	}
	clock.Advance(time.Hour)
	for i := range 1024 {
		_, _ = s.Claim(ctx, "n"+time.Duration(i).String(), time.Second)
	}
	if n := s.Len(); n > 1100 {
		t.Fatalf("%d keys held after expiry, want expired keys swept", n)
	}
}
