package attemptlog

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"time"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/internal/clock"
)

// PartitionConfig tunes the attempt-log partition job.
type PartitionConfig struct {
	// Ahead is how many days of partitions exist beyond today (default 3).
	Ahead int
	// Retention drops partitions whose whole day is older (default 30 days).
	Retention time.Duration
	// Interval between runs (default 1 h).
	Interval time.Duration
}

// Partitions creates the attempt log's daily partitions ahead of time and
// drops those past retention, which is far cheaper than DELETE + VACUUM.
type Partitions struct {
	db    *gorm.DB
	cfg   PartitionConfig
	log   *slog.Logger
	clock clock.Clock
	now   func() time.Time
}

// NewPartitions returns the partition job; clk nil is the system clock.
func NewPartitions(db *gorm.DB, cfg PartitionConfig, log *slog.Logger, clk clock.Clock) *Partitions {
	cfg.Ahead = cmp.Or(cfg.Ahead, 3)
	cfg.Retention = cmp.Or(cfg.Retention, 30*24*time.Hour)
	cfg.Interval = cmp.Or(cfg.Interval, time.Hour)
	clk = clock.Or(clk)
	return &Partitions{db: db, cfg: cfg, log: log, clock: clk, now: clk.Now}
}

var partitionName = regexp.MustCompile(`^attempts_p(\d{8})$`)

// Maintain creates missing partitions from yesterday to Ahead days on and
// drops expired ones.
func (p *Partitions) Maintain(ctx context.Context) error {
	today := p.now().UTC().Truncate(24 * time.Hour)
	db := p.db.WithContext(ctx)
	for d := -1; d <= p.cfg.Ahead; d++ {
		from := today.AddDate(0, 0, d)
		to := from.AddDate(0, 0, 1)
		sql := fmt.Sprintf(`CREATE TABLE IF NOT EXISTS attempts_p%s PARTITION OF attempts FOR VALUES FROM ('%s') TO ('%s')`,
			from.Format("20060102"), from.Format(time.RFC3339), to.Format(time.RFC3339))
		if err := db.Exec(sql).Error; err != nil {
			return fmt.Errorf("create attempt partition %s: %w", from.Format("2006-01-02"), err)
		}
	}
	var names []string
	if err := db.Raw(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'attempts'`).Scan(&names).Error; err != nil {
		return fmt.Errorf("list attempt partitions: %w", err)
	}
	cutoff := p.now().Add(-p.cfg.Retention)
	for _, n := range names {
		m := partitionName.FindStringSubmatch(n)
		if m == nil {
			continue
		}
		day, err := time.Parse("20060102", m[1])
		if err != nil || !day.AddDate(0, 0, 1).Before(cutoff) {
			continue
		}
		if err := db.Exec(`DROP TABLE IF EXISTS ` + n).Error; err != nil {
			return fmt.Errorf("drop attempt partition %s: %w", n, err)
		}
		p.log.Info("dropped expired attempt partition", "partition", n)
	}
	return pruneRollups(ctx, p.db, p.now())
}

// RunOnce is one round of the job Run ticks every Interval: Maintain.
func (p *Partitions) RunOnce(ctx context.Context) error { return p.Maintain(ctx) }

// Run runs RunOnce every Interval until ctx ends.
func (p *Partitions) Run(ctx context.Context) error {
	t := p.clock.NewTicker(p.cfg.Interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C():
			if err := p.RunOnce(ctx); err != nil && ctx.Err() == nil {
				p.log.Error("attempt partition maintenance failed", "err", err)
			}
		}
	}
}
