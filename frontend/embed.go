// Package frontend embeds the built portal (React + TypeScript + Vite).
// `make frontend` replaces dist/ with the real build; the committed
// placeholder keeps `go build` and `go test` working without Node.
package frontend

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built portal with index.html at its root.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic("frontend: embedded dist missing: " + err.Error())
	}
	return sub
}
