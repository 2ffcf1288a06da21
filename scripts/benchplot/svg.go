package main

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

// Fonts and colours shared by every chart. The palette is fixed and
// ordered, so a series keeps its colour from one generation to the next.
const (
	fontFamily = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif"
	inkColour  = "#24292f"
	mutedInk   = "#57606a"
	gridColour = "#d0d7de"
	voidColour = "#cf222e"
)

var palette = []string{"#0969da", "#bf8700", "#8250df", "#1a7f37", "#cf222e", "#57606a"}

// colour is series i's colour.
func colour(i int) string { return palette[i%len(palette)] }

// svgDoc builds one SVG document by hand. Every number goes through num,
// so the same input always gives the same bytes.
type svgDoc struct {
	b strings.Builder
}

// newSVG starts a document of the given size with a white background.
func newSVG(width, height float64) *svgDoc {
	d := &svgDoc{}
	d.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s" fill="%s">`+"\n",
		num(width), num(height), num(width), num(height), attr(fontFamily), inkColour)
	d.printf(`<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", num(width), num(height))
	return d
}

// printf writes a formatted fragment. Its arguments are strings: numbers
// are formatted by num before they get here.
func (d *svgDoc) printf(format string, args ...any) {
	fmt.Fprintf(&d.b, format, args...)
}

// raw writes s as is.
func (d *svgDoc) raw(s string) { d.b.WriteString(s) }

// line draws a line; dashed lines are for grids.
func (d *svgDoc) line(x1, y1, x2, y2 float64, stroke string, dashed bool) {
	dash := ""
	if dashed {
		dash = ` stroke-dasharray="3 3"`
	}
	d.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1"%s/>`+"\n",
		num(x1), num(y1), num(x2), num(y2), stroke, dash)
}

// text writes txt at (x, y); anchor is start, middle or end, rotate a
// rotation in degrees around (x, y) (0 for none), extra more attributes.
func (d *svgDoc) text(x, y float64, anchor string, size float64, rotate float64, fill, extra, txt string) {
	transform := ""
	if rotate != 0 {
		transform = ` transform="rotate(` + num(rotate) + " " + num(x) + " " + num(y) + `)"`
	}
	if fill == "" {
		fill = inkColour
	}
	if extra != "" {
		extra = " " + extra
	}
	d.printf(`<text x="%s" y="%s" text-anchor="%s" font-size="%s" fill="%s"%s%s>%s</text>`+"\n",
		num(x), num(y), anchor, num(size), fill, transform, extra, escape(txt))
}

// header writes a chart's title and subtitle lines.
func (d *svgDoc) header(title string, subtitle []string) {
	d.text(16, 26, "start", 16, 0, "", `font-weight="600"`, title)
	for i, s := range subtitle {
		d.text(16, 44+float64(i)*15, "start", 11, 0, mutedInk, "", s)
	}
}

// wrap breaks caption lines at spaces so that each fits a chart width
// at the subtitle's font size (about 6 units a character).
func wrap(lines []string, width float64) []string {
	limit := max(40, int((width-32)/6.2))
	var out []string
	for _, l := range lines {
		var cur []string
		n := 0
		for _, w := range strings.Fields(l) {
			wl := len([]rune(w))
			if n > 0 && n+1+wl > limit {
				out = append(out, strings.Join(cur, " "))
				cur, n = nil, 0
			}
			if n > 0 {
				n++
			}
			cur, n = append(cur, w), n+wl
		}
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
		}
	}
	return out
}

// legend writes one swatch and name per series from (x, y) rightwards.
func (d *svgDoc) legend(x, y float64, names []string) {
	for i, n := range names {
		d.printf(`<g class="legend" data-series="%s">`, attr(n))
		d.printf(`<rect x="%s" y="%s" width="10" height="10" fill="%s"/>`, num(x), num(y-9), colour(i))
		d.b.WriteString("\n")
		d.text(x+14, y, "start", 11, 0, "", "", n)
		d.raw("</g>\n")
		x += 28 + 6.5*float64(len([]rune(n)))
	}
}

// bytes closes the document and returns it.
func (d *svgDoc) bytes() []byte {
	d.b.WriteString("</svg>\n")
	return []byte(d.b.String())
}

// num formats v with at most two decimals, without trailing zeros, and
// never as "-0".
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// escape escapes text content for XML.
func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}

// attr escapes an attribute value (EscapeText also escapes quotes).
func attr(s string) string { return escape(s) }
