// Chart.tsx draws deliveries per hour as a stacked SVG bar chart
// (succeeded over failed), with a data table for screen readers. It is
// drawn at the width it is given, in pixels, so its text keeps its size
// at any screen width instead of being stretched or shrunk.
import { useEffect, useRef, useState } from 'react'
import type { HourBucket } from './stats'

/** niceMax rounds a maximum up to 1, 2 or 5 × 10^n so the axis reads well. */
export function niceMax(v: number): number {
  if (v <= 0) return 1
  const p = Math.pow(10, Math.floor(Math.log10(v)))
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p
  return 10 * p
}

/** labelEvery returns how many bars apart hour labels go so that each gets about 64 px. */
export function labelEvery(plotWidth: number, bars: number): number {
  const fit = Math.max(1, Math.floor(plotWidth / 64))
  return Math.max(1, Math.ceil(bars / fit))
}

/** hourLabel is the axis text for an hour, short ("3 PM", "15"), with the weekday when the chart spans days. */
export function hourLabel(ms: number, withDay = false): string {
  const d = new Date(ms)
  const time = d.toLocaleTimeString(undefined, { hour: 'numeric' })
  return withDay ? `${d.toLocaleDateString(undefined, { weekday: 'short' })} ${time}` : time
}

/** labelX places an axis label centred on its bar but inside [left, right]. */
export function labelX(centre: number, text: string, left: number, right: number): { x: number; anchor: 'start' | 'middle' | 'end' } {
  const half = text.length * 3.2 // 11 px text
  if (centre + half > right) return { x: right, anchor: 'end' }
  if (centre - half < left) return { x: left, anchor: 'start' }
  return { x: centre, anchor: 'middle' }
}

/** useWidth tracks an element's width in pixels (fallback until measured). */
function useWidth(fallback: number): [React.RefObject<HTMLElement | null>, number] {
  const ref = useRef<HTMLElement | null>(null)
  const [width, setWidth] = useState(fallback)
  useEffect(() => {
    const el = ref.current
    if (!el || typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver((entries) => {
      const w = Math.round(entries[0]?.contentRect.width ?? 0)
      if (w > 0) setWidth(w)
    })
    ro.observe(el)
    return () => ro.disconnect()
  }, [])
  return [ref, width]
}

/** DeliveryChart renders buckets as bars at the container's width. */
export function DeliveryChart({ buckets, title }: { buckets: HourBucket[]; title: string }) {
  const [ref, measured] = useWidth(720)
  const W = Math.max(260, measured)
  const H = 220
  const pad = { l: 40, r: 8, t: 10, b: 28 }
  const max = niceMax(Math.max(0, ...buckets.map((b) => b.succeeded + b.failed)))
  const iw = W - pad.l - pad.r
  const ih = H - pad.t - pad.b
  const bw = iw / Math.max(1, buckets.length)
  const y = (v: number) => pad.t + ih - (v / max) * ih
  const ticks = Number.isInteger(max / 2) ? [0, max / 2, max] : [0, max]
  const spansDays = buckets.length > 48
  const every = labelEvery(iw, buckets.length) * (spansDays ? 2 : 1)
  const axisLabel = (b: HourBucket, centre: number) => {
    const text = hourLabel(b.start, spansDays)
    const { x, anchor } = labelX(centre, text, 0, W - pad.r)
    return <text x={x} y={H - 8} textAnchor={anchor} className="chart-axis">{text}</text>
  }
  const total = buckets.reduce((n, b) => n + b.succeeded + b.failed, 0)
  const failed = buckets.reduce((n, b) => n + b.failed, 0)
  return (
    <figure className="chart" ref={ref as React.RefObject<HTMLElement>}>
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}: ${total} deliveries, ${failed} failed`}>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={pad.l} x2={W - pad.r} y1={y(t)} y2={y(t)} className="chart-grid" />
            <text x={pad.l - 6} y={y(t) + 4} textAnchor="end" className="chart-axis">
              {Number.isInteger(t) ? t : t.toFixed(1)}
            </text>
          </g>
        ))}
        {buckets.map((b, i) => {
          const x = pad.l + i * bw + bw * 0.15
          const w = Math.max(1, bw * 0.7)
          const ys = y(b.succeeded)
          const yf = y(b.succeeded + b.failed)
          const label = (buckets.length - 1 - i) % every === 0
          return (
            <g key={b.start}>
              <title>{`${hourLabel(b.start, spansDays)}: ${b.succeeded} succeeded, ${b.failed} failed`}</title>
              <rect x={x} y={ys} width={w} height={pad.t + ih - ys} className="bar-ok" data-testid="bar-ok" />
              <rect x={x} y={yf} width={w} height={ys - yf} className="bar-bad" />
              {label && axisLabel(b, x + w / 2)}
            </g>
          )
        })}
      </svg>
      <figcaption className="legend">
        <span><i className="swatch bar-ok" aria-hidden="true" /> succeeded</span>
        <span><i className="swatch bar-bad" aria-hidden="true" /> failed</span>
      </figcaption>
      <div className="visually-hidden">
      <table>
        <caption>{title}</caption>
        <thead>
          <tr><th>Hour</th><th>Succeeded</th><th>Failed</th></tr>
        </thead>
        <tbody>
          {buckets.map((b) => (
            <tr key={b.start}><td>{hourLabel(b.start, spansDays)}</td><td>{b.succeeded}</td><td>{b.failed}</td></tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  )
}
