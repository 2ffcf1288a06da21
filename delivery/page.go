package delivery

import (
	"encoding/base64"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

// Page asks for one page of a list.
type Page struct {
	Limit  int
	Cursor string // opaque, from a previous page's next_cursor
}

// Page size bounds.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

func (p Page) limit() int {
	switch {
	case p.Limit <= 0:
		return DefaultPageSize
	case p.Limit > MaxPageSize:
		return MaxPageSize
	default:
		return p.Limit
	}
}

// cursor is the position after the last item of a page, in a list
// ordered by (time, id) descending.
type cursor struct {
	Time time.Time `json:"t"`
	ID   uuid.UUID `json:"i"`
}

func (c cursor) timePtr() *time.Time {
	if c.Time.IsZero() {
		return nil
	}
	return &c.Time
}

func decodeCursor(s string) (cursor, error) {
	var c cursor
	if s == "" {
		return c, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || json.Unmarshal(b, &c) != nil || c.Time.IsZero() {
		return cursor{}, ferry.Invalid("cursor", "cursor is not valid")
	}
	return c, nil
}

func (c cursor) encode() string {
	b, _ := json.Marshal(c) // a struct of time and uuid always marshals
	return base64.RawURLEncoding.EncodeToString(b)
}

// paginate trims a list fetched with limit+1 rows and returns the cursor
// of the next page ("" on the last page).
func paginate[T any](items []T, limit int, at func(T) cursor) ([]T, string) {
	if len(items) <= limit {
		return items, ""
	}
	items = items[:limit]
	return items, at(items[limit-1]).encode()
}
