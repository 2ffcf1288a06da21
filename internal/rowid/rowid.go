// Package rowid makes the ids of rows written at a high rate: events,
// deliveries, attempts and inbound captures.
package rowid

import (
	"crypto/rand"
	"encoding/binary"
	"time"

	"github.com/google/uuid"
)

// BucketSeconds is how long ids share their leading bytes.
const BucketSeconds = 60

// New returns an id made now (NewAt).
func New() uuid.UUID { return NewAt(time.Now()) }

// NewAt returns an id whose first two bytes count the minutes of t,
// wrapping every 65,536 minutes (about 45 days), and whose remaining
// bits but the version and variant are random: a UUID of version 8, the
// layout RFC 9562 leaves to the application.
//
// The minute keeps each table's inserts of the last minutes within a
// small part of its indexes. With entirely random ids (version 4), every
// insert into a table of millions of rows lands on an index page nobody
// has touched since the last checkpoint, and PostgreSQL writes that
// whole page to the WAL again (docs/operations.md, Sizing); the pages
// of the whole index are the working set. The random rest spreads one
// minute's inserts over that minute's pages. Entirely time-ordered ids
// (version 7) were tried and taken back: every insert went to the one
// right-hand page of each index, where the fan-out's inserts and the
// dispatcher's updates queued for its lock, and at 1,000 inbound
// requests/s the hot statements were several times slower
// (docs/benchmarks.md, 2026-11-26 20:44). Here only the first
// moments of each minute share a page.
func NewAt(t time.Time) uuid.UUID {
	var id uuid.UUID
	_, _ = rand.Read(id[:]) // crypto/rand.Read never fails (Go 1.24)
	binary.BigEndian.PutUint16(id[0:2], uint16(t.Unix()/BucketSeconds))
	id[6] = id[6]&0x0f | 0x80 // version 8
	id[8] = id[8]&0x3f | 0x80 // variant 10 (RFC 9562)
	return id
}
