package queue

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ferry-dev/ferry/delivery/model"
)

// listener holds one dedicated connection LISTENing on
// delivery.QueueChannel and wakes the long-polls of the notified queue.
//
// A notification wakes one waiter of the queue, not all of them: one
// pull of up to 100 messages usually takes everything a commit added,
// and waking every consumer of a busy queue for each commit would make
// all but one run an empty lease. A waiter parked in its wait is woken
// before one that is busy leasing (whose wake-up would wait for its
// lease to end), oldest first. The woken waiter passes the wake-up on
// when it may not have taken everything (it filled its batch) and when
// it leaves without having used it (see subscription.cancel), so no
// wake-up is lost.
type listener struct {
	url string
	// instance names this process in the notifications its ingests send
	// after waking their queues' waiters directly: those are skipped.
	instance string
	log      *slog.Logger
	// skipped counts notifications skipped as this process's own.
	skipped prometheus.Counter

	// listening receives each time the listener has (re)connected and
	// LISTENs: notifications sent meanwhile were missed, so the Service
	// re-checks the queues with waiters at once (recheck.go).
	listening chan struct{}

	mu      sync.Mutex
	waiters map[uuid.UUID][]*waiter
}

// waiter is one long-poll waiting on a queue.
type waiter struct {
	ch       chan struct{} // holds one pending wake-up
	parked   bool          // blocked in its wait, not leasing
	tenantID uuid.UUID     // the queue's tenant, for the re-check
}

func newListener(url, instance string, skipped prometheus.Counter, log *slog.Logger) *listener {
	return &listener{url: url, instance: instance, skipped: skipped, log: log, listening: make(chan struct{}, 1), waiters: map[uuid.UUID][]*waiter{}}
}

// subscription is a long-poll's place in line for a queue's wake-ups.
type subscription struct {
	l          *listener
	endpointID uuid.UUID
	w          *waiter
}

// subscribe puts a long-poll in line for the wake-ups of tenantID's
// queue endpointID; call cancel when done waiting.
func (l *listener) subscribe(tenantID, endpointID uuid.UUID) *subscription {
	w := &waiter{ch: make(chan struct{}, 1), tenantID: tenantID}
	l.mu.Lock()
	l.waiters[endpointID] = append(l.waiters[endpointID], w)
	l.mu.Unlock()
	return &subscription{l: l, endpointID: endpointID, w: w}
}

// wake receives when the queue may have messages for this waiter.
func (s *subscription) wake() <-chan struct{} { return s.w.ch }

// park says whether the waiter is blocked in its wait (true) or busy.
func (s *subscription) park(parked bool) {
	if s == nil {
		return
	}
	s.l.mu.Lock()
	s.w.parked = parked
	s.l.mu.Unlock()
}

// cancel leaves the line, passing on a wake-up it did not use.
func (s *subscription) cancel() {
	l := s.l
	l.mu.Lock()
	ws := l.waiters[s.endpointID]
	if i := slices.Index(ws, s.w); i >= 0 {
		ws = slices.Delete(ws, i, i+1)
	}
	if len(ws) == 0 {
		delete(l.waiters, s.endpointID)
	} else {
		l.waiters[s.endpointID] = ws
	}
	l.mu.Unlock()
	select {
	case <-s.w.ch:
		// Woken but leaving without leasing: another waiter may.
		l.wake(s.endpointID)
	default:
	}
}

// wake signals one waiter of endpointID that has no wake-up pending,
// parked ones first, and moves it to the back of the line.
func (l *listener) wake(endpointID uuid.UUID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ws := l.waiters[endpointID]
	for _, parkedOnly := range []bool{true, false} {
		for i, w := range ws {
			if parkedOnly && !w.parked {
				continue
			}
			select {
			case w.ch <- struct{}{}:
				copy(ws[i:], ws[i+1:])
				ws[len(ws)-1] = w
				return
			default:
			}
		}
	}
}

// count returns how many long-polls are in line, over all queues.
func (l *listener) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, ws := range l.waiters {
		n += len(ws)
	}
	return n
}

// queueRef names a queue with its tenant.
type queueRef struct {
	tenantID, endpointID uuid.UUID
}

// queues returns the queues that have waiters now.
func (l *listener) queues() []queueRef {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]queueRef, 0, len(l.waiters))
	for id, ws := range l.waiters {
		out = append(out, queueRef{tenantID: ws[0].tenantID, endpointID: id})
	}
	return out
}

// run listens until ctx ends, reconnecting after a second on errors.
func (l *listener) run(ctx context.Context) error {
	for ctx.Err() == nil {
		if err := l.listen(ctx); err != nil && ctx.Err() == nil {
			l.log.WarnContext(ctx, "queue listener lost its connection; reconnecting", "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
	return nil
}

func (l *listener) listen(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, l.url)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{model.QueueChannel}.Sanitize()); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	// Anything notified while disconnected was missed: have the queues
	// with waiters re-checked.
	select {
	case l.listening <- struct{}{}:
	default:
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("wait for notification: %w", err)
		}
		l.notified(n.Payload)
	}
}

// notified handles the payload of one notification (delivery.QueueChannel):
// the queue's id, then, from an ingest that woke its own process's
// waiters directly, the sender's instance. This process's own are
// skipped: a second waiter would only run an empty lease. A payload of
// the id alone (replay, the sweeper, settles, operational events, and
// ingests of older versions during a rolling deploy) wakes a waiter.
func (l *listener) notified(payload string) {
	id, sender, _ := strings.Cut(payload, model.QueueSenderSep)
	endpointID, err := uuid.Parse(id)
	if err != nil {
		return
	}
	if sender != "" && sender == l.instance {
		l.skipped.Inc()
		return
	}
	l.wake(endpointID)
}
