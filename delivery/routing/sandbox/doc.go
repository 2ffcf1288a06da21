// Package sandbox runs tenants' JavaScript transformations in a pool of
// worker processes, so that no transformation can take more than its
// deadline, its process's memory, or its tenant's share of the pool.
//
// Why processes. goja (routing.Transformer) stops a run by an interrupt
// flag it checks between JavaScript instructions, and bounds memory by
// watching the heap of the whole process. Neither reaches a loop inside
// a native builtin (Array.prototype.join.call({length: 2e8})) or a
// backtracking regular expression (regexp2 has no timeout unless asked),
// and a goroutine cannot be stopped from outside. A process can: the
// pool kills (SIGKILL) a worker whose run outlives its deadline and
// starts another. The cooperative limits stay inside the worker as the
// first line (they end an ordinary loop at 50 ms of CPU time and keep the
// worker); the kill is the guarantee.
//
// Shape. A worker is the running executable started again
// (os.Executable) with EnvWorker set; the program's main, and the
// TestMain of every test binary that runs transformations, calls
// MainHook first thing, which serves requests and exits when EnvWorker
// is set and returns at once otherwise. This needs no second binary to
// build, ship or find, and a worker runs exactly the engine version of
// its parent. A worker applies its own resource limits before it reads
// a request (RLIMIT_DATA for memory, which on Linux counts the Go heap's
// anonymous mappings but not its PROT_NONE reservations, as RLIMIT_AS
// would; RLIMIT_CPU as a backstop; no core files, no file writes, few
// descriptors), and serves one request at a time over its stdin and
// stdout: frames of a 4-byte big-endian length and a JSON message. It
// caches compiled programs by owner and source hash within a byte budget
// per tenant and in total (routing's cache); unsaved sources (test-routing)
// are compiled, run once and dropped.
//
// Scheduling. A run holds one worker. At most Config.Workers run at
// once, and at most Config.PerTenant of one tenant's: a tenant whose
// transformations all hang holds PerTenant workers for one deadline
// each, and the others stay free for everyone else. Waiting runs are
// served first come, first served, skipping tenants at their cap, so a
// bystander queued behind a hog's backlog gets the next free worker.
//
// Failures. A run killed at its deadline fails with
// routing.ErrTransformTimeout, a worker that died of its memory limit
// with routing.ErrTransformMemory, any other death of a worker with
// routing.ErrTransformFailed: that delivery's transformation_error, and
// the pool goes on with a fresh worker. When no worker can be started
// at all, Run returns ErrUnavailable (not a transformation's fault: the
// caller fails the request rather than the delivery).
package sandbox
