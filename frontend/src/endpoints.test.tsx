import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SessionContext, type Session } from './session'
import type { Endpoint, Stats } from './types'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const owner = { me: { kind: 'user', user_id: 'u1', email: 'o@a.test', role: 'owner', email_verified: true }, refresh: async () => {}, signOut: async () => {} } as Session

function endpoint(over: Partial<Endpoint>): Endpoint {
  return {
    id: '9f8e7d6c-5b4a-3210-0000-000000000001', kind: 'http', url: 'https://hooks.acme.test/in', description: '', event_types: [], enabled: true,
    disabled_reason: '', timeout_seconds: 7, rate_limit_per_second: 42, max_in_flight: 1, headers: { 'X-Team': 'billing' }, filter: '', format: 'envelope',
    transformation: '', failing_since: null, created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z', ...over,
  } as Endpoint
}

function stats(over: Partial<Stats>): Stats {
  return {
    window: '24h', from: '2026-11-22T10:00:00Z', attempts: 0, attempts_failed: 0, succeeded: 0, failed: 0, success_rate: null, by_error_class: {},
    response_ms: { p50: null, p95: null, p99: null }, backlog: { pending: 0, retrying: 0, oldest_age_seconds: 0, next_retry_at: null },
    last_success_at: null, series: [], ...over,
  } as Stats
}

/** renderEndpoint shows the endpoint page of ep, the API answering with st for its stats. */
async function renderEndpoint(ep: Endpoint, st: Stats) {
  const apiMod = await import('./api')
  vi.spyOn(apiMod.api, 'get').mockImplementation(async (path: string) => {
    if (path === `/endpoints/${ep.id}`) return ep as never
    if (path.startsWith(`/endpoints/${ep.id}/stats`)) return st as never
    if (path.startsWith('/queues/')) return { depth: 2, in_flight: 0, oldest_age_seconds: 5, dead: 0 } as never
    return { data: [], next_cursor: null } as never
  })
  const { EndpointDetailPage } = await import('./pages/EndpointDetail')
  render(<SessionContext.Provider value={owner}><EndpointDetailPage id={ep.id} /></SessionContext.Provider>)
  await screen.findByRole('heading', { level: 1 })
  await screen.findByTestId('deliveries-summary')
}

describe('endpoint page', () => {
  it('names a queue readably and shows none of the fields that only apply to pushes', async () => {
    await renderEndpoint(endpoint({ kind: 'queue', url: '' }), stats({}))
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pull queue 9f8e7d6c')
    const settings = screen.getByRole('heading', { name: 'Settings' }).parentElement!
    const terms = within(settings).getAllByRole('term').map((t) => t.textContent)
    expect(terms).not.toContain('Timeout')
    expect(terms).not.toContain('Rate limit')
    expect(terms).not.toContain('Format')
    expect(terms).not.toContain('Transformation')
    expect(terms).toContain('Custom headers (in each pulled message)')
    // Nothing answers a pulled message: no answer time either.
    expect(screen.getAllByRole('term').map((t) => t.textContent)).not.toContain('Answer time')
    expect(settings.textContent).not.toContain('7 s')
    expect(settings.textContent).not.toContain('42/s')
    expect(settings.textContent).toContain('ordered: one message leased at a time')
    // Pulled messages are signed too.
    expect(screen.getByText(/of each pulled message/)).toBeTruthy()
  })

  it('names a queue by its description', async () => {
    await renderEndpoint(endpoint({ kind: 'queue', url: '', description: 'billing worker' }), stats({}))
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('billing worker')
  })

  it('shows an http endpoint its timeout and rate limit', async () => {
    await renderEndpoint(endpoint({}), stats({ succeeded: 3, failed: 1, success_rate: 0.75 }))
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('https://hooks.acme.test/in')
    const terms = screen.getAllByRole('term').map((t) => t.textContent)
    expect(terms).toEqual(expect.arrayContaining(['Timeout', 'Rate limit', 'Format', 'Answer time']))
    expect(screen.getByTestId('deliveries-summary').textContent).toBe('3 succeeded, 1 failed for good (75.0% succeeded).')
  })

  it('says what a failing endpoint with nothing finished is doing, never "— succeeded"', async () => {
    await renderEndpoint(endpoint({ failing_since: '2026-11-22T10:00:00Z' }), stats({ attempts: 6, attempts_failed: 6, backlog: { pending: 0, retrying: 2, oldest_age_seconds: 60, next_retry_at: null } }))
    expect(screen.getByTestId('deliveries-summary').textContent).toBe('No delivery has finished yet; 2 retrying.')
    expect(document.body.textContent).not.toContain('— succeeded')
    expect(document.body.textContent).toContain('none finished yet; 2 retrying')
  })
})

describe('endpoints list', () => {
  it('shows whose each endpoint is, and lists one customer\'s with ?customer=', async () => {
    const apiMod = await import('./api')
    const asked: string[] = []
    vi.spyOn(apiMod.api, 'get').mockImplementation(async (path: string) => {
      asked.push(path)
      if (path.startsWith('/endpoints')) {
        const all = [endpoint({ id: 'e1', url: 'https://own.test/in' }), endpoint({ id: 'e2', url: 'https://acme.test/in', customer: 'acme' })]
        return { data: path.includes('customer=acme') ? all.slice(1) : all, next_cursor: null } as never
      }
      return { endpoints: [] } as never
    })
    window.history.replaceState(null, '', '/endpoints')
    const { EndpointsPage } = await import('./pages/Endpoints')
    render(<SessionContext.Provider value={owner}><EndpointsPage /></SessionContext.Provider>)
    await screen.findByText('https://acme.test/in')
    expect(screen.getByRole('columnheader', { name: 'Customer' })).toBeTruthy()
    expect(screen.getAllByTestId('endpoint-customer').map((td) => td.textContent)).toEqual(['', 'acme'])
    expect(within(screen.getAllByTestId('endpoint-customer')[1]).getByRole('link').getAttribute('href')).toBe('/customers/acme')
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {})
    fireEvent.change(screen.getByLabelText('Filter by customer'), { target: { value: 'acme' } })
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }))
    await waitFor(() => expect(screen.queryByText('https://own.test/in')).toBeNull())
    expect(window.location.search).toBe('?customer=acme')
    expect(asked).toContain('/endpoints?customer=acme&limit=25')
  })

  it('the tenant\'s events list shows the customer column; the embedded one does not ask for it', async () => {
    const { EventTable } = await import('./pages/Events')
    const evs = [
      { id: 'ev1', type: 'invoice.paid', created_at: '2026-11-22T10:00:00Z', customer: 'acme' },
      { id: 'ev2', type: 'invoice.paid', created_at: '2026-11-22T10:00:00Z' },
    ] as never
    render(<EventTable events={evs} href={(id) => `/events/${id}`} showCustomer />)
    expect(screen.getAllByTestId('event-customer').map((td) => td.textContent)).toEqual(['acme', ''])
    cleanup()
    render(<EventTable events={evs} href={(id) => `/events/${id}`} />)
    expect(screen.queryByRole('columnheader', { name: 'Customer' })).toBeNull()
  })
})
