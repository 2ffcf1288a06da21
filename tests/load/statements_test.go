package load

import (
	"bytes"
	"strings"
	"testing"
)

// TestPrintStatements checks the per-request figures, the shares of the
// total, the total line, and that printing the top rows leaves the
// caller's statements as they were.
func TestPrintStatements(t *testing.T) {
	sts := []StatementStat{
		{Query: "INSERT INTO a\n\t VALUES ($1)", Calls: 50, Rows: 100, ExecMS: 30, WALBytes: 20000},
		{Query: "UPDATE b SET x = $1", Calls: 100, Rows: 100, ExecMS: 10, WALBytes: 5000},
	}
	before := append([]StatementStat(nil), sts...)
	var out bytes.Buffer
	PrintStatements(&out, sts, 100, 1)
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a title, a header, the top statement and the total; got %d lines:\n%s", len(lines), out.String())
	}
	for i, want := range []struct{ line, fields string }{
		{lines[2], "75.0% 0.50 1.00 300.0 200 INSERT INTO a VALUES ($1)"},
		{lines[3], "100.0% 1.50 2.00 400.0 250 (all 2 statements)"},
	} {
		if got := strings.Join(strings.Fields(want.line), " "); got != want.fields {
			t.Errorf("row %d: got %q, want %q", i, got, want.fields)
		}
	}
	for i := range sts {
		if sts[i] != before[i] {
			t.Errorf("statement %d changed: %+v, was %+v", i, sts[i], before[i])
		}
	}
	out.Reset()
	PrintStatements(&out, nil, 100, 5)
	PrintStatements(&out, sts, 0, 5)
	if out.Len() != 0 {
		t.Errorf("nothing to print, or no requests: want no output, got %q", out.String())
	}
}
