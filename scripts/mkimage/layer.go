package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// entry is one file or directory of a layer, owned by root unless UID
// and GID say otherwise.
type entry struct {
	Path     string // absolute, slash-separated, no trailing slash
	Dir      bool
	Mode     int64 // permission bits
	Data     []byte
	UID, GID int
}

// layer writes entries as an uncompressed tar and wraps it as an OCI
// layer. The tar is reproducible: entries sorted by path, every parent
// directory present, one fixed mtime, no user or group names, and PAX
// headers only where a field needs them.
func layer(entries []entry, mtime time.Time) (v1.Layer, error) {
	all := withParents(entries)
	sort.Slice(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for i, e := range all {
		if i > 0 && all[i-1].Path == e.Path {
			return nil, fmt.Errorf("layer: %s given twice", e.Path)
		}
		h := &tar.Header{
			Name:    strings.TrimPrefix(e.Path, "/"),
			Mode:    e.Mode,
			Uid:     e.UID,
			Gid:     e.GID,
			ModTime: mtime,
			Format:  tar.FormatPAX,
		}
		if e.Dir {
			h.Typeflag = tar.TypeDir
			h.Name += "/"
		} else {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(e.Data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, fmt.Errorf("layer: header of %s: %w", e.Path, err)
		}
		if _, err := tw.Write(e.Data); err != nil {
			return nil, fmt.Errorf("layer: write %s: %w", e.Path, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("layer: close tar: %w", err)
	}
	b := buf.Bytes()
	// Compressed once and kept: the digest, the diff id and the layout
	// writer each read the layer, and gzipping the binary takes seconds.
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(b)), nil
	}, tarball.WithMediaType(types.OCILayer), tarball.WithCompressedCaching)
}

// withParents returns entries plus a 0755 root-owned directory for every
// parent they lack, so that unpacking creates no directory with a mode
// of the runtime's choosing.
func withParents(entries []entry) []entry {
	have := map[string]bool{}
	for _, e := range entries {
		have[e.Path] = true
	}
	all := append([]entry(nil), entries...)
	for _, e := range entries {
		for dir := path.Dir(e.Path); dir != "/" && dir != "."; dir = path.Dir(dir) {
			if !have[dir] {
				have[dir] = true
				all = append(all, entry{Path: dir, Dir: true, Mode: 0o755})
			}
		}
	}
	return all
}
