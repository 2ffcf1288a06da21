package page

import (
	"encoding/base64"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

// Cursor is the position after the last item of a page. Lists ordered by
// (time, id) descending set At and ID; lists keyed by a sequence number
// (the staff audit log) set Seq. Clients see it only as an opaque string.
type Cursor struct {
	At  time.Time `json:"t,omitzero"`
	ID  uuid.UUID `json:"i,omitzero"`
	Seq int64     `json:"n,omitzero"`
}

// IsZero reports whether c is the start of a list (no cursor given).
func (c Cursor) IsZero() bool { return c == Cursor{} }

// AtPtr returns &c.At, or nil for the start of a list; SQL written as
// "(?::timestamptz IS NULL OR (created_at, id) < (?, ?))" takes it.
func (c Cursor) AtPtr() *time.Time {
	if c.At.IsZero() {
		return nil
	}
	return &c.At
}

// Encode returns the opaque form of c that a response's next_cursor
// carries.
func (c Cursor) Encode() string {
	b, _ := json.Marshal(c) // a struct of a time, a uuid and an int always marshals
	return base64.RawURLEncoding.EncodeToString(b)
}

// Decode reads a cursor that Encode wrote. An empty s is the start of a
// list (the zero Cursor). Errors: EINVALID on the field "cursor" when s is
// not a cursor Ferry issued, or names no position.
func Decode(s string) (Cursor, error) {
	var c Cursor
	if s == "" {
		return c, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || json.Unmarshal(b, &c) != nil || c.Seq < 0 || (c.At.IsZero() && c.Seq == 0) {
		return Cursor{}, ErrInvalid()
	}
	return c, nil
}

// ErrInvalid returns the error every list answers a bad cursor with: EINVALID
// on the field "cursor". A list whose cursor decodes but does not fit it
// (a sequence cursor given to a time-ordered list) returns it too.
func ErrInvalid() error {
	return ferry.Invalid("cursor", "cursor is not valid")
}

// DecodeAt is Decode for a list ordered by (time, id): a non-empty cursor
// must carry a time. Errors: EINVALID on "cursor".
func DecodeAt(s string) (Cursor, error) {
	c, err := Decode(s)
	if err == nil && s != "" && c.At.IsZero() {
		return Cursor{}, ErrInvalid()
	}
	return c, err
}

// DecodeSeq is Decode for a list keyed by a sequence number: a non-empty
// cursor must carry a positive Seq. Errors: EINVALID on "cursor".
func DecodeSeq(s string) (Cursor, error) {
	c, err := Decode(s)
	if err == nil && s != "" && c.Seq <= 0 {
		return Cursor{}, ErrInvalid()
	}
	return c, err
}
