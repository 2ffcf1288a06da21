package inbound

import (
	"context"
	"sync"
	"time"

	"github.com/google/uuid"
	"golang.org/x/time/rate"
)

// limiters hold, per source and in this process, the token buckets of
// rejected requests stored (RejectedPerMinute per minute), and count
// rejected requests not stored until Run flushes them. (Accepted
// requests are limited by Service.rate, shared by every replica.)
type limiters struct {
	rejectedPerMinute int

	mu       sync.Mutex
	rejected map[uuid.UUID]*rate.Limiter
	unstored map[uuid.UUID]int64
}

func newLimiters(rejectedPerMinute int) *limiters {
	return &limiters{rejectedPerMinute: rejectedPerMinute,
		rejected: map[uuid.UUID]*rate.Limiter{}, unstored: map[uuid.UUID]int64{}}
}

// storeRejected reports whether a rejected request of src may be stored;
// when not, it is counted.
func (l *limiters) storeRejected(src uuid.UUID, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.rejected[src]
	if !ok {
		lim = rate.NewLimiter(rate.Every(time.Minute/time.Duration(max(l.rejectedPerMinute, 1))), l.rejectedPerMinute)
		l.rejected[src] = lim
	}
	if l.rejectedPerMinute > 0 && lim.AllowN(now, 1) {
		return true
	}
	l.unstored[src]++
	return false
}

// takeUnstored returns and resets the counts of unstored rejections.
func (l *limiters) takeUnstored() map[uuid.UUID]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.unstored
	l.unstored = map[uuid.UUID]int64{}
	return out
}

// putBackUnstored returns counts a failed flush did not write.
func (l *limiters) putBackUnstored(counts map[uuid.UUID]int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, n := range counts {
		l.unstored[id] += n
	}
}

// flushUnstored adds the counted, unstored rejections to their sources.
func (s *Service) flushUnstored(ctx context.Context) {
	counts := s.limiters.takeUnstored()
	for id, n := range counts {
		if err := s.db.WithContext(ctx).Exec(`UPDATE sources SET rejected_unstored = rejected_unstored + ? WHERE id = ?`, n, id).Error; err != nil {
			s.log.WarnContext(ctx, "count unstored rejected requests", "source_id", id, "err", err)
			s.limiters.putBackUnstored(map[uuid.UUID]int64{id: n})
			continue
		}
		delete(counts, id)
	}
}
