package ferrywebhooks_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExamples keeps the README's Go code runnable as written:
// every ```go block must follow an "<!-- example: PATH -->" line and
// equal that file, which `go vet ./...` of its module builds.
func TestReadmeExamples(t *testing.T) {
	t.Parallel()
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		marker, path string
		block        strings.Builder
		inGo         bool
		checked      int
	)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case inGo && line == "```":
			inGo = false
			want, err := os.ReadFile(filepath.FromSlash(path))
			if err != nil {
				t.Fatalf("README example %s: %v", path, err)
			}
			if block.String() != string(want) {
				t.Errorf("README's block for %s differs from the file: copy the file into the README", path)
			}
			checked++
		case inGo:
			block.WriteString(line + "\n")
		case line == "```go":
			if marker == "" {
				t.Fatalf("README.md:%d: a ```go block without an <!-- example: PATH --> line before it", n)
			}
			inGo, path, marker = true, marker, ""
			block.Reset()
		case strings.HasPrefix(line, "<!-- example: "):
			marker = strings.TrimSuffix(strings.TrimPrefix(line, "<!-- example: "), " -->")
		case strings.TrimSpace(line) != "":
			marker = ""
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checked < 3 {
		t.Fatalf("checked %d README examples, want the net/http, Webhook and Fiber ones", checked)
	}
}
