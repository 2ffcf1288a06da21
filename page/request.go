package page

// Page size bounds shared by every list.
const (
	DefaultSize = 50  // items per page when the request names no limit
	MaxSize     = 200 // the largest limit a request may ask for
)

// Request asks for one page of a list.
type Request struct {
	Limit  int    // items wanted; <= 0 means DefaultSize
	Cursor string // opaque, from a previous page's next_cursor
}

// Size is the number of items the page holds at most: Limit clamped to
// [1, MaxSize], DefaultSize when Limit is not positive.
func (r Request) Size() int {
	return Clamp(r.Limit, DefaultSize, MaxSize)
}

// Clamp returns limit bounded by maxSize, or def when limit is not positive.
// Lists with their own bounds (invoices) use it with their constants.
func Clamp(limit, def, maxSize int) int {
	switch {
	case limit <= 0:
		return def
	case limit > maxSize:
		return maxSize
	default:
		return limit
	}
}

// Trim cuts a list fetched with size+1 rows down to size and returns the
// encoded cursor of the next page ("" when this is the last page).
func Trim[T any](items []T, size int, at func(T) Cursor) ([]T, string) {
	if len(items) <= size {
		return items, ""
	}
	items = items[:size]
	return items, at(items[size-1]).Encode()
}
