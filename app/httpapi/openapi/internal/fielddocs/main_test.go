package main

import "testing"

// TestGeneratedFileIsCurrent: the committed fielddocs.gen.go holds the
// field comments as they are now.
func TestGeneratedFileIsCurrent(t *testing.T) {
	t.Parallel()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if err := run(root, true); err != nil {
		t.Fatal(err)
	}
}

func TestDescription(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ goName, jsonName, text, want string }{
		{"Customer", "customer", "Customer is the uid of the customer.", "the uid of the customer."},
		{"FilterErrors", "filter_errors", "FilterErrors: the filter could not be evaluated", "the filter could not be evaluated"},
		{"PropagateTrace", "propagate_trace", "PropagateTrace sends each attempt's traceparent", "propagate_trace sends each attempt's traceparent"},
		{"Kind", "kind", "http (default) or queue", "http (default) or queue"},
		{"ID", "id", "IDs are opaque", "IDs are opaque"},
	} {
		if got := description(c.goName, c.jsonName, c.text); got != c.want {
			t.Errorf("description(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
