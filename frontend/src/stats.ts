// stats.ts turns the server's stats (GET /stats, GET /endpoints/{id}/stats,
// computed from hourly rollups in the database) into what the dashboard
// and endpoint pages show.
import { formatCount, formatPercent } from './format'
import type { Endpoint, EndpointStatsLine, Stats } from './types'

/** StatsWindow is a window the stats routes accept. */
export type StatsWindow = '1h' | '24h' | '7d'

export const statsWindows: { value: StatsWindow; label: string }[] = [
  { value: '1h', label: '1 h' },
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 d' },
]

/** HourBucket is one hour of the chart: deliveries finished in it. */
export interface HourBucket {
  /** start of the hour, epoch ms */
  start: number
  succeeded: number
  failed: number
}

/** chartBuckets turns a stats series into chart buckets. */
export function chartBuckets(series: Stats['series']): HourBucket[] {
  return (series ?? []).map((p) => ({ start: new Date(p.hour).getTime(), succeeded: p.succeeded, failed: p.failed }))
}

/** rateOf reads a success_rate (null when nothing finished) as a number, NaN for none. */
export function rateOf(r: number | null | undefined): number {
  return r === null || r === undefined ? NaN : r
}

/** HealthState is what the portal says about an endpoint instead of a bare "enabled". */
export type HealthState = 'healthy' | 'failing' | 'degraded' | 'disabled' | 'idle'

/** Health is one endpoint's state with the figures behind it. */
export interface Health {
  state: HealthState
  /** success rate of finished deliveries in the window, NaN when none finished */
  rate: number
  lastSuccessAt: string | null
  failingSince: string | null
  nextRetryAt: string | null
  pending: number
  retrying: number
}

/**
 * endpointHealth decides an endpoint's state: disabled; failing when Ferry
 * marked it failing (every attempt failed since failing_since) or nothing
 * it finished in the window succeeded; degraded when some deliveries
 * failed; idle when nothing finished in the window; healthy otherwise.
 */
export function endpointHealth(
  ep: Pick<Endpoint, 'enabled' | 'failing_since'>,
  line?: Pick<EndpointStatsLine, 'success_rate' | 'last_success_at' | 'next_retry_at' | 'pending' | 'retrying'> | null,
): Health {
  const rate = rateOf(line?.success_rate)
  const h: Health = {
    state: 'healthy',
    rate,
    lastSuccessAt: line?.last_success_at ?? null,
    failingSince: ep.failing_since ?? null,
    nextRetryAt: line?.next_retry_at ?? null,
    pending: line?.pending ?? 0,
    retrying: line?.retrying ?? 0,
  }
  if (!ep.enabled) h.state = 'disabled'
  else if (ep.failing_since || rate === 0) h.state = 'failing'
  else if (rate < 1) h.state = 'degraded'
  else if (Number.isNaN(rate)) h.state = h.retrying > 0 ? 'failing' : 'idle'
  return h
}

/** linesById indexes the tenant stats' endpoint lines. */
export function linesById(lines: EndpointStatsLine[] | null | undefined): Record<string, EndpointStatsLine> {
  const out: Record<string, EndpointStatsLine> = {}
  for (const l of lines ?? []) out[l.endpoint_id] = l
  return out
}

/** EndpointHealth pairs an endpoint with its health, for the dashboard's list. */
export interface EndpointHealth {
  endpoint: Endpoint
  health: Health
}

/** troubledEndpoints lists endpoints that are failing, degraded or disabled, worst first. */
export function troubledEndpoints(endpoints: Endpoint[], lines: Record<string, EndpointStatsLine>): EndpointHealth[] {
  const rank: Record<HealthState, number> = { failing: 0, disabled: 1, degraded: 2, idle: 3, healthy: 4 }
  return endpoints
    .map((endpoint) => ({ endpoint, health: endpointHealth(endpoint, lines[endpoint.id]) }))
    .filter((h) => h.health.state === 'failing' || h.health.state === 'degraded' || h.health.state === 'disabled')
    .sort((a, b) => rank[a.health.state] - rank[b.health.state] || rateOf(a.health.rate) - rateOf(b.health.rate))
}

/** healthSummary is the dashboard's one-line verdict, or null when there is nothing to judge. */
export function healthSummary(endpointCount: number, troubled: number): string | null {
  if (endpointCount === 0) return null
  if (troubled === 0) return endpointCount === 1 ? 'Your endpoint is healthy.' : `All ${endpointCount} endpoints are healthy.`
  return `${troubled} of ${endpointCount} endpoints need attention.`
}

/** DeliveryCounts are the figures deliveriesText reads: finished in the window, and waiting now. */
export interface DeliveryCounts {
  succeeded: number
  failed: number
  pending: number
  retrying: number
}

/** waitingText says what is still under way ("3 retrying, 1 pending"), or "" when nothing is. */
export function waitingText({ pending, retrying }: Pick<DeliveryCounts, 'pending' | 'retrying'>): string {
  const parts: string[] = []
  if (retrying > 0) parts.push(`${formatCount(retrying)} retrying`)
  if (pending > 0) parts.push(`${formatCount(pending)} pending`)
  return parts.join(', ')
}

/**
 * deliveriesText says how an endpoint's deliveries went: the finished
 * ones with their success rate, then what is still retrying or pending.
 * With nothing finished there is no rate to give, so it says so (and
 * what is waiting) rather than showing a rate of "—".
 */
export function deliveriesText(c: DeliveryCounts): string {
  const finished = c.succeeded + c.failed
  const waiting = waitingText(c)
  if (finished === 0) return waiting ? `No delivery has finished yet; ${waiting}.` : 'No delivery has finished yet.'
  const done = `${formatCount(c.succeeded)} succeeded, ${formatCount(c.failed)} failed for good (${formatPercent(c.succeeded / finished)} succeeded)`
  return waiting ? `${done}; ${waiting}.` : `${done}.`
}
