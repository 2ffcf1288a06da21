package routing

import "sync"

// programCache keeps compiled programs (CEL filters, JavaScript
// transformations) by their source, so each is compiled once. When full
// it starts over: sources change rarely, and a bound is all it needs.
type programCache[P any] struct {
	size int

	mu       sync.Mutex
	programs map[string]P
}

func newProgramCache[P any](size int) *programCache[P] {
	return &programCache[P]{size: size, programs: make(map[string]P)}
}

// get returns the program of src, compiling it on first use; a failed
// compilation is not kept.
func (c *programCache[P]) get(src string, compile func(string) (P, error)) (P, error) {
	c.mu.Lock()
	prg, ok := c.programs[src]
	c.mu.Unlock()
	if ok {
		return prg, nil
	}
	prg, err := compile(src)
	if err != nil {
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
