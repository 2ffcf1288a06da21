package rowid

import (
	"bytes"
	"testing"
	"time"
)

func TestNewIsTimeOrdered(t *testing.T) {
	prev := New()
	if v := prev.Version(); v != 7 {
		t.Fatalf("version %d, want 7", v)
	}
	for range 5 {
		time.Sleep(2 * time.Millisecond)
		next := New()
		if bytes.Compare(next[:], prev[:]) <= 0 {
			t.Fatalf("%s made after %s sorts before it", next, prev)
		}
		prev = next
	}
}
