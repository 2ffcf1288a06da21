package opevents_test

import (
	"os"
	"testing"

	"github.com/ferry-dev/ferry/delivery/routing/sandbox"
)

// TestMain lets this test binary serve as the transformation sandbox's
// worker process (the pool starts the running executable).
func TestMain(m *testing.M) {
	sandbox.MainHook()
	os.Exit(m.Run())
}
