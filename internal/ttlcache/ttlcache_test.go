package ttlcache

import (
	"testing"
	"time"
)

func TestCacheFreshnessBoundAndForget(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	c := New[string, int](time.Minute, 2)
	c.Put("a", 1, t0)
	if v, ok := c.Get("a", t0.Add(59*time.Second)); !ok || v != 1 {
		t.Fatalf("fresh entry: %d %v", v, ok)
	}
	if _, ok := c.Get("a", t0.Add(time.Minute)); ok {
		t.Fatal("an entry ttl old is still served")
	}
	c.Put("a", 1, t0)
	c.Put("b", 2, t0)
	// Full of fresh entries: the cache starts over rather than grow.
	c.Put("c", 3, t0)
	if _, ok := c.Get("a", t0); ok {
		t.Error("the cache grew past its bound")
	}
	if v, ok := c.Get("c", t0); !ok || v != 3 {
		t.Errorf("the newest entry was dropped: %d %v", v, ok)
	}
	c.Put("d", 4, t0)
	c.Forget("x", func(_ string, v int) bool { return v == 4 })
	if _, ok := c.Get("d", t0); ok {
		t.Error("Forget with a match kept a matching entry")
	}
	if _, ok := New[string, int](0, 2).Get("a", t0); ok {
		t.Error("a zero ttl cached something")
	}
}
