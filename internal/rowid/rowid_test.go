package rowid

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestNewAtSharesItsFirstBytesWithinAMinute(t *testing.T) {
	base := time.Date(2026, 11, 27, 22, 0, 0, 0, time.UTC)
	minute := func(id uuid.UUID) uint16 { return binary.BigEndian.Uint16(id[0:2]) }
	tests := []struct {
		name       string
		a, b       time.Time
		sameBucket bool
	}{
		{"same second", base, base, true},
		{"within the minute", base, base.Add(59 * time.Second), true},
		{"the next minute", base, base.Add(60 * time.Second), false},
		{"an hour later", base, base.Add(time.Hour), false},
		{"a wrap later", base, base.Add(65536 * BucketSeconds * time.Second), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := NewAt(tt.a), NewAt(tt.b)
			if got := minute(a) == minute(b); got != tt.sameBucket {
				t.Fatalf("%s and %s share their first two bytes: %v, want %v", a, b, got, tt.sameBucket)
			}
			if a == b {
				t.Fatalf("%s made twice", a)
			}
		})
	}
}

func TestNewIsAVersion8UUIDAndUnique(t *testing.T) {
	seen := map[uuid.UUID]bool{}
	for range 10000 {
		id := New()
		if v := id.Version(); v != 8 {
			t.Fatalf("%s is version %d, want 8", id, v)
		}
		if id.Variant() != uuid.RFC4122 {
			t.Fatalf("%s has variant %v", id, id.Variant())
		}
		if parsed, err := uuid.Parse(id.String()); err != nil || parsed != id {
			t.Fatalf("%s does not parse back: %v", id, err)
		}
		if seen[id] {
			t.Fatalf("%s made twice", id)
		}
		seen[id] = true
	}
}
