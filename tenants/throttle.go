package tenants

import (
	"context"
	"fmt"
	"math"
	"net/netip"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
)

// throttleLimit allows max hits on key per sliding window. A max of 0
// turns the limit off.
type throttleLimit struct {
	key    string
	max    int
	window time.Duration
	// message is the 429 text; it says nothing about the password.
	message string
}

// clientKey names a client address for the per-address limits. IPv6
// clients are counted per /64, the block one subscriber usually holds, so
// hopping between addresses of one block does not escape the limit.
func clientKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, err := ip.Prefix(64)
		if err == nil {
			return p.String()
		}
	}
	return ip.String()
}

// throttleRow is a row of auth_throttle: one hit on a key.
type throttleRow struct {
	Key string
	At  time.Time
}

func (throttleRow) TableName() string { return "auth_throttle" }

// reserve takes one hit on every limit, or none when any is full, and
// then returns ERATELIMIT with the wait until a hit ages out. Hits are
// counted under a transaction-scoped advisory lock per key (taken in key
// order, so two callers cannot deadlock), which makes the count atomic
// across goroutines and replicas: 40 parallel guesses against a limit of
// 10 reserve exactly 10 hits.
func (s *Service) reserve(ctx context.Context, limits ...throttleLimit) error {
	limits = slices.DeleteFunc(slices.Clone(limits), func(l throttleLimit) bool { return l.max <= 0 })
	if len(limits) == 0 {
		return nil
	}
	slices.SortFunc(limits, func(a, b throttleLimit) int {
		if a.key < b.key {
			return -1
		}
		if a.key > b.key {
			return 1
		}
		return 0
	})
	now := s.now().UTC()
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for _, l := range limits {
			// Hand-written: GORM has no builder for advisory locks.
			if err := tx.Exec("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", "throttle:"+l.key).Error; err != nil {
				return fmt.Errorf("lock throttle %s: %w", l.key, err)
			}
			since := now.Add(-l.window)
			if err := tx.Where("key = ? AND at <= ?", l.key, since).Delete(&throttleRow{}).Error; err != nil {
				return fmt.Errorf("expire throttle %s: %w", l.key, err)
			}
			var hits []time.Time
			if err := tx.Model(&throttleRow{}).Where("key = ?", l.key).Order("at").Pluck("at", &hits).Error; err != nil {
				return fmt.Errorf("count throttle %s: %w", l.key, err)
			}
			if len(hits) >= l.max {
				// The hit that must age out before one more fits.
				free := hits[len(hits)-l.max].Add(l.window)
				wait := max(1, int(math.Ceil(free.Sub(now).Seconds())))
				return &ferry.Error{Code: ferry.ERATELIMIT, Message: l.message, RetryAfterSeconds: wait}
			}
		}
		rows := make([]throttleRow, len(limits))
		for i, l := range limits {
			rows[i] = throttleRow{Key: l.key, At: now}
		}
		if err := tx.Create(&rows).Error; err != nil {
			return fmt.Errorf("record throttle hits: %w", err)
		}
		return nil
	})
}

// release gives back one hit on each key (an attempt that turned out not
// to be a failure).
func (s *Service) release(ctx context.Context, keys ...string) error {
	for _, k := range keys {
		// Hand-written: delete exactly one row of a table without a key.
		if err := s.db.WithContext(ctx).Exec(`DELETE FROM auth_throttle WHERE ctid =
			(SELECT ctid FROM auth_throttle WHERE key = ? ORDER BY at DESC LIMIT 1)`, k).Error; err != nil {
			return fmt.Errorf("release throttle %s: %w", k, err)
		}
	}
	return nil
}

// clearThrottle forgets every hit on key.
func (s *Service) clearThrottle(ctx context.Context, key string) error {
	if err := s.db.WithContext(ctx).Where("key = ?", key).Delete(&throttleRow{}).Error; err != nil {
		return fmt.Errorf("clear throttle %s: %w", key, err)
	}
	return nil
}
