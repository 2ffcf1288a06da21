package rowid

import "testing"

// TestNewIsRandom pins the choice New's doc explains: time-ordered ids
// made the newest rows' index page a point of contention.
func TestNewIsRandom(t *testing.T) {
	seen := map[[16]byte]bool{}
	for range 1000 {
		id := New()
		if v := id.Version(); v != 4 {
			t.Fatalf("%s is version %d, want 4", id, v)
		}
		if seen[id] {
			t.Fatalf("%s made twice", id)
		}
		seen[id] = true
	}
}
