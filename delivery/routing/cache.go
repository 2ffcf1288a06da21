package routing

import "sync"

// programCache keeps compiled CEL filters by their source, so each is
// compiled once. When full it starts over: saved filters change rarely
// and are at most MaxFilterLength bytes, so a count is bound enough.
// Filters tried on a sample event (test-routing) are not kept: they are
// whatever an editor typed, and could otherwise push out every tenant's
// saved filters.
type programCache[P any] struct {
	size int

	mu       sync.Mutex
	programs map[string]P
}

func newProgramCache[P any](size int) *programCache[P] {
	return &programCache[P]{size: size, programs: make(map[string]P)}
}

// get returns the program of src, compiling it on first use; keep says
// whether a newly compiled program is kept. A failed compilation is
// never kept.
func (c *programCache[P]) get(src string, keep bool, compile func(string) (P, error)) (P, error) {
	c.mu.Lock()
	prg, ok := c.programs[src]
	c.mu.Unlock()
	if ok {
		return prg, nil
	}
	prg, err := compile(src)
	if err != nil || !keep {
		return prg, err
	}
	c.mu.Lock()
	if len(c.programs) >= c.size {
		clear(c.programs)
	}
	c.programs[src] = prg
	c.mu.Unlock()
	return prg, nil
}
