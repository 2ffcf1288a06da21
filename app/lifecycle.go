package app

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
)

// part is one component of a process's lifecycle. run runs it until its
// context ends (nil: nothing runs, the part only has a stop step); stop,
// if set, is called when the part's phase stops, before run's context is
// cancelled: a drain, a graceful close.
type part struct {
	name string
	// roles are the roles of which the process must play one for the
	// part to start; none: every process starts it.
	roles []string
	run   func(ctx context.Context) error
	stop  func(ctx context.Context)
}

// phase is parts that start together and stop together.
type phase struct {
	name  string
	parts []part
}

// lifecycle starts phases in the order they were added and stops them
// in reverse: what starts first stops last. Parts of one phase start in
// order and stop concurrently.
type lifecycle struct {
	log    *slog.Logger
	roles  map[string]bool
	phases []phase
}

// add appends a phase.
func (l *lifecycle) add(name string, parts ...part) {
	l.phases = append(l.phases, phase{name: name, parts: parts})
}

// plays reports whether the process starts p.
func (l *lifecycle) plays(p part) bool {
	return len(p.roles) == 0 || slices.ContainsFunc(p.roles, func(r string) bool { return l.roles[r] })
}

// started is a part whose run is under way.
type started struct {
	part
	cancel context.CancelFunc
	done   chan struct{}
}

// run starts every phase, waits until ctx ends or a part's run fails,
// then stops the phases in reverse order: for each part of a phase its
// stop step, then the end of its run's context and of its run. Parts run
// on contexts that keep ctx's values but not its end. It returns the
// first failure, or nil.
func (l *lifecycle) run(ctx context.Context) error {
	base := context.WithoutCancel(ctx)
	n := 0
	for _, ph := range l.phases {
		n += len(ph.parts)
	}
	errc := make(chan error, n) // no run blocks on sending its failure
	running := make([][]started, len(l.phases))
	for i, ph := range l.phases {
		for _, p := range ph.parts {
			if !l.plays(p) {
				continue
			}
			s := started{part: p, cancel: func() {}, done: make(chan struct{})}
			if p.run == nil {
				close(s.done)
			} else {
				runCtx, cancel := context.WithCancel(base)
				s.cancel = cancel
				go func() {
					defer close(s.done)
					if err := p.run(runCtx); err != nil {
						errc <- fmt.Errorf("%s: %w", p.name, err)
					}
				}()
			}
			running[i] = append(running[i], s)
		}
	}

	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-errc:
		l.log.Error("component failed; shutting down", "err", runErr)
	}
	l.log.Info("shutting down")
	for i := len(running) - 1; i >= 0; i-- {
		var wg sync.WaitGroup
		for _, s := range running[i] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if s.stop != nil {
					s.stop(base)
				}
				s.cancel()
				<-s.done
			}()
		}
		wg.Wait()
		l.log.Debug("stopped", "phase", l.phases[i].name)
	}
	return runErr
}
