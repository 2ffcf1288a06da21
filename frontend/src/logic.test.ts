import { describe, expect, it } from 'vitest'
import { FormError, fromEndpoint, parseEventTypes, parseHeaders, toEndpointBody, toRoutingTestBody, emptyEndpointForm } from './endpointForm'
import { firstPage, nextTrail, prevTrail } from './paging'
import { bulkReplayBody, jobProgress } from './replayJob'
import { chartBuckets, deliveriesText, waitingText, endpointHealth, healthSummary, linesById, rateOf, troubledEndpoints } from './stats'
import { formatAge, formatCount, formatDuration } from './format'
import { auditFiltersFrom, auditQuery } from './pages/StaffAudit'
import { fieldError, sentence } from './components'
import { labelEvery, labelX } from './Chart'
import { attemptsText } from './pages/Events'
import { endpointName, endpointShortName } from './endpointName'
import type { Endpoint, EndpointStatsLine } from './types'

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
    expect(body).toEqual({ url: 'https://x.test/h', format: 'envelope', description: '', event_types: ['a.b'], timeout_seconds: 10, rate_limit_per_second: 5, max_in_flight: 16, headers: {}, signature_timestamp: 'event', filter: '', transformation: '' })
    expect(() => toEndpointBody({ ...emptyEndpointForm, timeoutSeconds: '2.5' })).toThrow(/whole number/)
    expect(toEndpointBody({ ...emptyEndpointForm, filter: ' event.data.amount > 1 \n' }).filter).toBe('event.data.amount > 1')
    const ep = { url: 'https://x.test/h', description: 'd', event_types: ['a.b'], timeout_seconds: 5, rate_limit_per_second: null, max_in_flight: 1, headers: { 'X-A': '1' } } as unknown as Endpoint
    expect(toEndpointBody(fromEndpoint(ep))).toMatchObject({ url: ep.url, event_types: ['a.b'], timeout_seconds: 5, rate_limit_per_second: null, max_in_flight: 1, headers: { 'X-A': '1' } })
  })
  it('builds a queue endpoint without a URL, timeout or rate limit', () => {
    const body = toEndpointBody({ ...emptyEndpointForm, kind: 'queue', url: 'ignored', maxInFlight: '1', timeoutSeconds: 'x', rateLimit: '5' })
    expect(body).toMatchObject({ kind: 'queue', max_in_flight: 1 })
    expect(body).not.toHaveProperty('url')
    expect(body).not.toHaveProperty('timeout_seconds')
    expect(body).not.toHaveProperty('rate_limit_per_second')
    const ep = { kind: 'queue', url: '', event_types: [], max_in_flight: 1, headers: {} } as unknown as Endpoint
    expect(toEndpointBody(fromEndpoint(ep))).not.toHaveProperty('url')
  })
})

describe('routing test panel', () => {
  it('builds the test-routing body and refuses data that is not JSON', () => {
    expect(toRoutingTestBody(' order.created ', '{"amount": 1500}', ' event.data.amount > 1000 ')).toEqual({
      event: { type: 'order.created', data: { amount: 1500 } }, filter: 'event.data.amount > 1000',
    })
    expect(() => toRoutingTestBody('order.created', '{amount', '')).toThrow(FormError)
  })

  it('sends the transformation being edited, keeping its leading lines for error positions', () => {
    const src = '\nfunction handler(w) { return w }\n\n'
    expect(toRoutingTestBody('a.b', '{}', '', src)).toEqual({ event: { type: 'a.b', data: {} }, filter: '', transformation: '\nfunction handler(w) { return w }' })
    expect(toRoutingTestBody('a.b', '{}', '', '  \n ')).toHaveProperty('transformation', '')
    expect(toRoutingTestBody('a.b', '{}', '')).not.toHaveProperty('transformation')
  })
})

describe('transformation field', () => {
  it('round-trips for http endpoints and is left out for queue endpoints', () => {
    const src = 'function handler(w) {\n  return w\n}'
    expect(toEndpointBody({ ...emptyEndpointForm, url: 'https://x.test', transformation: src + '\n\n' }).transformation).toBe(src)
    expect(toEndpointBody({ ...emptyEndpointForm, kind: 'queue', transformation: src })).not.toHaveProperty('transformation')
    const ep = { kind: 'http', url: 'https://x.test', event_types: [], headers: {}, transformation: src } as unknown as Endpoint
    expect(fromEndpoint(ep).transformation).toBe(src)
  })
})

describe('stats from the server', () => {
  const ep = (id: string, extra: Partial<Endpoint> = {}) => ({ id, url: id, enabled: true, failing_since: null, ...extra }) as Endpoint
  const line = (id: string, rate: number | null, extra: Partial<EndpointStatsLine> = {}) =>
    ({ endpoint_id: id, attempts: 1, succeeded: 0, failed: 0, success_rate: rate, last_success_at: null, pending: 0, retrying: 0, next_retry_at: null, ...extra }) as EndpointStatsLine

  it('turns the series into chart buckets', () => {
    expect(chartBuckets([{ hour: '2026-11-22T10:00:00Z', succeeded: 3, failed: 1 }])).toEqual([{ start: Date.UTC(2026, 10, 22, 10), succeeded: 3, failed: 1 }])
    expect(chartBuckets(null as never)).toEqual([])
  })
  it('reads a null success rate as no figure, not as 0 %', () => {
    expect(rateOf(null)).toBeNaN()
    expect(rateOf(0)).toBe(0)
  })
  it('never calls an endpoint failing 100 % healthy or merely enabled', () => {
    expect(endpointHealth(ep('a'), line('a', 0)).state).toBe('failing')
    expect(endpointHealth(ep('a', { failing_since: '2026-11-22T10:00:00Z' }), line('a', null, { retrying: 3 })).state).toBe('failing')
    expect(endpointHealth(ep('a'), line('a', null, { retrying: 2 })).state).toBe('failing')
    expect(endpointHealth(ep('a'), line('a', 0.5)).state).toBe('degraded')
    expect(endpointHealth(ep('a'), line('a', 1)).state).toBe('healthy')
    expect(endpointHealth(ep('a'), undefined).state).toBe('idle')
    expect(endpointHealth(ep('a', { enabled: false }), line('a', 0)).state).toBe('disabled')
    const h = endpointHealth(ep('a', { failing_since: '2026-11-22T10:00:00Z' }), line('a', 0, { last_success_at: '2026-11-21T10:00:00Z', next_retry_at: '2026-11-22T11:00:00Z' }))
    expect([h.failingSince, h.lastSuccessAt, h.nextRetryAt]).toEqual(['2026-11-22T10:00:00Z', '2026-11-21T10:00:00Z', '2026-11-22T11:00:00Z'])
  })
  it('ranks the endpoints needing attention, worst first', () => {
    const eps = [ep('ok'), ep('half'), ep('bad'), ep('off', { enabled: false }), ep('quiet')]
    const lines = linesById([line('ok', 1), line('half', 0.5), line('bad', 0), line('off', null)])
    expect(troubledEndpoints(eps, lines).map((h) => h.endpoint.id)).toEqual(['bad', 'off', 'half'])
  })
  it('says nothing about health when there are no endpoints', () => {
    expect(healthSummary(0, 0)).toBeNull()
    expect(healthSummary(1, 0)).toBe('Your endpoint is healthy.')
    expect(healthSummary(3, 0)).toBe('All 3 endpoints are healthy.')
    expect(healthSummary(3, 2)).toBe('2 of 3 endpoints need attention.')
  })
})

describe('formatting', () => {
  it('shows a latency under a millisecond as "< 1 ms", not "0 ms"', () => {
    expect(formatDuration(0)).toBe('< 1 ms')
    expect(formatDuration(1)).toBe('1 ms')
    expect(formatDuration(1500)).toBe('1.5 s')
  })
  it('writes errors as sentences, once, beside their field', () => {
    expect(sentence('url must use https')).toBe('URL must use https.')
    expect(sentence('timeout_seconds must be between 1 and 30.')).toBe('Timeout_seconds must be between 1 and 30.')
    const err = Object.assign(new Error('url must use https'), { field: 'url' })
    expect(fieldError(err, ['url'])).toBe('URL must use https.')
    expect(fieldError(err, ['description'])).toBeUndefined()
    expect(fieldError(new Error('boom'), ['url'])).toBeUndefined()
  })
  it('counts attempts in words', () => {
    expect(attemptsText(1)).toBe('1 attempt')
    expect(attemptsText(3)).toBe('3 attempts')
  })
  it('spaces chart labels to fit a phone', () => {
    expect(labelEvery(300, 25)).toBe(7) // 4 labels fit in 300 px
    expect(labelEvery(680, 25)).toBe(3)
    expect(labelEvery(680, 2)).toBe(1)
  })
  it('keeps the last axis label inside the chart', () => {
    expect(labelX(350, '3 PM', 0, 352)).toEqual({ x: 352, anchor: 'end' })
    expect(labelX(2, '3 PM', 0, 352)).toEqual({ x: 0, anchor: 'start' })
    expect(labelX(100, '3 PM', 0, 352)).toEqual({ x: 100, anchor: 'middle' })
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
    expect(bulkReplayBody({ endpointId: '', eventType: '', since: '', until: '', status: 'any' })).toEqual({})
  })
  it('reads audit filters from the URL, changes only by default', () => {
    expect(auditFiltersFrom(new URLSearchParams(''))).toEqual({ kind: 'write', tenant_id: '', actor: '', action: '', since: '', until: '' })
    const f = auditFiltersFrom(new URLSearchParams('kind=all&tenant_id=t1&actor=sam'))
    expect(f.kind).toBe('all')
    expect(auditQuery(f)).toEqual({ kind: '', tenant_id: 't1', actor: 'sam', action: '', since: '', until: '' })
    expect(auditQuery(auditFiltersFrom(new URLSearchParams('kind=bogus'))).kind).toBe('write')
  })
  it('formats ages and counts', () => {
    expect(formatAge(0)).toBe('—')
    expect(formatAge(42)).toBe('42 s')
    expect(formatAge(300)).toBe('5 min')
    expect(formatAge(3 * 3600)).toBe('3 h')
    expect(formatAge(2 * 86400)).toBe('2 d')
    expect(formatCount(10000)).toBe('10,000')
  })
})

describe('endpoint names', () => {
  const http = { id: '0a1b2c3d-aaaa', kind: 'http' as const, url: 'https://hooks.acme.test/in/orders?token=[redacted]', description: '' }
  it('names an http endpoint by its URL, or in short by description or host and path', () => {
    expect(endpointName(http)).toBe('https://hooks.acme.test/in/orders?token=[redacted]')
    expect(endpointShortName(http)).toBe('hooks.acme.test/in/orders')
    expect(endpointShortName({ ...http, url: 'https://hooks.acme.test/' })).toBe('hooks.acme.test')
    expect(endpointShortName({ ...http, description: ' Orders ' })).toBe('Orders')
  })
  it('names a queue by its description or "Pull queue" and its short id, never by its empty URL', () => {
    const q = { id: '9f8e7d6c-5b4a-3210', kind: 'queue' as const, url: '', description: '' }
    expect(endpointName(q)).toBe('Pull queue 9f8e7d6c')
    expect(endpointShortName(q)).toBe('Pull queue 9f8e7d6c')
    expect(endpointName({ ...q, description: 'billing worker' })).toBe('billing worker')
    expect(endpointShortName({ ...q, description: 'billing worker' })).toBe('billing worker')
    // The staff console's endpoint refs may lack a description.
    expect(endpointName({ id: q.id, kind: 'queue', url: '' })).toBe('Pull queue 9f8e7d6c')
  })
})

describe('deliveries text', () => {
  const none = { succeeded: 0, failed: 0, pending: 0, retrying: 0 }
  it('says nothing has finished, and what is waiting, instead of a rate of "—"', () => {
    expect(deliveriesText(none)).toBe('No delivery has finished yet.')
    // A failing endpoint whose deliveries are all still being retried.
    expect(deliveriesText({ ...none, retrying: 4 })).toBe('No delivery has finished yet; 4 retrying.')
    expect(deliveriesText({ ...none, retrying: 2, pending: 1 })).toBe('No delivery has finished yet; 2 retrying, 1 pending.')
    for (const c of [none, { ...none, retrying: 4 }]) expect(deliveriesText(c)).not.toMatch(/—|NaN/)
  })
  it('gives the rate of what finished when everything failed', () => {
    expect(deliveriesText({ ...none, failed: 3 })).toBe('0 succeeded, 3 failed for good (0% succeeded).')
    expect(deliveriesText({ ...none, failed: 3, retrying: 1 })).toBe('0 succeeded, 3 failed for good (0% succeeded); 1 retrying.')
  })
  it('gives the rate of a mix', () => {
    expect(deliveriesText({ ...none, succeeded: 3, failed: 1 })).toBe('3 succeeded, 1 failed for good (75.0% succeeded).')
    expect(deliveriesText({ ...none, succeeded: 1200, pending: 5 })).toBe('1,200 succeeded, 0 failed for good (100% succeeded); 5 pending.')
  })
  it('says what is waiting, or nothing', () => {
    expect(waitingText({ pending: 0, retrying: 0 })).toBe('')
    expect(waitingText({ pending: 2, retrying: 0 })).toBe('2 pending')
  })
})
