package model

import "slices"

// ResponseBuckets is the number of buckets of the answer-time histogram
// the attempt log keeps per endpoint and hour, and stats read.
const ResponseBuckets = 20

// responseBounds are the inclusive upper bounds, in milliseconds, of the
// histogram's buckets but the last, which is open.
func responseBounds() [ResponseBuckets - 1]int {
	return [ResponseBuckets - 1]int{1, 2, 5, 10, 20, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000, 20000}
}

// ResponseBucket returns the histogram bucket of an answer time.
func ResponseBucket(ms int) int {
	bounds := responseBounds()
	i, _ := slices.BinarySearch(bounds[:], ms)
	return i
}

// ResponseBucketUpper returns the inclusive upper bound of bucket i in
// milliseconds; ok is false for the last bucket, which is open.
func ResponseBucketUpper(i int) (ms int, ok bool) {
	bounds := responseBounds()
	if i < len(bounds) {
		return bounds[i], true
	}
	return 0, false
}
