// Dashboard.tsx: deliveries per hour, success rate, answer time, backlog
// and the endpoints that need attention, from GET /stats (computed in the
// database from hourly rollups) over 1 h, 24 h or 7 d.
import { useEffect, useState } from 'react'
import { api, query, type Page } from '../api'
import { DeliveryChart } from '../Chart'
import { Badge, Empty, ErrorMessage, Loading } from '../components'
import { formatAge, formatCount, formatDuration, formatPercent, relativeTime } from '../format'
import { Link } from '../router'
import { chartBuckets, healthSummary, linesById, rateOf, statsWindows, troubledEndpoints, type StatsWindow } from '../stats'
import type { Endpoint, TenantStats } from '../types'
import { endpointName } from '../endpointName'

interface Figures {
  endpoints: Endpoint[]
  stats: TenantStats
}

async function loadFigures(win: StatsWindow): Promise<Figures> {
  const [eps, stats] = await Promise.all([
    api.get<Page<Endpoint>>('/endpoints' + query({ limit: 200 })),
    api.get<TenantStats>('/stats' + query({ window: win })),
  ])
  return { endpoints: eps.data, stats }
}

/** WindowPicker switches between the stats windows. */
export function WindowPicker({ value, onChange }: { value: StatsWindow; onChange: (w: StatsWindow) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Time window">
      {statsWindows.map((w) => (
        <button key={w.value} type="button" aria-pressed={value === w.value} onClick={() => onChange(w.value)}>{w.label}</button>
      ))}
    </div>
  )
}

export function DashboardPage() {
  const [win, setWin] = useState<StatsWindow>('24h')
  const [fig, setFig] = useState<Figures | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let live = true
    loadFigures(win).then((f) => live && (setFig(f), setError(null))).catch((e) => live && setError(e))
    return () => { live = false }
  }, [tick, win])
  const label = statsWindows.find((w) => w.value === win)?.label ?? win
  const st = fig?.stats
  const lines = linesById(st?.endpoints)
  const troubled = fig ? troubledEndpoints(fig.endpoints, lines) : []
  const summary = fig ? healthSummary(fig.endpoints.length, troubled.length) : null
  const finished = st ? st.succeeded + st.failed : 0
  return (
    <section>
      <div className="page-head">
        <h1>Dashboard</h1>
        <WindowPicker value={win} onChange={setWin} />
        <button type="button" className="btn" onClick={() => setTick((n) => n + 1)}>Refresh</button>
      </div>
      <ErrorMessage error={error} title="Could not load the dashboard" />
      {!fig && !error && <Loading />}
      {fig && fig.endpoints.length === 0 && (
        <Empty title="No endpoints yet">
          Ferry delivers your events to endpoints. <Link href="/endpoints">Add your first endpoint</Link>, then{' '}
          <Link href="/api-keys">create an API key</Link> and send events with <code>POST /api/v1/events</code>.
        </Empty>
      )}
      {fig && st && fig.endpoints.length > 0 && (
        <>
          <div className="stats" aria-label={`Last ${label}`}>
            <div className="stat">
              <span className="stat-label">Deliveries ({label})</span>
              <span className="stat-value" data-testid="stat-deliveries">{formatCount(finished)}</span>
              <small className="muted">{formatCount(st.failed)} failed for good</small>
            </div>
            <div className="stat">
              <span className="stat-label">Success rate ({label})</span>
              <span className="stat-value" data-testid="stat-success">{formatPercent(rateOf(st.success_rate))}</span>
              <small className="muted">{finished === 0 ? 'no delivery has finished yet' : 'of deliveries finished'}</small>
            </div>
            <div className="stat">
              <span className="stat-label">Answer time p95</span>
              <span className="stat-value" data-testid="stat-p95">{st.response_ms.p95 == null ? '—' : formatDuration(st.response_ms.p95)}</span>
              <small className="muted">p50 {st.response_ms.p50 == null ? '—' : formatDuration(st.response_ms.p50)}</small>
            </div>
            <div className="stat">
              <span className="stat-label">Backlog now</span>
              <span className="stat-value" data-testid="stat-backlog">{formatCount(st.backlog.pending + st.backlog.retrying)}</span>
              <small className="muted">{formatCount(st.backlog.retrying)} retrying · oldest {formatAge(st.backlog.oldest_age_seconds)}</small>
            </div>
            <div className="stat">
              <span className="stat-label">Attempts ({label})</span>
              <span className="stat-value" data-testid="stat-attempts">{formatCount(st.attempts)}</span>
              <small className="muted">{formatCount(st.attempts_failed)} failed</small>
            </div>
          </div>
          {fig.endpoints.length > 0 && (
            <div className="card">
              <h2>Deliveries per hour</h2>
              {finished === 0 ? (
                <Empty title={`No deliveries finished in the last ${label}`}>
                  {st.backlog.pending + st.backlog.retrying > 0
                    ? <>{formatCount(st.backlog.pending + st.backlog.retrying)} deliveries are waiting.</>
                    : <>Send a test event from an <Link href="/endpoints">endpoint</Link> to see it here.</>}
                </Empty>
              ) : (
                <DeliveryChart buckets={chartBuckets(st.series)} title={`Deliveries per hour over the last ${label}`} />
              )}
            </div>
          )}
          {fig.endpoints.length > 0 && (
            <div className="card">
              <h2>Endpoints needing attention</h2>
              {summary && troubled.length === 0 && <p className="muted">{summary}</p>}
              {troubled.length > 0 && (
                <div className="table-wrap">
                  <table className="stack">
                    <thead><tr><th>Endpoint</th><th>Health</th><th>Success rate ({label})</th><th>Last success</th><th>Next retry</th></tr></thead>
                    <tbody>
                      {troubled.map(({ endpoint: ep, health: h }) => (
                        <tr key={ep.id}>
                          <td data-label="Endpoint"><Link className="break" href={`/endpoints/${ep.id}`}>{endpointName(ep)}</Link></td>
                          <td data-label="Health">
                            <Badge status={h.state} />
                            {h.failingSince && <div className="muted">failing since {relativeTime(h.failingSince)}</div>}
                            {ep.disabled_reason && <div className="muted">{ep.disabled_reason}</div>}
                          </td>
                          <td data-label={`Success (${label})`}>{formatPercent(h.rate)}</td>
                          <td data-label="Last success">{relativeTime(h.lastSuccessAt)}</td>
                          <td data-label="Next retry">{relativeTime(h.nextRetryAt)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </div>
          )}
        </>
      )}
    </section>
  )
}
