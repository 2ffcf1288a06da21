package queue

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/delivery"
)

// listener holds one dedicated connection LISTENing on
// delivery.QueueChannel and wakes the long-polls of the notified queue.
//
// A notification wakes one waiter of the queue, not all of them: one
// pull of up to 100 messages usually takes everything a commit added,
// and waking every consumer of a busy queue for each commit would make
// all but one run an empty lease. The woken waiter passes the wake-up on
// when it may not have taken everything (it filled its batch) and when
// it leaves without having used it (see subscription.cancel), so no
// wake-up is lost. Waiters are woken oldest first.
type listener struct {
	url string
	log *slog.Logger

	mu      sync.Mutex
	waiters map[uuid.UUID][]chan struct{}
}

func newListener(url string, log *slog.Logger) *listener {
	return &listener{url: url, log: log, waiters: map[uuid.UUID][]chan struct{}{}}
}

// subscribe returns a channel that receives when endpointID may have
// messages for this waiter; call cancel when done waiting.
func (l *listener) subscribe(endpointID uuid.UUID) (wake <-chan struct{}, cancel func()) {
	ch := make(chan struct{}, 1)
	l.mu.Lock()
	l.waiters[endpointID] = append(l.waiters[endpointID], ch)
	l.mu.Unlock()
	return ch, func() {
		l.mu.Lock()
		ws := l.waiters[endpointID]
		if i := slices.Index(ws, ch); i >= 0 {
			ws = slices.Delete(ws, i, i+1)
		}
		if len(ws) == 0 {
			delete(l.waiters, endpointID)
		} else {
			l.waiters[endpointID] = ws
		}
		l.mu.Unlock()
		select {
		case <-ch:
			// Woken but leaving without leasing: another waiter may.
			l.wake(endpointID)
		default:
		}
	}
}

// wake signals one waiter of endpointID that has no wake-up pending, and
// moves it to the back of the line.
func (l *listener) wake(endpointID uuid.UUID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ws := l.waiters[endpointID]
	for i, ch := range ws {
		select {
		case ch <- struct{}{}:
			copy(ws[i:], ws[i+1:])
			ws[len(ws)-1] = ch
			return
		default:
		}
	}
}

// wakeAll signals every waiter (after a reconnect, when notifications
// may have been missed).
func (l *listener) wakeAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, ws := range l.waiters {
		for _, ch := range ws {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}
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
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{delivery.QueueChannel}.Sanitize()); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	// Anything notified while disconnected was missed: re-check all.
	l.wakeAll()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("wait for notification: %w", err)
		}
		if id, err := uuid.Parse(n.Payload); err == nil {
			l.wake(id)
		}
	}
}
