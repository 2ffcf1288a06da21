// Package migrations holds Ferry's versioned SQL schema, applied by goose at
// start-up and by `ferry migrate`.
package migrations

import "embed"

// FS holds every numbered migration file.
//
//go:embed *.sql
var FS embed.FS
