// Package frontend embeds the built portal (React + TypeScript + Vite).
//
// Layout, chosen so that building never dirties the git tree and `go
// build` / `go test ./...` never need Node:
//
//	frontend/dist/index.html   committed placeholder page ("portal not built")
//	frontend/dist/app/         Vite's output (`make frontend`), git-ignored
//
// Both live under dist/, which is embedded whole. Dist returns dist/app
// when a build is present (it holds index.html), and the placeholder
// otherwise. Vite empties only dist/app, so the committed placeholder is
// never touched; a fresh clone has no dist/app and serves the placeholder.
package frontend

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built portal with index.html at its root: the Vite
// build in dist/app when the binary was built after `make frontend`, or
// the committed placeholder page.
func Dist() fs.FS {
	return pick(dist)
}

func pick(fsys fs.FS) fs.FS {
	root := "dist"
	if _, err := fs.Stat(fsys, "dist/app/index.html"); err == nil {
		root = "dist/app"
	}
	sub, err := fs.Sub(fsys, root)
	if err != nil {
		panic("frontend: embedded " + root + " missing: " + err.Error())
	}
	return sub
}
