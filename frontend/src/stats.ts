// stats.ts computes the dashboard's figures client-side from attempt logs.
import type { Attempt, Endpoint } from './types'

/** HourBucket counts attempts that started within one hour. */
export interface HourBucket {
  /** start of the hour, epoch ms */
  start: number
  succeeded: number
  failed: number
}

/** isSuccess reports whether an attempt succeeded (2xx within the timeout). */
export function isSuccess(a: Pick<Attempt, 'outcome'>): boolean {
  return a.outcome === 'success'
}

/**
 * hourlyBuckets returns `hours` consecutive buckets ending with the hour
 * that contains `now`, counting each attempt in the hour it started.
 * Attempts outside the window are ignored.
 */
export function hourlyBuckets(attempts: Pick<Attempt, 'started_at' | 'outcome'>[], hours: number, now: number): HourBucket[] {
  const hour = 3600_000
  const last = Math.floor(now / hour) * hour
  const first = last - (hours - 1) * hour
  const buckets: HourBucket[] = []
  for (let i = 0; i < hours; i++) buckets.push({ start: first + i * hour, succeeded: 0, failed: 0 })
  for (const a of attempts) {
    const t = new Date(a.started_at).getTime()
    if (Number.isNaN(t) || t < first || t >= last + hour) continue
    const b = buckets[Math.floor((t - first) / hour)]
    if (isSuccess(a)) b.succeeded++
    else b.failed++
  }
  return buckets
}

/** successRate is succeeded / all attempts, or NaN when there are none. */
export function successRate(attempts: Pick<Attempt, 'outcome'>[]): number {
  if (attempts.length === 0) return NaN
  return attempts.filter(isSuccess).length / attempts.length
}

/** EndpointHealth summarises one endpoint's recent attempts. */
export interface EndpointHealth {
  endpoint: Endpoint
  attempts: number
  failures: number
  lastFailure?: Pick<Attempt, 'started_at' | 'response_status' | 'error_message'>
  rate: number
}

/**
 * failingEndpoints returns endpoints whose most recent attempt failed, or
 * that are disabled or marked failing by Ferry, worst success rate first.
 */
export function failingEndpoints(
  endpoints: Endpoint[],
  attemptsByEndpoint: Record<string, Pick<Attempt, 'started_at' | 'outcome' | 'response_status' | 'error_message'>[]>,
): EndpointHealth[] {
  const out: EndpointHealth[] = []
  for (const ep of endpoints) {
    const list = [...(attemptsByEndpoint[ep.id] ?? [])].sort(
      (a, b) => new Date(b.started_at).getTime() - new Date(a.started_at).getTime(),
    )
    const failures = list.filter((a) => !isSuccess(a))
    const latestFailed = list.length > 0 && !isSuccess(list[0])
    if (latestFailed || ep.failing_since || (!ep.enabled && ep.disabled_reason)) {
      out.push({
        endpoint: ep,
        attempts: list.length,
        failures: failures.length,
        lastFailure: failures[0],
        rate: successRate(list),
      })
    }
  }
  return out.sort((a, b) => (Number.isNaN(a.rate) ? 1 : a.rate) - (Number.isNaN(b.rate) ? 1 : b.rate))
}
