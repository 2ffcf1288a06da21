package ferry

import "fmt"

// FormatBytes writes a size limit for people, so that messages about a
// limit are derived from the constant that enforces it: 262144 → "256 KiB",
// 4194304 → "4 MiB", 1000 → "1000 bytes".
func FormatBytes(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
