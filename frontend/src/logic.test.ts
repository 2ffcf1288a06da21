import { describe, expect, it } from 'vitest'
import { FormError, fromEndpoint, parseEventTypes, parseHeaders, toEndpointBody, emptyEndpointForm } from './endpointForm'
import { firstPage, nextTrail, prevTrail } from './paging'
import { bulkReplayBody, jobProgress } from './replayJob'
import { failingEndpoints, hourlyBuckets, successRate } from './stats'
import type { Endpoint } from './types'

const H = 3600_000

describe('paging trail', () => {
  it('goes forward with next_cursor and back through seen pages', () => {
    const t1 = nextTrail(firstPage, 'c1')
    const t2 = nextTrail(t1, 'c2')
    expect(t2).toEqual({ previous: ['', 'c1'], current: 'c2' })
    expect(prevTrail(t2)).toEqual(t1)
    expect(prevTrail(prevTrail(t1))).toEqual(firstPage)
  })
})

describe('endpoint form', () => {
  it('parses event types and headers', () => {
    expect(parseEventTypes(' invoice.paid, user.created\ninvoice.paid ')).toEqual(['invoice.paid', 'user.created'])
    expect(parseHeaders('X-Team: billing\n\nAuthorization: Bearer a:b')).toEqual({ 'X-Team': 'billing', Authorization: 'Bearer a:b' })
    expect(() => parseHeaders('no colon here')).toThrow(FormError)
  })
  it('builds the API body and round-trips an endpoint', () => {
    const body = toEndpointBody({ ...emptyEndpointForm, url: ' https://x.test/h ', eventTypes: 'a.b', rateLimit: '5' })
    expect(body).toEqual({ url: 'https://x.test/h', description: '', event_types: ['a.b'], timeout_seconds: 10, rate_limit_per_second: 5, max_in_flight: 16, headers: {} })
    expect(() => toEndpointBody({ ...emptyEndpointForm, timeoutSeconds: '2.5' })).toThrow(/whole number/)
    const ep = { url: 'https://x.test/h', description: 'd', event_types: ['a.b'], timeout_seconds: 5, rate_limit_per_second: null, max_in_flight: 1, headers: { 'X-A': '1' } } as unknown as Endpoint
    expect(toEndpointBody(fromEndpoint(ep))).toMatchObject({ url: ep.url, event_types: ['a.b'], timeout_seconds: 5, rate_limit_per_second: null, max_in_flight: 1, headers: { 'X-A': '1' } })
  })
  it('builds a queue endpoint without a URL', () => {
    const body = toEndpointBody({ ...emptyEndpointForm, kind: 'queue', url: 'ignored', maxInFlight: '1' })
    expect(body).toMatchObject({ kind: 'queue', max_in_flight: 1 })
    expect(body).not.toHaveProperty('url')
    const ep = { kind: 'queue', url: '', event_types: [], max_in_flight: 1, headers: {} } as unknown as Endpoint
    expect(toEndpointBody(fromEndpoint(ep))).not.toHaveProperty('url')
  })
})

describe('dashboard stats', () => {
  const now = Date.UTC(2026, 10, 22, 12, 30)
  const at = (hoursAgo: number) => new Date(now - hoursAgo * H).toISOString()
  it('buckets attempts per hour and ignores those outside the window', () => {
    const b = hourlyBuckets([
      { started_at: at(0), outcome: 'success' },
      { started_at: at(0.2), outcome: 'retry' },
      { started_at: at(5), outcome: 'success' },
      { started_at: at(30), outcome: 'success' },
    ], 24, now)
    expect(b).toHaveLength(24)
    expect(b[23]).toMatchObject({ succeeded: 1, failed: 1 })
    expect(b[18]).toMatchObject({ succeeded: 1, failed: 0 })
    expect(b.reduce((s, x) => s + x.succeeded + x.failed, 0)).toBe(3)
  })
  it('computes the success rate and ranks failing endpoints', () => {
    expect(successRate([])).toBeNaN()
    expect(successRate([{ outcome: 'success' }, { outcome: 'dropped' }])).toBe(0.5)
    const ep = (id: string, extra: Partial<Endpoint> = {}) => ({ id, url: id, enabled: true, failing_since: null, ...extra }) as Endpoint
    const res = failingEndpoints([ep('ok'), ep('bad'), ep('half'), ep('off', { enabled: false, disabled_reason: 'failing for 5 days' })], {
      ok: [{ started_at: at(1), outcome: 'success', response_status: 200, error_message: '' }],
      bad: [{ started_at: at(1), outcome: 'retry', response_status: 500, error_message: '' }],
      half: [
        { started_at: at(1), outcome: 'retry', response_status: 503, error_message: '' },
        { started_at: at(2), outcome: 'success', response_status: 200, error_message: '' },
      ],
    })
    expect(res.map((h) => h.endpoint.id)).toEqual(['bad', 'half', 'off'])
    expect(res[0].lastFailure?.response_status).toBe(500)
  })
})

describe('replay jobs', () => {
  it('reads state and counters', () => {
    expect(jobProgress({ state: 'running', total: 10, done: 4 })).toEqual({ state: 'running', done: 4, total: 10, finished: false })
    expect(jobProgress({ state: 'queued', total: 0, done: 0 }).finished).toBe(false)
    for (const state of ['completed', 'cancelled', 'failed'] as const) expect(jobProgress({ state, total: 5, done: 3 }).finished).toBe(true)
    expect(jobProgress({ state: 'completed', total: 2, done: 3 }).total).toBe(3)
  })
  it('builds the bulk replay body without empty fields', () => {
    expect(bulkReplayBody({ endpointId: 'e1', eventType: ' ', since: '', until: '2026-11-22T00:00:00.000Z', status: 'exhausted' }))
      .toEqual({ endpoint_id: 'e1', until: '2026-11-22T00:00:00.000Z', status: 'exhausted' })
    expect(bulkReplayBody({ endpointId: '', eventType: '', since: '', until: '', status: '', reason: ' ticket 1 ' })).toEqual({ reason: 'ticket 1' })
  })
})
