package seal

import (
	"context"
	"fmt"
)

// Stored is a sealed secret as its owner reads it for resealing.
type Stored struct {
	// Key is the owner's key of the row (and column), handed back to
	// write and to the next page.
	Key        any
	Ciphertext []byte
	AAD        []byte
}

// Tally counts what ResealAll did.
type Tally struct {
	// Resealed secrets were under another key and were written under
	// the sealing key (or, found sealed again meanwhile, left to that).
	Resealed int `json:"resealed"`
	// Unopened secrets opened with none of the Cipher's keys and were
	// left as they were.
	Unopened int `json:"unopened"`
}

// ResealAll moves every secret that page lists to the sealing key.
// page(ctx, last) returns the secrets after last (nil: from the start)
// in a stable order, and none once all were listed; write(ctx, s,
// resealed) stores resealed in place of s.Ciphertext, leaving alone a
// row whose ciphertext changed since it was listed (its owner sealed it
// again meanwhile, under a key of its own). Errors: page's and write's.
func (c *Cipher) ResealAll(ctx context.Context, page func(ctx context.Context, last *Stored) ([]Stored, error),
	write func(ctx context.Context, s Stored, resealed []byte) error) (Tally, error) {
	var t Tally
	var last *Stored
	for {
		rows, err := page(ctx, last)
		if err != nil {
			return t, err
		}
		if len(rows) == 0 {
			return t, nil
		}
		for _, s := range rows {
			resealed, changed, err := c.Reseal(s.Ciphertext, s.AAD)
			switch {
			case err != nil:
				t.Unopened++
			case changed:
				if err := write(ctx, s, resealed); err != nil {
					return t, fmt.Errorf("reseal: %w", err)
				}
				t.Resealed++
			}
		}
		last = &rows[len(rows)-1]
	}
}
