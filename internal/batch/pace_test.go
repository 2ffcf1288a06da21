package batch

import (
	"context"
	"testing"
	"time"
)

func TestPaceFill(t *testing.T) {
	const every = 300 * time.Millisecond
	tests := []struct {
		name string
		// afterBatch: the previous batch began just before this one.
		afterBatch bool
		queued     int // items in the channel before Fill
		later      int // items sent 50 ms into Fill
		max        int
		cancel     bool // ctx ends 50 ms into Fill
		want       int
		// minWait and maxWait bound how long Fill took.
		minWait, maxWait time.Duration
	}{
		{name: "after a quiet spell it takes what is queued and goes", queued: 3, later: 2, max: 100, want: 3, maxWait: every / 2},
		{name: "right after a batch it waits and takes what arrives", afterBatch: true, queued: 1, later: 2, max: 100, want: 3, minWait: every - 20*time.Millisecond, maxWait: 5 * time.Second},
		{name: "a full batch does not wait", afterBatch: true, queued: 4, max: 4, want: 4, maxWait: every / 2},
		{name: "a batch filled while waiting goes at once", afterBatch: true, queued: 1, later: 3, max: 4, want: 4, maxWait: every - 50*time.Millisecond},
		{name: "an ended context ends the wait", afterBatch: true, queued: 1, max: 100, cancel: true, want: 1, maxWait: every - 50*time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p := Pace[int]{Every: every}
			if tc.afterBatch {
				p.Fill(ctx, make(chan int), func(int) {}, func() bool { return false })
			}
			ch := make(chan int, 100)
			for i := range tc.queued {
				ch <- i
			}
			go func() {
				time.Sleep(50 * time.Millisecond)
				for i := range tc.later {
					ch <- i
				}
				if tc.cancel {
					cancel()
				}
			}()
			var got []int
			start := time.Now()
			p.Fill(ctx, ch, func(i int) { got = append(got, i) }, func() bool { return len(got) >= tc.max })
			took := time.Since(start)
			if len(got) != tc.want {
				t.Errorf("took %d items, want %d", len(got), tc.want)
			}
			if took < tc.minWait || took > tc.maxWait {
				t.Errorf("Fill took %s, want %s to %s", took, tc.minWait, tc.maxWait)
			}
		})
	}
}
