package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDockerfileMatchesImage: the final stage of the Dockerfile sets what
// Build sets, so `docker build` and `make image` give the same container.
func TestDockerfileMatchesImage(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../Dockerfile")
	require.NoError(t, err)
	final := finalStage(string(b))
	require.Equal(t, "scratch", final["FROM"][0])

	want := Config(Options{})
	require.Equal(t, []string{want.User}, final["USER"])
	var entrypoint, cmd []string
	require.NoError(t, json.Unmarshal([]byte(final["ENTRYPOINT"][0]), &entrypoint), "ENTRYPOINT in exec form")
	require.NoError(t, json.Unmarshal([]byte(final["CMD"][0]), &cmd), "CMD in exec form")
	require.Equal(t, want.Entrypoint, entrypoint)
	require.Equal(t, want.Cmd, cmd)
	for port := range want.ExposedPorts {
		require.Contains(t, final["EXPOSE"], strings.TrimSuffix(port, "/tcp"))
	}
	require.ElementsMatch(t, want.Env, final["ENV"])
	require.Contains(t, final["COPY"], "--from=build /out/ferry "+binaryPath)
	labels := strings.Join(final["LABEL"], " ")
	for _, l := range []string{"org.opencontainers.image.version", "org.opencontainers.image.revision", "org.opencontainers.image.source"} {
		require.Contains(t, labels, l+"=")
	}
	require.True(t, slices.ContainsFunc(final["COPY"], func(c string) bool { return strings.HasSuffix(c, " /") }),
		"the base files (passwd, group, certificates, /tmp) come from the build stage's /rootfs")
}

// finalStage returns the instructions after the Dockerfile's last FROM,
// by keyword, with continuation lines joined.
func finalStage(dockerfile string) map[string][]string {
	var stage map[string][]string
	logical := strings.ReplaceAll(dockerfile, "\\\n", " ")
	for _, line := range strings.Split(logical, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kw, rest, _ := strings.Cut(line, " ")
		kw, rest = strings.ToUpper(kw), strings.TrimSpace(rest)
		if kw == "FROM" {
			stage = map[string][]string{}
		}
		if stage != nil {
			stage[kw] = append(stage[kw], strings.Join(strings.Fields(rest), " "))
		}
	}
	return stage
}
