// Chart.tsx draws deliveries per hour as a stacked SVG bar chart
// (succeeded over failed), with a data table for screen readers.
import type { HourBucket } from './stats'

/** niceMax rounds a maximum up to 1, 2 or 5 × 10^n so the axis reads well. */
export function niceMax(v: number): number {
  if (v <= 0) return 1
  const p = Math.pow(10, Math.floor(Math.log10(v)))
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p
  return 10 * p
}

function hourLabel(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
}

/** DeliveryChart renders buckets as bars; width scales with the container. */
export function DeliveryChart({ buckets, title }: { buckets: HourBucket[]; title: string }) {
  const W = 720
  const H = 220
  const pad = { l: 40, r: 8, t: 10, b: 28 }
  const max = niceMax(Math.max(0, ...buckets.map((b) => b.succeeded + b.failed)))
  const iw = W - pad.l - pad.r
  const ih = H - pad.t - pad.b
  const bw = iw / Math.max(1, buckets.length)
  const y = (v: number) => pad.t + ih - (v / max) * ih
  const ticks = [0, max / 2, max]
  const every = Math.ceil(buckets.length / 8)
  const total = buckets.reduce((n, b) => n + b.succeeded + b.failed, 0)
  const failed = buckets.reduce((n, b) => n + b.failed, 0)
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}: ${total} attempts, ${failed} failed`} preserveAspectRatio="none">
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
          const w = bw * 0.7
          const ys = y(b.succeeded)
          const yf = y(b.succeeded + b.failed)
          return (
            <g key={b.start}>
              <title>{`${hourLabel(b.start)}: ${b.succeeded} succeeded, ${b.failed} failed`}</title>
              <rect x={x} y={ys} width={w} height={pad.t + ih - ys} className="bar-ok" data-testid="bar-ok" />
              <rect x={x} y={yf} width={w} height={ys - yf} className="bar-bad" />
              {i % every === 0 && (
                <text x={x + w / 2} y={H - 8} textAnchor="middle" className="chart-axis">
                  {hourLabel(b.start)}
                </text>
              )}
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
            <tr key={b.start}><td>{hourLabel(b.start)}</td><td>{b.succeeded}</td><td>{b.failed}</td></tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  )
}
