package requestid

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	t.Parallel()
	for id, ok := range map[string]bool{
		"abc": true, "req_1.2-x": true, New(): true, strings.Repeat("a", MaxLen): true,
		"": false, strings.Repeat("a", MaxLen+1): false, "a b": false, "a\nb": false, "a\"b": false, "ü": false,
	} {
		if Valid(id) != ok {
			t.Errorf("Valid(%q) = %v, want %v", id, !ok, ok)
		}
	}
}

// TestHandlerAddsTheID: a line logged with a request's context carries
// its id, also through WithAttrs; one without carries none.
func TestHandlerAddsTheID(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(Handler{slog.NewTextHandler(&buf, nil)}).With("component", "x")
	log.InfoContext(With(context.Background(), "req-7"), "hello")
	log.InfoContext(context.Background(), "bare")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if !strings.Contains(lines[0], "request_id=req-7") || strings.Contains(lines[1], "request_id") {
		t.Errorf("lines: %q", lines)
	}
}
