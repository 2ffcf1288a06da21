package clock

import (
	"slices"
	"sync"
	"time"
)

// Manual is a clock for tests that moves only when told (Set, Advance);
// its tickers tick when it passes their next tick. Safe for concurrent
// use.
type Manual struct {
	mu      sync.Mutex
	now     time.Time
	tickers []*manualTicker
}

var _ Clock = (*Manual)(nil)

// NewManual returns a Manual clock set to t.
func NewManual(t time.Time) *Manual { return &Manual{now: t} }

// Now returns the clock's time.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// Set moves the clock to t (backwards too) and ticks every ticker whose
// next tick it reached, once each, as a time.Ticker drops ticks missed.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = t
	for _, tk := range m.tickers {
		if t.Before(tk.next) {
			continue
		}
		select {
		case tk.c <- t:
		default:
		}
		for !t.Before(tk.next) {
			tk.next = tk.next.Add(tk.every)
		}
	}
}

// Advance moves the clock forward by d (see Set).
func (m *Manual) Advance(d time.Duration) { m.Set(m.Now().Add(d)) }

// NewTicker returns a ticker whose first tick is d after the clock's
// time now.
func (m *Manual) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive interval for NewTicker")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	tk := &manualTicker{m: m, c: make(chan time.Time, 1), every: d, next: m.now.Add(d)}
	m.tickers = append(m.tickers, tk)
	return tk
}

// Tickers returns how many tickers are running: a test waits for a
// worker's Run to have made its tickers before it advances the clock.
func (m *Manual) Tickers() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.tickers)
}

type manualTicker struct {
	m     *Manual
	c     chan time.Time
	every time.Duration
	next  time.Time
}

func (t *manualTicker) C() <-chan time.Time { return t.c }

func (t *manualTicker) Stop() {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	t.m.tickers = slices.DeleteFunc(t.m.tickers, func(x *manualTicker) bool { return x == t })
}
