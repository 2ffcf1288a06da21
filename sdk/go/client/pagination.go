package client

import (
	"context"
	"iter"
)

// Page is one page of a list, newest first.
type Page[T any] struct {
	Data []T
	// NextCursor continues the list (pass it as the cursor of the next
	// call); empty on the last page.
	NextCursor string
}

// all yields every item of a list, fetching pages through fetch (given
// the cursor, nil for the first page) and following next_cursor. It stops
// at the first error, which it yields with the zero T.
func all[T any](ctx context.Context, cursor *string, fetch func(ctx context.Context, cursor *string) (Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			p, err := fetch(ctx, cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range p.Data {
				if !yield(item, nil) {
					return
				}
			}
			if p.NextCursor == "" {
				return
			}
			next := p.NextCursor
			cursor = &next
		}
	}
}

func page[T any](data []T, next *string) Page[T] {
	p := Page[T]{Data: data}
	if next != nil {
		p.NextCursor = *next
	}
	return p
}
