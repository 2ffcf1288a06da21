package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Where things are inside the image; the Dockerfile uses the same paths.
const (
	binaryPath = "/usr/local/bin/ferry"
	certsPath  = "/etc/ssl/certs/ca-certificates.crt"
	zoneinfo   = "/usr/share/zoneinfo"
	// uid and gid of the "nonroot" account, as in distroless images, so
	// volume permissions carry over between the two.
	nonrootID = 65532
)

// Options describe one image build.
type Options struct {
	Binary   string    // the static ferry binary (CGO_ENABLED=0, linux)
	Certs    string    // a PEM bundle of CA certificates
	Zoneinfo string    // optional: a zoneinfo tree for time.LoadLocation
	Arch     string    // GOARCH of the binary
	Version  string    // org.opencontainers.image.version
	Revision string    // org.opencontainers.image.revision (a commit)
	Source   string    // org.opencontainers.image.source
	Created  time.Time // the image's creation time and every file's mtime
}

func (o Options) validate() error {
	var errs []error
	if o.Binary == "" {
		errs = append(errs, errors.New("the ferry binary is required"))
	}
	if o.Certs == "" {
		errs = append(errs, errors.New("a CA certificate bundle is required"))
	}
	if o.Arch == "" || o.Version == "" {
		errs = append(errs, errors.New("architecture and version are required"))
	}
	return errors.Join(errs...)
}

// Build assembles the image from files on this machine, pulling nothing:
// a base layer (accounts, CA certificates, /tmp, optionally zoneinfo)
// and a layer holding the binary, which alone changes between builds.
func Build(o Options) (v1.Image, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	o.Created = o.Created.UTC()
	base, err := baseEntries(o)
	if err != nil {
		return nil, err
	}
	bin, err := os.ReadFile(o.Binary)
	if err != nil {
		return nil, fmt.Errorf("read the ferry binary: %w", err)
	}
	baseLayer, err := layer(base, o.Created)
	if err != nil {
		return nil, err
	}
	binLayer, err := layer([]entry{{Path: binaryPath, Mode: 0o755, Data: bin}}, o.Created)
	if err != nil {
		return nil, err
	}

	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	created := v1.Time{Time: o.Created}
	img, err = mutate.Append(img,
		mutate.Addendum{Layer: baseLayer, MediaType: types.OCILayer,
			History: v1.History{Created: created, CreatedBy: "mkimage: passwd, group, CA certificates, /tmp", Comment: "base"}},
		mutate.Addendum{Layer: binLayer, MediaType: types.OCILayer,
			History: v1.History{Created: created, CreatedBy: "mkimage: " + binaryPath, Comment: "ferry " + o.Version}},
	)
	if err != nil {
		return nil, fmt.Errorf("append layers: %w", err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("read the config: %w", err)
	}
	cf = cf.DeepCopy()
	cf.Architecture = o.Arch
	cf.OS = "linux"
	cf.Created = created
	cf.Config = Config(o)
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		return nil, fmt.Errorf("set the config: %w", err)
	}
	return img, nil
}

// Config is the runtime configuration of the image; the Dockerfile sets
// the same (the test compares both against it).
func Config(o Options) v1.Config {
	labels := map[string]string{
		"org.opencontainers.image.title":       "Ferry",
		"org.opencontainers.image.description": "Multi-tenant webhooks as a service",
		"org.opencontainers.image.version":     o.Version,
		"org.opencontainers.image.revision":    o.Revision,
		"org.opencontainers.image.source":      o.Source,
	}
	for k, v := range labels {
		if v == "" {
			delete(labels, k)
		}
	}
	id := strconv.Itoa(nonrootID)
	return v1.Config{
		User:       id + ":" + id,
		Entrypoint: []string{"ferry"},
		Cmd:        []string{"serve"},
		Env: []string{
			"PATH=/usr/local/bin:/usr/bin:/bin",
			"SSL_CERT_FILE=" + certsPath,
		},
		ExposedPorts: map[string]struct{}{"8080/tcp": {}},
		WorkingDir:   "/",
		Labels:       labels,
	}
}

// baseEntries are the files a FROM scratch image needs for Ferry: the
// accounts that name uid 65532, CA certificates for TLS to PostgreSQL,
// Kafka, SMTP and webhook endpoints, and a world-writable /tmp.
func baseEntries(o Options) ([]entry, error) {
	certs, err := os.ReadFile(o.Certs)
	if err != nil {
		return nil, fmt.Errorf("read the CA certificates: %w", err)
	}
	id := strconv.Itoa(nonrootID)
	entries := []entry{
		{Path: "/etc/passwd", Mode: 0o644, Data: []byte("root:x:0:0:root:/root:/sbin/nologin\n" +
			"nonroot:x:" + id + ":" + id + ":nonroot:/home/nonroot:/sbin/nologin\n")},
		{Path: "/etc/group", Mode: 0o644, Data: []byte("root:x:0:\nnonroot:x:" + id + ":\n")},
		{Path: certsPath, Mode: 0o644, Data: certs},
		{Path: "/tmp", Dir: true, Mode: 0o1777},
		{Path: "/home/nonroot", Dir: true, Mode: 0o700, UID: nonrootID, GID: nonrootID},
	}
	if o.Zoneinfo != "" {
		zones, err := treeEntries(o.Zoneinfo, zoneinfo)
		if err != nil {
			return nil, err
		}
		entries = append(entries, zones...)
	}
	return entries, nil
}

// treeEntries copies the regular files and directories under src to dst,
// following no symlinks (zoneinfo's aliases are links; the canonical
// names suffice) and normalising modes.
func treeEntries(src, dst string) ([]entry, error) {
	var entries []entry
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := path.Join(dst, filepath.ToSlash(rel))
		switch {
		case d.IsDir():
			entries = append(entries, entry{Path: target, Dir: true, Mode: 0o755})
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entries = append(entries, entry{Path: target, Mode: 0o644, Data: b})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("copy %s: %w", src, err)
	}
	return entries, nil
}
