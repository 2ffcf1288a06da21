// Package clock is the one way time reaches Ferry's background workers:
// each worker's constructor takes a Clock after its logger, nil meaning
// the system clock. Tests pass a Manual clock and step the worker with
// its RunOnce, or Advance the clock to fire the tickers its Run waits on.
package clock

import "time"

// Clock tells the time and makes tickers.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// NewTicker returns a ticker that ticks every d (d > 0).
	NewTicker(d time.Duration) Ticker
}

// Ticker delivers ticks on C until stopped; like time.Ticker it drops
// ticks a slow reader misses.
type Ticker interface {
	// C receives the time of each tick.
	C() <-chan time.Time
	// Stop turns the ticker off; no tick is sent after it returns.
	Stop()
}

// Or returns c, or the system clock when c is nil: constructors call it
// on the Clock they are given.
func Or(c Clock) Clock {
	if c == nil {
		return System{}
	}
	return c
}

// System is the system clock (time.Now and time.NewTicker).
type System struct{}

// Now returns time.Now().
func (System) Now() time.Time { return time.Now() }

// NewTicker returns a time.Ticker.
func (System) NewTicker(d time.Duration) Ticker { return systemTicker{time.NewTicker(d)} }

type systemTicker struct{ t *time.Ticker }

func (t systemTicker) C() <-chan time.Time { return t.t.C }
func (t systemTicker) Stop()               { t.t.Stop() }
