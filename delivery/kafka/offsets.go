package kafka

import "sync"

// offsets tracks, per partition, which fetched offsets are still being
// handled, so that only the contiguous prefix of finished work is
// committed: committing offset n tells Kafka everything below n is done.
type offsets struct {
	mu         sync.Mutex
	partitions map[int]*partitionOffsets
}

type partitionOffsets struct {
	pending   map[int64]int // offset → handlers not yet done (duplicates after a rebalance)
	next      int64         // one past the highest offset fetched
	committed int64         // last offset committed (the next to read)
	// epoch counts the times this process started reading the partition:
	// a job fetched in an earlier epoch (before the partition was lost
	// and assigned back) reports done to nothing.
	epoch uint64
}

func newOffsets() *offsets {
	return &offsets{partitions: make(map[int]*partitionOffsets)}
}

// reset starts a new epoch of partition, read from offset (the next to
// read; negative when the group has committed nothing).
func (o *offsets) reset(partition int, epoch uint64, offset int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.partitions[partition] = &partitionOffsets{pending: make(map[int64]int), next: max(offset, 0),
		committed: max(offset, -1), epoch: epoch}
}

// drop forgets a partition this process no longer reads.
func (o *offsets) drop(partition int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.partitions, partition)
}

// fetchedIn and doneIn are fetched and done for a job of one epoch.
func (o *offsets) fetchedIn(partition int, epoch uint64, offset int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if p := o.partitions[partition]; p != nil && p.epoch == epoch {
		p.pending[offset]++
		p.next = max(p.next, offset+1)
	}
}

func (o *offsets) doneIn(partition int, epoch uint64, offset int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if p := o.partitions[partition]; p != nil && p.epoch == epoch {
		if p.pending[offset]--; p.pending[offset] <= 0 {
			delete(p.pending, offset)
		}
	}
}

func (o *offsets) fetched(partition int, offset int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	p := o.partitions[partition]
	if p == nil {
		p = &partitionOffsets{pending: make(map[int64]int), committed: -1}
		o.partitions[partition] = p
	}
	p.pending[offset]++
	p.next = max(p.next, offset+1)
}

func (o *offsets) done(partition int, offset int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	p := o.partitions[partition]
	if p == nil {
		return
	}
	if p.pending[offset]--; p.pending[offset] <= 0 {
		delete(p.pending, offset)
	}
}

// committable returns, per partition, the offset to commit (the lowest
// offset still pending, or one past the highest fetched) where it moved
// forward since the last call's commit was confirmed.
func (o *offsets) committable() map[int]int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make(map[int]int64)
	for part, p := range o.partitions {
		to := p.next
		for off := range p.pending {
			to = min(to, off)
		}
		if to > p.committed {
			out[part] = to
		}
	}
	return out
}

// markCommitted records a successful commit.
func (o *offsets) markCommitted(partition int, offset int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if p := o.partitions[partition]; p != nil {
		p.committed = max(p.committed, offset)
	}
}
