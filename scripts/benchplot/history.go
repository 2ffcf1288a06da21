package main

import (
	"math"
	"slices"
	"strings"
)

// historyPanel is one scenario across the runs: values[series][run], and
// which runs had it void.
type historyPanel struct {
	name   string
	values [][]value
	void   []bool
}

// historyChart draws small multiples: one panel per scenario, the runs
// along x (oldest left), one line per series, each panel on its own y
// scale (linear, or log for latencies: unit "ms").
type historyChart struct {
	title    string
	subtitle []string
	unit     string
	series   []string
	runs     []string // labels, oldest first
	panels   []historyPanel
}

// History chart geometry, in SVG user units.
const (
	histCols    = 3
	histPanelW  = 280
	histPanelH  = 140
	histLeft    = 64 // left of each panel, for its tick labels
	histCellW   = histLeft + histPanelW + 24
	histCellH   = histPanelH + 64 // with the panel's title and run labels
	histMarginL = 16
)

// svg draws the chart.
func (c historyChart) svg() []byte {
	cols := min(histCols, max(1, len(c.panels)))
	rows := (len(c.panels) + cols - 1) / cols
	width := math.Max(760, histMarginL*2+float64(cols*histCellW))
	subtitle := wrap(c.subtitle, width)
	top := 44 + 15*float64(len(subtitle)) + 8
	legendY := top + 4
	gridTop := top + 30
	height := gridTop + float64(rows*histCellH) + 8

	d := newSVG(width, height)
	d.header(c.title, subtitle)
	d.legend(histMarginL, legendY, c.series)
	for p, panel := range c.panels {
		ox := histMarginL + float64((p%cols)*histCellW) + histLeft
		oy := gridTop + float64((p/cols)*histCellH) + 26
		c.panel(d, panel, ox, oy)
	}
	return d.bytes()
}

// panel draws one scenario's panel with its plot area's top left corner
// at (ox, oy).
func (c historyChart) panel(d *svgDoc, p historyPanel, ox, oy float64) {
	d.printf(`<g class="scenario" data-scenario="%s">`+"\n", attr(p.name))
	d.text(ox-histLeft+8, oy-14, "start", 12, 0, "", `font-weight="600"`, p.name)
	sc := c.scale(p)
	bottom := oy + histPanelH
	y := func(v float64) float64 { return bottom - sc.frac(v)*histPanelH }
	for _, t := range sc.ticks {
		d.line(ox, y(t), ox+histPanelW, y(t), gridColour, t != sc.lo)
		d.text(ox-5, y(t)+3, "end", 9, 0, mutedInk, "", sc.label(t))
	}
	d.line(ox, oy, ox, bottom, mutedInk, false)

	n := len(c.runs)
	x := func(i int) float64 {
		if n == 1 {
			return ox + histPanelW/2
		}
		return ox + 10 + float64(i)*(histPanelW-20)/float64(n-1)
	}
	for s, vals := range p.values {
		// One path per series, broken where a run has no value.
		var path strings.Builder
		pen := false
		for i, v := range vals {
			if !v.ok {
				pen = false
				continue
			}
			cmd := "L"
			if !pen {
				cmd = "M"
			}
			if path.Len() > 0 {
				path.WriteByte(' ')
			}
			path.WriteString(cmd + num(x(i)) + " " + num(y(v.v)))
			pen = true
		}
		if path.Len() > 0 {
			// Earlier series are drawn wider, so a series that
			// another covers (accepted = delivered) still shows.
			d.printf(`<path class="line" data-series="%s" d="%s" fill="none" stroke="%s" stroke-width="%s"/>`+"\n",
				attr(c.series[s]), path.String(), colour(s), num(1.5+1.5*float64(len(p.values)-1-s)))
		}
		for i, v := range vals {
			if !v.ok {
				continue
			}
			d.printf(`<circle class="point" data-series="%s" data-run="%s" data-value="%s" cx="%s" cy="%s" r="%s" fill="%s">`,
				attr(c.series[s]), attr(c.runs[i]), num(v.v), num(x(i)), num(y(v.v)), num(2.5+1.5*float64(len(p.values)-1-s)), colour(s))
			d.printf(`<title>%s</title></circle>`+"\n", escape(p.name+" "+c.series[s]+", run "+c.runs[i]+": "+sc.label(v.v)))
		}
	}
	if !p.measured() {
		d.text(ox+histPanelW/2, oy+histPanelH/2, "middle", 11, 0, mutedInk, `class="message"`, "not measured in these runs")
	}
	for i, void := range p.void {
		if void {
			d.text(x(i), bottom-4, "middle", 9, 0, voidColour, `class="void" data-run="`+attr(c.runs[i])+`"`, "void")
		}
	}
	// The runs along x: the first and the last by name.
	switch {
	case n == 1:
		d.text(x(0), bottom+14, "middle", 9, 0, mutedInk, "", c.runs[0])
	case n > 1:
		d.text(x(0), bottom+14, "start", 9, 0, mutedInk, "", c.runs[0])
		d.text(x(n-1), bottom+26, "end", 9, 0, mutedInk, "", c.runs[n-1])
	}
	d.raw("</g>\n")
}

// measured reports whether the panel has a value or a void run to show.
func (p historyPanel) measured() bool {
	for _, vals := range p.values {
		for _, v := range vals {
			if v.ok {
				return true
			}
		}
	}
	return slices.Contains(p.void, true)
}

// scale fits one panel's values.
func (c historyChart) scale(p historyPanel) scale {
	lo, hi := math.Inf(1), 0.0
	for _, vals := range p.values {
		for _, v := range vals {
			if v.ok && v.v > 0 {
				lo, hi = math.Min(lo, v.v), math.Max(hi, v.v)
			}
		}
	}
	if c.unit == "ms" {
		return logScale(lo, hi, c.unit)
	}
	return linearScale(hi)
}
