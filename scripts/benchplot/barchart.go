package main

import "math"

// value is one plotted number; ok is false where there is none (not
// measured, or void).
type value struct {
	v  float64
	ok bool
}

// barGroup is one scenario of a bar chart: a value per series.
type barGroup struct {
	name   string
	void   bool
	values []value
}

// barChart is a grouped bar chart: one group of bars per scenario, one
// bar per series, on a linear or a log scale. Unit "ms" labels values as
// latencies.
type barChart struct {
	title    string
	subtitle []string
	yLabel   string
	unit     string
	log      bool
	series   []string
	groups   []barGroup
}

// Bar chart geometry, in SVG user units.
const (
	barWidth    = 12
	barGroupGap = 20
	barPlotH    = 260
	barLeft     = 76
	barRight    = 24
	barHeadroom = 44  // above the highest tick, for the values written above bars
	barBottom   = 170 // below the axis, for the rotated scenario names
)

// svg draws the chart.
func (c barChart) svg() []byte {
	groupW := float64(len(c.series)*barWidth + barGroupGap)
	width := math.Max(760, barLeft+barRight+float64(len(c.groups))*groupW)
	subtitle := wrap(c.subtitle, width)
	top := 44 + 15*float64(len(subtitle)) + 8 // below the header
	legendY := top + 4
	plotTop := top + barHeadroom
	plotBottom := plotTop + barPlotH
	height := plotBottom + barBottom

	d := newSVG(width, height)
	d.header(c.title, subtitle)
	d.legend(barLeft, legendY, c.series)

	sc := c.scale()
	y := func(v float64) float64 { return plotBottom - sc.frac(v)*barPlotH }
	for _, t := range sc.ticks {
		d.line(barLeft, y(t), width-barRight, y(t), gridColour, t != sc.lo)
		d.text(barLeft-6, y(t)+4, "end", 10, 0, mutedInk, "", sc.label(t))
	}
	d.line(barLeft, plotTop, barLeft, plotBottom, mutedInk, false)
	d.text(18, (plotTop+plotBottom)/2, "middle", 11, -90, mutedInk, "", c.yLabel)

	for g, grp := range c.groups {
		x0 := barLeft + float64(g)*groupW + barGroupGap/2
		d.printf(`<g class="scenario" data-scenario="%s">`+"\n", attr(grp.name))
		for i, v := range grp.values {
			if !v.ok {
				continue
			}
			x := x0 + float64(i*barWidth)
			top := y(v.v)
			d.printf(`<rect class="bar" data-series="%s" data-value="%s" x="%s" y="%s" width="%s" height="%s" fill="%s">`,
				attr(c.series[i]), num(v.v), num(x+1), num(top), num(barWidth-2), num(plotBottom-top), colour(i))
			d.printf(`<title>%s</title></rect>`+"\n", escape(grp.name+" "+c.series[i]+": "+sc.label(v.v)))
			d.text(x+barWidth/2+3, top-3, "start", 9, -90, mutedInk, "", sc.label(v.v))
		}
		name, fill := grp.name, ""
		if grp.void {
			name, fill = name+" (void)", voidColour
		}
		cx := x0 + float64(len(c.series)*barWidth)/2
		d.text(cx, plotBottom+14, "end", 11, -35, fill, "", name)
		d.raw("</g>\n")
	}
	return d.bytes()
}

// scale fits the chart's values: from 0 on a linear scale, whole decades
// on a log scale.
func (c barChart) scale() scale {
	lo, hi := math.Inf(1), 0.0
	for _, g := range c.groups {
		for _, v := range g.values {
			if v.ok && v.v > 0 {
				lo, hi = math.Min(lo, v.v), math.Max(hi, v.v)
			}
		}
	}
	if c.log {
		return logScale(lo, hi, c.unit)
	}
	return linearScale(hi)
}
