package sandbox

import "testing"

func TestOutOfMemory(t *testing.T) {
	tests := []struct {
		name   string
		stderr string
		want   bool
	}{
		{"the runtime out of memory", "fatal error: runtime: out of memory\n\ngoroutine 1 [running]:", true},
		{"the arena not mapped", "runtime: cannot map pages in arena address space\nfatal error: out of memory", true},
		{"a length past any allocation", "panic: runtime error: makeslice: len out of range", true},
		{"a thread's stack past the data limit", "runtime/cgo: pthread_create failed: Resource temporarily unavailable\nSIGABRT: abort", true},
		{"a nil dereference", "panic: runtime error: invalid memory address or nil pointer dereference", false},
		{"the stack", "runtime: goroutine stack exceeds 1000000000-byte limit", false},
		{"nothing written", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := outOfMemory(tt.stderr); got != tt.want {
				t.Errorf("outOfMemory(%q) = %v, want %v", tt.stderr, got, tt.want)
			}
		})
	}
}
