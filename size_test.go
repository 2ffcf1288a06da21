package ferry_test

import (
	"testing"

	"github.com/ferry-dev/ferry"
)

func TestFormatBytes(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{256 << 10: "256 KiB", 4 << 20: "4 MiB", 1000: "1000 bytes", 1536: "1536 bytes", 0: "0 bytes"} {
		if got := ferry.FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
