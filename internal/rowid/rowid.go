// Package rowid makes the ids of rows written at a high rate: events,
// deliveries, attempts and inbound captures.
package rowid

import "github.com/google/uuid"

// New returns a random id (UUID version 4).
//
// Time-ordered ids (version 7) were tried and taken back. They write less
// WAL on a large table after a checkpoint (200,000 inserts into two
// million rows: 66 MB against 186), as every insert lands on the
// right-hand page of the primary-key index. But at 1,000 inbound
// requests/s on this project's 2-core machine they made the hot
// statements several times slower: the inbound fan-out insert took
// 12–20 ms a call instead of 2–3, the delivery-status update 3–4 ms
// instead of 1–2, and forwarding fell behind (docs/benchmarks.md,
// 2026-11-26 21:09–21:25). The likely cause is that same page: the
// fan-out inserts deliveries there while the dispatcher reads and
// updates them by id, so they all queue for one page's lock, held by
// backends the two cores often deschedule. Random ids spread them over
// the index.
func New() uuid.UUID { return uuid.New() }
