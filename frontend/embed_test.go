package frontend

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestDistHasIndex(t *testing.T) {
	t.Parallel()
	if _, err := fs.Stat(Dist(), "index.html"); err != nil {
		t.Fatalf("Dist() has no index.html: %v", err)
	}
}

func TestPickPrefersBuild(t *testing.T) {
	t.Parallel()
	placeholder := fstest.MapFS{"dist/index.html": {Data: []byte("placeholder")}}
	built := fstest.MapFS{
		"dist/index.html":            {Data: []byte("placeholder")},
		"dist/app/index.html":        {Data: []byte("portal")},
		"dist/app/assets/index-1.js": {Data: []byte("js")},
	}
	for name, tc := range map[string]struct {
		fsys fs.FS
		want string
	}{
		"placeholder only": {placeholder, "placeholder"},
		"with build":       {built, "portal"},
	} {
		got, err := fs.ReadFile(pick(tc.fsys), "index.html")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(got) != tc.want {
			t.Errorf("%s: index.html = %q, want %q", name, got, tc.want)
		}
	}
}
