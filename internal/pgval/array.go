package pgval

import "github.com/google/uuid"

// Array passes a slice as ONE Postgres array parameter. GORM expands a
// plain slice argument into an IN list, but passes a pointer through, and
// pgx then encodes the slice natively in binary: no text literal for pgx
// to build and parse back, which at thousands of events a second was a
// sixth of the ingest CPU. UUIDs go as [16]byte: uuid.UUID is a
// driver.Valuer, and pgx would fail its binary plans for every element
// (an error allocated each time) before falling back to parsing strings.
func Array[T any](v []T) any {
	if ids, ok := any(v).([]uuid.UUID); ok {
		raw := make([][16]byte, len(ids))
		for i, id := range ids {
			raw[i] = id
		}
		return &raw
	}
	return &v
}
