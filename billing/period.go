package billing

import (
	"fmt"
	"time"

	"github.com/ferry-dev/ferry"
)

// periodFormat is how a period (a calendar month, UTC) is written: 2026-11.
const periodFormat = "2006-01"

// MonthStart returns the first instant of t's calendar month in UTC.
func MonthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// NextMonth returns the first instant of the month after t's (UTC).
func NextMonth(t time.Time) time.Time {
	return MonthStart(t).AddDate(0, 1, 0)
}

// ParsePeriod parses "2026-11" into the month's first instant (UTC).
// Errors: EINVALID.
func ParsePeriod(s string) (time.Time, error) {
	t, err := time.ParseInLocation(periodFormat, s, time.UTC)
	if err != nil {
		return time.Time{}, ferry.Invalid("period", "period must be a month written YYYY-MM, got %q", s)
	}
	return t, nil
}

// FormatPeriod writes a month as "2026-11".
func FormatPeriod(t time.Time) string {
	return t.UTC().Format(periodFormat)
}

// secondsUntilNextMonth is the Retry-After of a monthly quota refusal.
func secondsUntilNextMonth(now time.Time) int {
	d := NextMonth(now).Sub(now)
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}

func describeRange(from, to time.Time) string {
	last := to.Add(-time.Nanosecond)
	return fmt.Sprintf("%s – %s", from.UTC().Format("Jan 2 15:04"), last.UTC().Format("Jan 2 15:04 MST"))
}
