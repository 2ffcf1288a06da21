package delivery

// pgArray passes a slice as ONE Postgres array parameter. GORM expands a
// plain slice argument into an IN list, but passes a pointer through, and
// pgx then encodes the slice natively in binary: no text literal for pgx
// to build and parse back, which at thousands of events a second was a
// sixth of the ingest CPU.
func pgArray[T any](v []T) *[]T { return &v }
