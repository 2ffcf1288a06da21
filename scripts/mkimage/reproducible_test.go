package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestBuildIsReproducible: the same inputs give the same image digest,
// whatever the files' own mtimes; another build time gives another.
func TestBuildIsReproducible(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin, certs := filepath.Join(dir, "ferry"), filepath.Join(dir, "ca.crt")
	require.NoError(t, os.WriteFile(bin, []byte("not really a binary"), 0o755))
	require.NoError(t, os.WriteFile(certs, []byte("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n"), 0o644))
	o := Options{Binary: bin, Certs: certs, Arch: "amd64", Version: "1.0.0", Created: time.Unix(1700000000, 0)}
	digest := func(o Options) string {
		img, err := Build(o)
		require.NoError(t, err)
		d, err := img.Digest()
		require.NoError(t, err)
		return d.String()
	}
	first := digest(o)
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(bin, later, later))
	require.Equal(t, first, digest(o), "a file's mtime on this machine does not reach the image")
	o.Created = o.Created.Add(time.Second)
	require.NotEqual(t, first, digest(o))
}
