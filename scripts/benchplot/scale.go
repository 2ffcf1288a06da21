package main

import (
	"math"
	"strconv"
	"strings"
)

// scale maps values to a fraction of an axis (0 at the bottom, 1 at the
// top) and lists the ticks to draw with their labels.
type scale struct {
	log    bool
	lo, hi float64
	ticks  []float64
	unit   string // "ms" for latencies (ticks read 1 ms … 1 s), else none
}

// linearScale runs from 0 to a round number at or above max, with four
// to seven ticks 1, 2 or 5 × 10ⁿ apart.
func linearScale(max float64) scale {
	if max <= 0 || math.IsNaN(max) || math.IsInf(max, 0) {
		max = 1
	}
	raw := max / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	n := int(math.Ceil(max/step - 1e-9))
	s := scale{lo: 0, hi: float64(n) * step}
	for i := 0; i <= n; i++ {
		s.ticks = append(s.ticks, float64(i)*step)
	}
	return s
}

// logScale spans whole decades around [min, max] (both positive), one
// tick per decade: latencies from a few ms to tens of seconds share a
// chart.
func logScale(min, max float64, unit string) scale {
	if !(min > 0) || !(max >= min) || math.IsInf(max, 0) {
		min, max = 1, 10 // nothing to show: one decade
	}
	lo := math.Floor(math.Log10(min))
	hi := math.Ceil(math.Log10(max))
	if hi <= lo {
		hi = lo + 1
	}
	s := scale{log: true, lo: math.Pow(10, lo), hi: math.Pow(10, hi), unit: unit}
	for e := lo; e <= hi; e++ {
		s.ticks = append(s.ticks, math.Pow(10, e))
	}
	return s
}

// frac is v's position on the axis, 0 to 1. On a log scale a value at or
// below 0 sits at the bottom (callers leave such values out).
func (s scale) frac(v float64) float64 {
	if s.log {
		if v <= 0 {
			return 0
		}
		return (math.Log10(v) - math.Log10(s.lo)) / (math.Log10(s.hi) - math.Log10(s.lo))
	}
	return (v - s.lo) / (s.hi - s.lo)
}

// label is a tick's or a value's text.
func (s scale) label(v float64) string {
	if s.unit == "ms" {
		return millis(v)
	}
	return grouped(v)
}

// millis writes a latency given in ms: "0.5 ms", "39 ms", "2.2 s".
func millis(v float64) string {
	switch {
	case v >= 1000:
		return short(v/1000) + " s"
	default:
		return short(v) + " ms"
	}
}

// short keeps three significant digits at most: 0.35, 12.5, 337.
func short(v float64) string {
	switch {
	case v >= 100:
		return grouped(math.Round(v))
	case v >= 10:
		return num(math.Round(v*10) / 10)
	default:
		return num(v)
	}
}

// grouped writes v rounded to an integer with thousands separated by
// commas ("2,921"), or with its decimals when below 10.
func grouped(v float64) string {
	if math.Abs(v) < 10 {
		return num(v)
	}
	digits := strconv.FormatInt(int64(math.Round(math.Abs(v))), 10)
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
