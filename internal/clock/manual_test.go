package clock

import (
	"testing"
	"time"
)

func TestManualTickerTicksWhenPassed(t *testing.T) {
	t.Parallel()
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	m := NewManual(start)
	tk := m.NewTicker(10 * time.Second)
	if n := m.Tickers(); n != 1 {
		t.Fatalf("Tickers() = %d, want 1", n)
	}
	m.Advance(9 * time.Second)
	select {
	case <-tk.C():
		t.Fatal("ticked before its interval")
	default:
	}
	m.Advance(time.Second)
	select {
	case at := <-tk.C():
		if want := start.Add(10 * time.Second); !at.Equal(want) {
			t.Fatalf("tick at %s, want %s", at, want)
		}
	default:
		t.Fatal("no tick at its interval")
	}
	// Missed ticks are dropped: one tick for three intervals, and the
	// next one is due at the next multiple.
	m.Advance(30 * time.Second)
	<-tk.C()
	select {
	case <-tk.C():
		t.Fatal("more than one tick for one Advance")
	default:
	}
	m.Advance(9 * time.Second)
	select {
	case <-tk.C():
		t.Fatal("ticked before the next multiple of its interval")
	default:
	}
	tk.Stop()
	m.Advance(time.Hour)
	select {
	case <-tk.C():
		t.Fatal("stopped ticker ticked")
	default:
	}
	if n := m.Tickers(); n != 0 {
		t.Fatalf("Tickers() = %d after Stop, want 0", n)
	}
}

func TestOrIsTheSystemClockForNil(t *testing.T) {
	t.Parallel()
	if _, ok := Or(nil).(System); !ok {
		t.Fatal("Or(nil) is not the system clock")
	}
	m := NewManual(time.Time{})
	if Or(m) != Clock(m) {
		t.Fatal("Or(m) is not m")
	}
}
