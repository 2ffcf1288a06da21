package ferrywebhooks

import (
	"context"
	"sync"
	"time"
)

// MemoryStore is a Store in the process's memory: for one process, or
// tests. Keys expire; expired keys are swept as new ones arrive.
type MemoryStore struct {
	now     func() time.Time
	mu      sync.Mutex
	entries map[string]memoryEntry
	ops     int
}

type memoryEntry struct {
	done    bool
	expires time.Time
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore; now is its clock
// (time.Now when nil).
func NewMemoryStore(now func() time.Time) *MemoryStore {
	if now == nil {
		now = time.Now
	}
	return &MemoryStore{now: now, entries: map[string]memoryEntry{}}
}

// Claim implements Store. It never fails.
func (s *MemoryStore) Claim(_ context.Context, key string, lease time.Duration) (Claim, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.sweep(now)
	if e, ok := s.entries[key]; ok && now.Before(e.expires) {
		if e.done {
			return Done, nil
		}
		return InProgress, nil
	}
	s.entries[key] = memoryEntry{expires: now.Add(lease)}
	return Claimed, nil
}

// Complete implements Store. It never fails.
func (s *MemoryStore) Complete(_ context.Context, key string, ttl time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries[key] = memoryEntry{done: true, expires: s.now().Add(ttl)}
	return nil
}

// Release implements Store. It never fails.
func (s *MemoryStore) Release(_ context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.entries[key]; ok && !e.done {
		delete(s.entries, key)
	}
	return nil
}

// Len returns the number of keys held, expired or not.
func (s *MemoryStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// sweep drops expired keys every 1024 claims; s.mu is held.
func (s *MemoryStore) sweep(now time.Time) {
	s.ops++
	if s.ops%1024 != 0 {
		return
	}
	for k, e := range s.entries {
		if !now.Before(e.expires) {
			delete(s.entries, k)
		}
	}
}
