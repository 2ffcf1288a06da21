package ferry_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/ferry-dev/ferry"

// layer is one line of the layout in docs/architecture.md: a package, or
// with prefix set every package under it.
type layer struct {
	path   string
	prefix bool
}

// readLayers returns the layout block of docs/architecture.md, top first.
func readLayers(t *testing.T) []layer {
	t.Helper()
	f, err := os.Open("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var layers []layer
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "<!-- layers: begin"):
			in = true
		case strings.HasPrefix(line, "<!-- layers: end"):
			return layers
		case in && line != "" && !strings.HasPrefix(line, "```"):
			name := strings.Fields(line)[0]
			l := layer{path: strings.TrimSuffix(name, "/...")}
			l.prefix = l.path != name
			layers = append(layers, l)
		}
	}
	t.Fatal("docs/architecture.md has no complete <!-- layers: begin --> … <!-- layers: end --> block")
	return nil
}

// index returns the position of pkg (relative to the module; "ferry" is
// the module's root) on the list, -1 when no line covers it.
func index(layers []layer, pkg string) int {
	best, bestLen := -1, -1
	for i, l := range layers {
		if (pkg == l.path || (l.prefix && strings.HasPrefix(pkg, l.path+"/"))) && len(l.path) > bestLen {
			best, bestLen = i, len(l.path)
		}
	}
	return best
}

// TestImportsFlowDownTheLayout: every package of the module is on the
// layout docs/architecture.md gives, and imports only packages below its
// own line (test files aside: a test may drive what sits above).
func TestImportsFlowDownTheLayout(t *testing.T) {
	t.Parallel()
	layers := readLayers(t)
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	rel := func(p string) string {
		if p == module {
			return "ferry"
		}
		return strings.TrimPrefix(p, module+"/")
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		from := rel(p.ImportPath)
		i := index(layers, from)
		if i < 0 {
			t.Errorf("%s is not on the layout in docs/architecture.md", from)
			continue
		}
		for _, imp := range p.Imports {
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			to := rel(imp)
			if j := index(layers, to); j <= i {
				t.Errorf("%s imports %s, which is not below it on the layout", from, to)
			}
		}
	}
}
