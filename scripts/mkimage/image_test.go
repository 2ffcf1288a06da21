package main

import (
	"archive/tar"
	"bufio"
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestImage opens the OCI tarball, checks the image's configuration and
// files, and runs the unpacked `ferry migrate` and `ferry serve` against
// PostgreSQL and Kafka until /readyz answers 200. `make test` hands it the
// tarball `make image` built (FERRY_TEST_IMAGE, with the portal built in);
// without one it builds a static binary and an image itself.
func TestImage(t *testing.T) {
	dbURL := testenv.Postgres(t)
	brokers := testenv.Kafka(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	archive, fromMake := os.Getenv("FERRY_TEST_IMAGE"), true
	if archive == "" {
		archive, fromMake = buildArchive(ctx, t), false
	}
	img, ref := openArchive(t, archive)
	require.NotEmpty(t, ref, "the index names the image (org.opencontainers.image.ref.name)")

	cf, err := img.ConfigFile()
	require.NoError(t, err)
	require.Equal(t, "linux", cf.OS)
	require.Equal(t, runtime.GOARCH, cf.Architecture)
	c := cf.Config
	require.Equal(t, "65532:65532", c.User, "a non-root uid:gid, numeric so that runAsNonRoot can check it")
	require.Equal(t, []string{"ferry"}, c.Entrypoint)
	require.Equal(t, []string{"serve"}, c.Cmd)
	require.Contains(t, c.ExposedPorts, "8080/tcp")
	require.Contains(t, c.Env, "SSL_CERT_FILE="+certsPath)
	require.True(t, slices.ContainsFunc(c.Env, func(e string) bool {
		return strings.HasPrefix(e, "PATH=") && slices.Contains(strings.Split(strings.TrimPrefix(e, "PATH="), ":"), filepath.Dir(binaryPath))
	}), "PATH finds the entrypoint: %q", c.Env)
	for _, l := range []string{"org.opencontainers.image.version", "org.opencontainers.image.revision", "org.opencontainers.image.source"} {
		require.NotEmpty(t, c.Labels[l], "label %s", l)
	}

	root := t.TempDir()
	unpack(t, img, root)
	passwd, err := os.ReadFile(filepath.Join(root, "etc/passwd"))
	require.NoError(t, err)
	require.Contains(t, string(passwd), "nonroot:x:65532:65532:")
	group, err := os.ReadFile(filepath.Join(root, "etc/group"))
	require.NoError(t, err)
	require.Contains(t, string(group), "nonroot:x:65532:")
	certs := filepath.Join(root, certsPath)
	pem, err := os.ReadFile(certs)
	require.NoError(t, err)
	require.True(t, x509.NewCertPool().AppendCertsFromPEM(pem), "the image's CA bundle holds certificates")
	fi, err := os.Stat(filepath.Join(root, "tmp"))
	require.NoError(t, err)
	require.Equal(t, os.ModeDir|os.ModeSticky|0o777, fi.Mode(), "/tmp is world-writable and sticky")

	bin := filepath.Join(root, binaryPath)
	env := containerEnv(t, c.Env, root, map[string]string{
		"FERRY_DATABASE_URL":       dbURL,
		"FERRY_KAFKA_BROKERS":      strings.Join(brokers, ","),
		"FERRY_KAFKA_TOPIC_PREFIX": testenv.TopicPrefix(t, brokers),
		"FERRY_KAFKA_GROUP":        testenv.Name("image"),
		"FERRY_HTTP_ADDR":          "127.0.0.1:0",
		"FERRY_METRICS_ADDR":       "127.0.0.1:0",
		"FERRY_MASTER_KEY":         randomKey(t),
		"FERRY_JWT_SECRET":         randomKey(t),
		"FERRY_SHUTDOWN_GRACE":     "2s",
		"TMPDIR":                   t.TempDir(),
	})
	migrate := exec.CommandContext(ctx, bin, "migrate")
	migrate.Env = env
	out, err := migrate.CombinedOutput()
	require.NoError(t, err, "ferry migrate from the image:\n%s", out)
	require.Contains(t, string(out), "migrations applied")

	url := serve(t, bin, env)
	get := func(path string) (int, string) {
		resp, err := http.Get(url + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	testenv.Eventually(t, 45*time.Second, func() bool { code, _ := get("/readyz"); return code == http.StatusOK },
		"GET %s/readyz of the image's ferry did not answer 200", url)
	// What the Compose healthchecks run inside the container.
	check := exec.CommandContext(ctx, bin, "healthcheck", url+"/readyz")
	check.Env = env
	out, err = check.CombinedOutput()
	require.NoError(t, err, "ferry healthcheck:\n%s", out)
	code, body := get("/")
	require.Equal(t, http.StatusOK, code)
	if fromMake {
		require.NotContains(t, body, "has not been built", "make image embeds the built portal")
	}
}

// buildArchive builds a static binary (without rebuilding the portal) and
// an image of it, for a test run without `make image`.
func buildArchive(ctx context.Context, t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "ferry")
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", bin, "./app/cmd/ferry")
	build.Dir = "../.."
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "build a static ferry:\n%s", out)
	o := Options{Binary: bin, Certs: "/etc/ssl/certs/ca-certificates.crt", Arch: runtime.GOARCH,
		Version: "test", Revision: "0000000", Source: "https://github.com/ferry-dev/ferry", Created: time.Unix(1, 0)}
	img, err := Build(o)
	require.NoError(t, err)
	archive := filepath.Join(dir, "ferry-image.oci.tar")
	require.NoError(t, WriteArchive(img, "ferry:test", archive, o.Created))
	return archive
}

// openArchive unpacks the OCI layout tarball and returns its one image
// and the reference it is recorded under.
func openArchive(t *testing.T, archive string) (v1.Image, string) {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Open(archive)
	require.NoError(t, err, "the image tarball (make image writes bin/ferry-image.oci.tar)")
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		writeEntry(t, dir, h, tr)
	}
	idx, err := layout.ImageIndexFromPath(dir)
	require.NoError(t, err)
	m, err := idx.IndexManifest()
	require.NoError(t, err)
	require.Len(t, m.Manifests, 1, "one image in the layout")
	img, err := idx.Image(m.Manifests[0].Digest)
	require.NoError(t, err)
	return img, m.Manifests[0].Annotations["org.opencontainers.image.ref.name"]
}

// unpack writes the image's flattened file system under root.
func unpack(t *testing.T, img v1.Image, root string) {
	t.Helper()
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		require.NoError(t, err)
		writeEntry(t, root, h, tr)
	}
}

// writeEntry writes one tar entry below dir: directories and regular
// files are all an image of Ferry's holds (anything else fails the test).
func writeEntry(t *testing.T, dir string, h *tar.Header, r io.Reader) {
	t.Helper()
	name := filepath.Join(dir, filepath.FromSlash(h.Name))
	require.True(t, strings.HasPrefix(name, dir+string(filepath.Separator)), "entry %q stays inside", h.Name)
	switch h.Typeflag {
	case tar.TypeDir:
		require.NoError(t, os.MkdirAll(name, 0o755))
		require.NoError(t, os.Chmod(name, h.FileInfo().Mode()))
	case tar.TypeReg:
		require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
		f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, h.FileInfo().Mode().Perm())
		require.NoError(t, err)
		_, err = io.Copy(f, r)
		require.NoError(t, err)
		require.NoError(t, f.Close())
	default:
		t.Fatalf("unexpected entry %q of type %c", h.Name, h.Typeflag)
	}
}

// containerEnv is the image's environment with paths moved under root,
// plus the given variables; nothing of the test's own environment leaks
// in, as nothing of the host's would in a container.
func containerEnv(t *testing.T, image []string, root string, extra map[string]string) []string {
	t.Helper()
	var env []string
	for _, e := range image {
		k, v, _ := strings.Cut(e, "=")
		switch k {
		case "SSL_CERT_FILE":
			v = filepath.Join(root, v)
		case "PATH":
			var dirs []string
			for _, d := range strings.Split(v, ":") {
				dirs = append(dirs, filepath.Join(root, d))
			}
			v = strings.Join(dirs, ":")
		}
		env = append(env, k+"="+v)
	}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// serve starts `ferry serve` and returns the portal URL it prints. The
// process gets SIGTERM when the test ends and must then exit cleanly.
func serve(t *testing.T, bin string, env []string) string {
	t.Helper()
	// Not CommandContext: the test's context ends before its cleanups
	// run, and the process must get SIGTERM, not SIGKILL.
	cmd := exec.Command(bin, "serve")
	cmd.Env = env
	var logs strings.Builder
	cmd.Stderr = &logs
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "Ferry is running. Portal: "); ok {
				urls <- strings.TrimSuffix(u, "/")
			}
		}
		done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ferry serve did not exit cleanly on SIGTERM: %v\n%s", err, logs.String())
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("ferry serve still running 30 s after SIGTERM\n%s", logs.String())
		}
	})
	select {
	case u := <-urls:
		return u
	case err := <-done:
		t.Fatalf("ferry serve exited before listening: %v\n%s", err, logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("ferry serve printed no URL within 60 s\n%s", logs.String())
	}
	return ""
}

func randomKey(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(b)
}
