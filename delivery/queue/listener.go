package queue

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/delivery"
)

// listener holds one dedicated connection LISTENing on
// delivery.QueueChannel and wakes the long-polls of the notified queue.
type listener struct {
	url string
	log *slog.Logger

	mu      sync.Mutex
	waiters map[uuid.UUID]map[chan struct{}]struct{}
}

func newListener(url string, log *slog.Logger) *listener {
	return &listener{url: url, log: log, waiters: map[uuid.UUID]map[chan struct{}]struct{}{}}
}

// subscribe returns a channel that receives when endpointID is notified;
// call cancel when done waiting.
func (l *listener) subscribe(endpointID uuid.UUID) (wake <-chan struct{}, cancel func()) {
	ch := make(chan struct{}, 1)
	l.mu.Lock()
	set := l.waiters[endpointID]
	if set == nil {
		set = map[chan struct{}]struct{}{}
		l.waiters[endpointID] = set
	}
	set[ch] = struct{}{}
	l.mu.Unlock()
	return ch, func() {
		l.mu.Lock()
		delete(set, ch)
		if len(set) == 0 && l.waiters[endpointID] != nil && len(l.waiters[endpointID]) == 0 {
			delete(l.waiters, endpointID)
		}
		l.mu.Unlock()
	}
}

// wake signals the waiters of endpointID, or all waiters for uuid.Nil
// (after a reconnect, when notifications may have been missed).
func (l *listener) wake(endpointID uuid.UUID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	signal := func(set map[chan struct{}]struct{}) {
		for ch := range set {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}
	if endpointID == uuid.Nil {
		for _, set := range l.waiters {
			signal(set)
		}
		return
	}
	signal(l.waiters[endpointID])
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
	l.wake(uuid.Nil)
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
