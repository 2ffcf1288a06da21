package tests

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var (
	ferryVarRE   = regexp.MustCompile("`(FERRY_[A-Z0-9_]+)`")
	ferryReadRE  = regexp.MustCompile(`"(FERRY_[A-Z0-9_]+)"`)
	interpolated = regexp.MustCompile(`\$\{[A-Z0-9_]+:-([^}]*)\}`)
)

// ferryVariables returns the FERRY_* variables a deployment may set:
// those in the table of docs/configuration.md that app/ also reads, so a
// manifest can name neither a typo nor a variable that was documented
// and since removed.
func ferryVariables(t *testing.T) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile("../docs/configuration.md")
	require.NoError(t, err)
	read := map[string]bool{}
	files, err := filepath.Glob("../app/*.go")
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range ferryReadRE.FindAllStringSubmatch(string(b), -1) {
			read[m[1]] = true
		}
	}
	vars := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(line, "| `FERRY_") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "|"), "|")
		for _, m := range ferryVarRE.FindAllStringSubmatch(first, -1) {
			if read[m[1]] {
				vars[m[1]] = true
			}
		}
	}
	require.Contains(t, vars, "FERRY_DATABASE_URL", "docs/configuration.md's table was read")
	return vars
}

// withDefaults replaces Compose's ${NAME:-default} with its default.
func withDefaults(s string) string {
	return interpolated.ReplaceAllString(s, "$1")
}
