// Package insight answers questions about what delivery did, without
// changing it: endpoint and tenant stats (from the attempt log's hourly
// rollups and the live backlog), the read models staff use to look into
// a tenant, and the quota warnings that follow a tenant's usage.
package insight

import (
	"time"

	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
)

// Service answers stats and staff queries.
type Service struct {
	db       *gorm.DB
	delivery *delivery.Service
	now      func() time.Time
}

// New returns a Service reading db; svc answers the endpoint, event and
// attempt lookups the answers are built on. now may be nil.
func New(db *gorm.DB, svc *delivery.Service, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, delivery: svc, now: now}
}
