package ratelimit

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// Leaser hands out tokens of shared buckets; *Buckets is one.
type Leaser interface {
	// Lease takes up to want tokens from key's bucket (capacity and
	// refill perSecond) and returns how many it got and how many are
	// left.
	Lease(ctx context.Context, key string, perSecond, want int) (granted int, left float64, err error)
}

var _ Leaser = (*Buckets)(nil)

// Limiter limits requests per key (a tenant, a source) with a token
// bucket each, of capacity and refill perSecond. With shared buckets the
// bucket is in PostgreSQL and holds for every process together: each
// process leases a batch of tokens (a twentieth of a second's worth) and
// spends them locally, so the database sees one statement per batch, and
// a key may exceed its limit by at most a batch per process. Without
// them, or while the database does not answer, each process keeps its
// own bucket, and N processes allow N times the limit.
//
// A batch is topped up in the background when fewer than half of it are
// left or it expires within topUpBeforeExpiry, so a steady key's requests
// never wait for the database. Only a key whose batch is spent, or that
// was idle for a lease's life, waits for its next lease, and concurrent
// requests of the key wait for that one lease together.
type Limiter struct {
	shared Leaser
	prefix string // the shared buckets' key prefix
	log    *slog.Logger
	now    func() time.Time
	// warned is when the shared buckets' failure was last logged (unix
	// seconds): once a minute is enough.
	warned atomic.Int64

	mu     sync.Mutex
	local  map[string]*rate.Limiter
	leases map[string]*lease
}

// lease is a process's share of a key's shared bucket.
type lease struct {
	mu     sync.Mutex
	tokens int
	// expires ends unspent tokens, so a process cannot hoard a burst
	// beyond the limit.
	expires time.Time
	// left is what the shared bucket held after the last lease.
	left float64
	// emptyUntil is when the shared bucket, found empty, has a token
	// again: until then requests are refused without asking.
	emptyUntil time.Time
	// localUntil is when to ask the shared bucket again after it failed:
	// until then the key is limited by this process alone, so a database
	// that hangs costs the key one lease timeout, not one per request.
	localUntil time.Time
	// refill is closed when the lease in flight lands; nil when none is.
	refill chan struct{}
}

const (
	// leaseLife is how long leased tokens may be spent.
	leaseLife = time.Second
	// topUpBeforeExpiry is how long before its tokens expire a batch is
	// topped up: a key with a request at least every 200 ms never waits
	// for a lease, and a slow key leases about once a second, not twice.
	topUpBeforeExpiry = leaseLife / 5
	// leaseTimeout bounds a lease's wait for the database.
	leaseTimeout = time.Second
	// localAfterFailure is how long a key is limited per process after
	// its shared bucket failed.
	localAfterFailure = 5 * time.Second
)

// maxKeys bounds memory; past it idle buckets and leases are forgotten
// (a full bucket is what a new one starts with anyway).
const maxKeys = 100_000

// NewLimiter returns a Limiter whose buckets are shared through shared
// under keys prefix + ":" + key; a nil shared keeps every bucket in this
// process. A nil log discards its warnings.
func NewLimiter(shared Leaser, prefix string, log *slog.Logger) *Limiter {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Limiter{shared: shared, prefix: prefix, log: log, now: time.Now,
		local: map[string]*rate.Limiter{}, leases: map[string]*lease{}}
}

// SetClock replaces the clock (tests).
func (l *Limiter) SetClock(now func() time.Time) { l.now = now }

// Take spends a token of key's bucket, which holds at most perSecond
// tokens and refills perSecond a second. It returns the tokens left and,
// when there was none to spend, how long until there is (wait > 0: the
// request is refused). perSecond ≤ 0 admits everything.
func (l *Limiter) Take(ctx context.Context, key string, perSecond int) (left float64, wait time.Duration) {
	if perSecond <= 0 {
		return 0, 0
	}
	if l.shared == nil {
		return l.takeLocal(key, perSecond)
	}
	ls := l.leaseOf(key)
	for {
		ls.mu.Lock()
		now := l.now()
		if now.Before(ls.localUntil) {
			ls.mu.Unlock()
			return l.takeLocal(key, perSecond)
		}
		if ls.tokens > 0 && now.Before(ls.expires) {
			ls.tokens--
			if ls.refill == nil && now.After(ls.emptyUntil) &&
				(ls.tokens < batch(perSecond)/2 || ls.expires.Sub(now) < topUpBeforeExpiry) {
				l.startRefill(ctx, key, ls, perSecond, now)
			}
			left := ls.left + float64(ls.tokens)
			ls.mu.Unlock()
			return left, 0
		}
		if ls.refill == nil && now.Before(ls.emptyUntil) {
			left, wait := ls.left, ls.emptyUntil.Sub(now)
			ls.mu.Unlock()
			return left, wait
		}
		if ls.refill == nil {
			l.startRefill(ctx, key, ls, perSecond, now)
		}
		landed := ls.refill
		ls.mu.Unlock()
		select {
		case <-landed:
		case <-ctx.Done():
			// The caller is gone; what it is told no longer matters.
			return l.takeLocal(key, perSecond)
		}
	}
}

// batch is how many tokens a process holds of a bucket of perSecond.
func batch(perSecond int) int { return max(1, perSecond/20) }

// startRefill leases ls up to a full batch in the background; ls.mu is
// held. The lease outlives the request that started it (its context's
// values, not its cancellation), since the key's other requests may be
// waiting for it.
func (l *Limiter) startRefill(ctx context.Context, key string, ls *lease, perSecond int, now time.Time) {
	held := ls.tokens
	if !now.Before(ls.expires) {
		held = 0
	}
	want := max(1, batch(perSecond)-held)
	landed := make(chan struct{})
	ls.refill = landed
	ctx = context.WithoutCancel(ctx)
	go func() {
		defer close(landed)
		lctx, cancel := context.WithTimeout(ctx, leaseTimeout)
		granted, shared, err := l.shared.Lease(lctx, l.prefix+":"+key, perSecond, want)
		cancel()
		ls.mu.Lock()
		defer ls.mu.Unlock()
		ls.refill = nil
		now := l.now()
		if err != nil {
			// The database is the callers' own dependency: a request that
			// can reach nothing else is limited by this process alone.
			ls.localUntil = now.Add(localAfterFailure)
			if at := now.Unix(); at-l.warned.Load() >= 60 {
				l.warned.Store(at)
				l.log.Warn("shared rate limit unavailable; limiting per process", "limit", l.prefix, "err", err)
			}
			return
		}
		ls.left = shared
		if granted == 0 {
			// What is still held may be spent until it expires.
			ls.emptyUntil = now.Add(max(time.Duration((1-shared)/float64(perSecond)*float64(time.Second)), time.Millisecond))
			return
		}
		if !now.Before(ls.expires) {
			ls.tokens = 0
		}
		ls.tokens += granted
		ls.expires = now.Add(leaseLife)
	}()
}

// leaseOf returns key's share of its shared bucket.
func (l *Limiter) leaseOf(key string) *lease {
	l.mu.Lock()
	defer l.mu.Unlock()
	ls, ok := l.leases[key]
	if !ok {
		if len(l.leases) >= maxKeys {
			now := l.now()
			for k, old := range l.leases {
				if old.mu.TryLock() {
					idle := old.refill == nil && now.After(old.expires) && now.After(old.emptyUntil) && now.After(old.localUntil)
					old.mu.Unlock()
					if idle {
						delete(l.leases, k)
					}
				}
			}
		}
		ls = &lease{}
		l.leases[key] = ls
	}
	return ls
}

// takeLocal spends a token of key's bucket in this process.
func (l *Limiter) takeLocal(key string, perSecond int) (float64, time.Duration) {
	now := l.now()
	b := l.bucket(key, perSecond, now)
	r := b.ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return b.TokensAt(now), delay
	}
	return b.TokensAt(now), 0
}

// bucket returns key's local bucket at perSecond, made full on first use.
func (l *Limiter) bucket(key string, perSecond int, now time.Time) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.local[key]
	if !ok {
		if len(l.local) >= maxKeys {
			for k, old := range l.local {
				if old.TokensAt(now) >= float64(old.Burst()) {
					delete(l.local, k)
				}
			}
		}
		b = rate.NewLimiter(rate.Limit(perSecond), perSecond)
		l.local[key] = b
	} else if b.Limit() != rate.Limit(perSecond) {
		b.SetLimitAt(now, rate.Limit(perSecond))
		b.SetBurstAt(now, perSecond)
	}
	return b
}
