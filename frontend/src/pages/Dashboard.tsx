// Dashboard.tsx: deliveries per hour, success rate and failing endpoints,
// computed in the browser from the endpoints and their attempt logs.
import { useEffect, useState } from 'react'
import { api, query, type Page } from '../api'
import { DeliveryChart } from '../Chart'
import { Empty, ErrorMessage, Loading, Badge } from '../components'
import { formatPercent, relativeTime } from '../format'
import { Link } from '../router'
import { failingEndpoints, hourlyBuckets, isSuccess, successRate, type EndpointHealth, type HourBucket } from '../stats'
import type { Attempt, Endpoint, FerryEvent } from '../types'

interface Figures {
  endpoints: Endpoint[]
  buckets: HourBucket[]
  rate: number
  attempts24h: number
  failures24h: number
  failing: EndpointHealth[]
  latestEvent?: FerryEvent
}

const HOURS = 24

/** loadFigures fetches what the dashboard needs and computes its figures. */
async function loadFigures(now: number): Promise<Figures> {
  const [eps, events] = await Promise.all([
    api.get<Page<Endpoint>>('/endpoints' + query({ limit: 200 })),
    api.get<Page<FerryEvent>>('/events' + query({ limit: 1 })),
  ])
  const since = now - HOURS * 3600_000
  const perEndpoint: Record<string, Attempt[]> = {}
  await Promise.all(
    eps.data.map(async (ep) => {
      // Newest first: follow the cursor until past the window (at most 5 pages).
      const list: Attempt[] = []
      let cursor = ''
      for (let i = 0; i < 5; i++) {
        const page = await api.get<Page<Attempt>>(`/endpoints/${ep.id}/attempts` + query({ limit: 200, cursor }))
        list.push(...page.data)
        const oldest = page.data[page.data.length - 1]
        if (!page.next_cursor || !oldest || new Date(oldest.started_at).getTime() < since) break
        cursor = page.next_cursor
      }
      perEndpoint[ep.id] = list
    }),
  )
  const recent = Object.values(perEndpoint).flat().filter((a) => new Date(a.started_at).getTime() >= since)
  return {
    endpoints: eps.data,
    buckets: hourlyBuckets(recent, HOURS, now),
    rate: successRate(recent),
    attempts24h: recent.length,
    failures24h: recent.filter((a) => !isSuccess(a)).length,
    failing: failingEndpoints(eps.data, perEndpoint),
    latestEvent: events.data[0],
  }
}

export function DashboardPage() {
  const [fig, setFig] = useState<Figures | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let live = true
    loadFigures(Date.now()).then((f) => live && (setFig(f), setError(null))).catch((e) => live && setError(e))
    return () => { live = false }
  }, [tick])
  return (
    <section>
      <div className="page-head">
        <h1>Dashboard</h1>
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
      {fig && (
        <>
          <div className="stats" aria-label="Last 24 hours">
            <div className="stat"><span className="stat-label">Attempts (24 h)</span><span className="stat-value" data-testid="stat-attempts">{fig.attempts24h}</span></div>
            <div className="stat"><span className="stat-label">Success rate (24 h)</span><span className="stat-value" data-testid="stat-rate">{formatPercent(fig.rate)}</span></div>
            <div className="stat"><span className="stat-label">Failed attempts (24 h)</span><span className="stat-value">{fig.failures24h}</span></div>
            <div className="stat"><span className="stat-label">Endpoints</span><span className="stat-value">{fig.endpoints.length}</span></div>
          </div>
          <div className="card">
            <h2>Delivery attempts per hour</h2>
            {fig.attempts24h === 0 ? (
              <Empty title="No deliveries in the last 24 hours">
                {fig.latestEvent ? <>Latest event {relativeTime(fig.latestEvent.created_at)}.</> : <>Send a test event from an <Link href="/endpoints">endpoint</Link> to see it here.</>}
              </Empty>
            ) : (
              <DeliveryChart buckets={fig.buckets} title="Delivery attempts per hour over the last 24 hours" />
            )}
          </div>
          <div className="card">
            <h2>Failing endpoints</h2>
            {fig.failing.length === 0 ? (
              <p className="muted">All endpoints are healthy.</p>
            ) : (
              <div className="table-wrap">
                <table>
                  <thead><tr><th>Endpoint</th><th>State</th><th>Success rate</th><th>Last failure</th></tr></thead>
                  <tbody>
                    {fig.failing.map((h) => (
                      <tr key={h.endpoint.id}>
                        <td><Link href={`/endpoints/${h.endpoint.id}`}>{h.endpoint.url}</Link></td>
                        <td><Badge status={h.endpoint.enabled ? 'failing' : 'disabled'} />{h.endpoint.disabled_reason && <div className="muted">{h.endpoint.disabled_reason}</div>}</td>
                        <td>{formatPercent(h.rate)} of {h.attempts}</td>
                        <td>
                          {h.lastFailure ? (
                            <>{h.lastFailure.response_status ? `HTTP ${h.lastFailure.response_status}` : h.lastFailure.error_message || 'error'} · {relativeTime(h.lastFailure.started_at)}</>
                          ) : '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        </>
      )}
    </section>
  )
}
