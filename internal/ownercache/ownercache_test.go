package ownercache

import (
	"fmt"
	"testing"
)

// TestOwnersKeepTheirShare: an owner flooding the cache evicts its own
// entries, a bystander within its share keeps its entry, and the total
// holds; Put keeps the first value of a key; Remove drops one.
func TestOwnersKeepTheirShare(t *testing.T) {
	t.Parallel()
	c := New[string, int, string](10, 4)
	c.Put("bystander", 1, "b1", 2)
	for i := range 100 {
		c.Put("noisy", i, fmt.Sprint(i), 1)
		total, held, _ := c.Stats("noisy")
		if held > 4 || total > 10 {
			t.Fatalf("after %d puts: noisy holds %d, total %d", i+1, held, total)
		}
	}
	if v, ok := c.Get("bystander", 1); !ok || v != "b1" {
		t.Errorf("the bystander lost its entry: %q %v", v, ok)
	}
	if _, ok := c.Get("noisy", 0); ok {
		t.Error("noisy's oldest entry survived its own flood")
	}
	if v := c.Put("bystander", 1, "other", 2); v != "b1" {
		t.Errorf("Put over an existing key returned %q, want the cached b1", v)
	}
	if v := c.Put("big", 1, "x", 5); v != "x" {
		t.Errorf("an entry over a share is returned uncached: %q", v)
	}
	if _, ok := c.Get("big", 1); ok {
		t.Error("an entry over an owner's share was cached")
	}
	c.Remove("bystander", 1)
	if _, ok := c.Get("bystander", 1); ok {
		t.Error("Remove kept the entry")
	}
	for o := range 5 {
		for k := range 4 {
			c.Put(fmt.Sprint("owner", o), k, "v", 1)
		}
	}
	if total, _, _ := c.Stats(""); total > 10 {
		t.Errorf("total %d over 10", total)
	}
}
