// Package storetest is the contract every ferrywebhooks.Store must meet,
// run by each store's tests.
package storetest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

// Run checks claim, in-progress, release, completion, lease expiry and
// concurrent claims. newStore returns an empty store; sleep waits for a
// lease to expire (a real sleep for servers, a clock step for memory).
func Run(t *testing.T, newStore func(t *testing.T) ferrywebhooks.Store, sleep func(time.Duration)) {
	t.Helper()
	ctx := context.Background()
	must := func(t *testing.T, s ferrywebhooks.Store, key string, lease time.Duration, want ferrywebhooks.Claim) {
		t.Helper()
		got, err := s.Claim(ctx, key, lease)
		if err != nil {
			t.Fatalf("Claim(%s): %v", key, err)
		}
		if got != want {
			t.Fatalf("Claim(%s) = %d, want %d", key, got, want)
		}
	}
	t.Run("claim, in progress, complete, done", func(t *testing.T) {
		s := newStore(t)
		must(t, s, "k1", time.Minute, ferrywebhooks.Claimed)
		must(t, s, "k1", time.Minute, ferrywebhooks.InProgress)
		must(t, s, "k2", time.Minute, ferrywebhooks.Claimed)
		if err := s.Complete(ctx, "k1", 4*24*time.Hour); err != nil {
			t.Fatal(err)
		}
		must(t, s, "k1", time.Minute, ferrywebhooks.Done)
		// Release never frees a completed key.
		if err := s.Release(ctx, "k1"); err != nil {
			t.Fatal(err)
		}
		must(t, s, "k1", time.Minute, ferrywebhooks.Done)
	})
	t.Run("release frees the key for the retry", func(t *testing.T) {
		s := newStore(t)
		must(t, s, "r", time.Minute, ferrywebhooks.Claimed)
		if err := s.Release(ctx, "r"); err != nil {
			t.Fatal(err)
		}
		must(t, s, "r", time.Minute, ferrywebhooks.Claimed)
	})
	t.Run("an expired lease is taken over", func(t *testing.T) {
		s := newStore(t)
		must(t, s, "l", time.Second, ferrywebhooks.Claimed)
		sleep(1500 * time.Millisecond)
		must(t, s, "l", time.Minute, ferrywebhooks.Claimed)
	})
	t.Run("one winner among concurrent claims", func(t *testing.T) {
		s := newStore(t)
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			claimed int
		)
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := s.Claim(ctx, "c", time.Minute)
				if err != nil {
					t.Errorf("claim %d: %v", i, err)
					return
				}
				if c == ferrywebhooks.Claimed {
					mu.Lock()
					claimed++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if claimed != 1 {
			t.Fatalf("%d concurrent claims won, want 1", claimed)
		}
	})
}

// Service returns the value of env, the address of a service a test
// needs, or fails the test saying how to start it. It never skips: a
// store left untested must be visible.
func Service(t *testing.T, env string) string {
	t.Helper()
	v := os.Getenv(env)
	if v == "" {
		t.Fatal(fmt.Sprintf("%s is not set: this test needs the service. From the repository root run `make sdk-test`; "+
			"or start PostgreSQL with `make services` and `eval \"$(bash scripts/env.sh)\"`, "+
			"and Redis with `eval \"$(bash scripts/sdk.sh redis)\"`.", env))
	}
	return v
}
