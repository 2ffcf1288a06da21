// Command mkimage builds Ferry's OCI image without a container engine
// (`make image`): a FROM-scratch image of the static ferry binary, CA
// certificates and a non-root account, assembled from files on this
// machine with go-containerregistry and written as an OCI layout tarball.
// The layers are reproducible: the same binary, certificates and time
// give the same digests. The Dockerfile at the repository's root builds
// the same image for those with Docker.
package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mkimage:", err)
		os.Exit(1)
	}
}

func run(args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("mkimage", flag.ContinueOnError)
	var o Options
	fs.StringVar(&o.Binary, "binary", "", "the static ferry binary (CGO_ENABLED=0 GOOS=linux)")
	fs.StringVar(&o.Certs, "certs", "/etc/ssl/certs/ca-certificates.crt", "PEM bundle of CA certificates to include")
	fs.StringVar(&o.Zoneinfo, "zoneinfo", "", "optional zoneinfo directory to include (e.g. /usr/share/zoneinfo)")
	fs.StringVar(&o.Arch, "arch", runtime.GOARCH, "GOARCH the binary was built for")
	fs.StringVar(&o.Version, "version", "dev", "the image's version label")
	fs.StringVar(&o.Revision, "revision", "", "the commit the image was built from")
	fs.StringVar(&o.Source, "source", "https://github.com/ferry-dev/ferry", "the source repository's URL")
	name := fs.String("name", "", "the image reference recorded in the archive (default ferry:<version>)")
	out := fs.String("out", "bin/ferry-image.oci.tar", "the OCI layout tarball to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	// SOURCE_DATE_EPOCH is the reproducible-builds convention; make image
	// sets it to the commit's time.
	epoch := cmp.Or(getenv("SOURCE_DATE_EPOCH"), "0")
	secs, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		return fmt.Errorf("SOURCE_DATE_EPOCH: want seconds since 1970, got %q", epoch)
	}
	o.Created = time.Unix(secs, 0)
	if o.Binary == "" {
		return errors.New("-binary is required")
	}
	img, err := Build(o)
	if err != nil {
		return err
	}
	ref := cmp.Or(*name, "ferry:"+o.Version)
	if err := WriteArchive(img, ref, *out, o.Created); err != nil {
		return err
	}
	digest, err := img.Digest()
	if err != nil {
		return fmt.Errorf("image digest: %w", err)
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %s)\n", *out, ref, digest)
	return nil
}
