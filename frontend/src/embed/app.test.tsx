// The embedded app: it opens the session, shows only the actions the
// session may use, and on a 401 shows that the session ended and tells the
// host page (its exact origin) once.
import { StrictMode } from 'react'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createRoot } from 'react-dom/client'
import { bootEmbed } from './boot'
import { readLaunch } from './launch'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PortalClient } from './client'
import { EmbedApp } from './EmbedApp'
import { parentChannel } from './parent'
import type { PortalSession } from './types'
import type { Endpoint, Stats } from '../types'

afterEach(() => {
  cleanup()
  document.documentElement.className = ''
  document.documentElement.removeAttribute('style')
})

const HOST = 'https://app.acme.test'
const soon = (ms: number) => new Date(Date.now() + ms).toISOString()

function session(over: Partial<PortalSession> = {}): PortalSession {
  return {
    customer: { uid: 'acme', name: 'Acme Inc' }, capabilities: ['view'], read_only: false, endpoint_ids: null,
    theme: { primary_color: '#7c3aed' }, external_user: { id: 'u_42' }, expires_at: soon(3600_000), ...over,
  }
}

const ep = {
  id: '9f8e7d6c-5b4a-3210-0000-000000000001', kind: 'http', url: 'https://hooks.acme.test/in', description: 'Production', event_types: ['invoice.paid'], enabled: true,
  disabled_reason: '', timeout_seconds: 10, rate_limit_per_second: null, max_in_flight: 16, headers: {}, filter: 'event.data.amount > 1', format: 'envelope',
  transformation: '', failing_since: null, customer: 'acme', filter_errors: null, created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z',
} as Endpoint

const stats = {
  window: '24h', from: '2026-11-22T10:00:00Z', attempts: 1, attempts_failed: 0, succeeded: 1, failed: 0, success_rate: 1, by_error_class: {},
  response_ms: { p50: 12, p95: 12, p99: 12 }, backlog: { pending: 0, retrying: 0, oldest_age_seconds: 0, next_retry_at: null },
  last_success_at: '2026-11-22T10:00:00Z', series: [],
} as unknown as Stats

type Answer = { status?: number; body?: unknown }

/** start renders the embedded app at path for a session, the fake server answering from over first. */
async function start(s: PortalSession, path = '/embed/ps_1', over: Record<string, () => Answer> = {}) {
  window.history.replaceState(null, '', path)
  const calls: string[] = []
  const sent: { key: string; body: unknown }[] = []
  const routes: Record<string, () => Answer> = {
    'POST /exchange': () => ({ body: { token: 'tok', token_expires_at: soon(600_000), session: s } }),
    'GET /endpoints': () => ({ body: { data: [ep], next_cursor: null } }),
    [`GET /endpoints/${ep.id}`]: () => ({ body: ep }),
    [`GET /endpoints/${ep.id}/stats`]: () => ({ body: stats }),
    [`GET /endpoints/${ep.id}/attempts`]: () => ({ body: { data: [], next_cursor: null } }),
    ...over,
  }
  const fetch = (async (url: string, init: RequestInit) => {
    const key = `${init.method} ${url.replace('/api/v1/portal', '').split('?')[0]}`
    calls.push(key)
    sent.push({ key, body: init.body ? JSON.parse(String(init.body)) : undefined })
    const r = routes[key]?.() ?? { status: 404, body: { error: { code: 'not_found', message: 'not found' } } }
    return new Response(r.body === undefined ? '' : JSON.stringify(r.body), { status: r.status ?? 200 })
  }) as unknown as typeof globalThis.fetch
  const client = new PortalClient('ps_1', { fetch })
  const postMessage = vi.fn()
  const channel = parentChannel({ parent: { postMessage } } as unknown as Window, HOST)
  client.onEnded(() => channel.post({ type: 'ferry:session-ended' }))
  // StrictMode runs the effects twice: the single-use code is still exchanged once.
  render(<StrictMode><EmbedApp client={client} channel={channel} code="code_1" /></StrictMode>)
  await screen.findByRole('heading', { level: 1 })
  return { client, calls, sent, postMessage }
}

const all = ['view', 'manage_endpoints', 'view_secret', 'rotate_secret', 'replay', 'send_test', 'manage_routing']

describe('embedded portal', () => {
  it('exchanges the code once and applies the theme', async () => {
    const { calls } = await start(session())
    await screen.findByText('Production')
    expect(calls.filter((c) => c === 'POST /exchange')).toHaveLength(1)
    expect(document.documentElement.style.getPropertyValue('--primary')).toBe('#7c3aed')
  })

  it('read_only: lists endpoints, offers no change', async () => {
    await start(session({ capabilities: all, read_only: true }))
    await screen.findByText('Production')
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).toBeNull()
    expect(screen.queryByRole('button', { name: /^Pause / })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Recover' })).toBeNull()
    expect(screen.getByText(/read only/)).toBeTruthy()
  })

  it('manage_endpoints: add and pause; endpoint_ids: no add', async () => {
    await start(session({ capabilities: ['view', 'manage_endpoints'] }))
    await screen.findByText('Production')
    expect(screen.getByRole('button', { name: 'Add endpoint' })).toBeTruthy()
    expect(screen.getByRole('button', { name: `Pause ${ep.url}` })).toBeTruthy()
    cleanup()
    await start(session({ capabilities: ['view', 'manage_endpoints'], endpoint_ids: [ep.id] }))
    await screen.findByText('Production')
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).toBeNull()
  })

  it('the create form shows the filter and transformation only with manage_routing', async () => {
    await start(session({ capabilities: ['view', 'manage_endpoints'] }))
    act(() => screen.getByRole('button', { name: 'Add endpoint' }).click())
    expect(screen.getByLabelText('URL')).toBeTruthy()
    expect(screen.getByLabelText('Custom headers')).toBeTruthy()
    expect(screen.queryByLabelText('Filter (CEL)')).toBeNull()
    expect(screen.queryByLabelText('Transformation (JavaScript)')).toBeNull()
    cleanup()
    await start(session({ capabilities: ['view', 'manage_endpoints', 'manage_routing'] }))
    act(() => screen.getByRole('button', { name: 'Add endpoint' }).click())
    expect(screen.getByLabelText('Filter (CEL)')).toBeTruthy()
  })

  it('endpoint page: view only shows no action', async () => {
    await start(session(), `/embed/ps_1/endpoints/${ep.id}`)
    await screen.findByTestId('deliveries-summary')
    for (const name of ['Send test event', 'Edit', 'Pause', 'Delete', 'Reveal secret', 'Rotate secret']) {
      expect(screen.queryByRole('button', { name }), name).toBeNull()
    }
    expect(screen.queryByRole('heading', { name: 'Signing secret' })).toBeNull()
  })

  it('endpoint page: every capability shows every action', async () => {
    await start(session({ capabilities: all }), `/embed/ps_1/endpoints/${ep.id}`)
    await screen.findByTestId('deliveries-summary')
    for (const name of ['Send test event', 'Edit', 'Pause', 'Delete', 'Reveal secret', 'Rotate secret']) {
      expect(screen.getByRole('button', { name }), name).toBeTruthy()
    }
    expect(screen.getByRole('link', { name: 'Recover failed messages' })).toBeTruthy()
  })

  it('endpoint page: rotate without view_secret, no reveal', async () => {
    await start(session({ capabilities: ['view', 'rotate_secret'] }), `/embed/ps_1/endpoints/${ep.id}`)
    await screen.findByTestId('deliveries-summary')
    expect(screen.getByRole('button', { name: 'Rotate secret' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Reveal secret' })).toBeNull()
  })

  it('a 401 ends the session and tells the host page once, by its exact origin', async () => {
    const { postMessage } = await start(session(), '/embed/ps_1', {
      'GET /endpoints': () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'session revoked' } } }),
    })
    await screen.findByText('Your session has ended')
    expect(screen.getByTestId('session-ended').textContent).toContain('A new session is being requested')
    const ended = postMessage.mock.calls.filter(([m]) => m.type === 'ferry:session-ended')
    expect(ended).toEqual([[{ type: 'ferry:session-ended' }, HOST]])
    for (const [, target] of postMessage.mock.calls) expect(target).toBe(HOST)
  })

  it('a used code shows that the link is spent', async () => {
    const { postMessage } = await start(session(), '/embed/ps_1', {
      'POST /exchange': () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'invalid code' } } }),
    })
    expect(screen.getByTestId('session-ended').textContent).toContain('already been used or has expired')
    expect(postMessage).toHaveBeenCalledWith({ type: 'ferry:session-ended' }, HOST)
  })

  it('a reloaded frame (no code, origin in the query) ends at once and tells the host by its exact origin', async () => {
    window.history.replaceState(null, '', `/embed/ps_1?origin=${encodeURIComponent(HOST)}`)
    const postMessage = vi.fn()
    const win = { parent: { postMessage } } as unknown as Window
    const el = document.createElement('div')
    document.body.appendChild(el)
    const root = createRoot(el)
    await act(async () => { bootEmbed(root, readLaunch(window), win) })
    expect(el.textContent).toContain('Your session has ended')
    expect(postMessage.mock.calls).toContainEqual([{ type: 'ferry:session-ended' }, HOST])
    expect(postMessage.mock.calls.filter(([m]) => m.type === 'ferry:session-ended')).toHaveLength(1)
    for (const [, target] of postMessage.mock.calls) expect(target).toBe(HOST)
    act(() => root.unmount())
    el.remove()
  })

  it('keeps the host origin in the address as the customer moves between pages', async () => {
    await start(session({ capabilities: all }), `/embed/ps_1?origin=${encodeURIComponent(HOST)}`)
    await screen.findByText('Production')
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {})
    act(() => screen.getByRole('link', { name: 'Messages' }).click())
    await screen.findByRole('heading', { name: 'Messages' })
    expect(window.location.pathname).toBe('/embed/ps_1/messages')
    expect(new URLSearchParams(window.location.search).get('origin')).toBe(HOST)
  })

  const catalog = {
    'GET /event-types': () => ({ body: { data: [
      { name: 'invoice.paid', group: 'Billing', description: 'An invoice was paid', latest_version: 1, deprecated: false },
      { name: 'invoice.voided', group: 'Billing', description: 'An invoice was voided', latest_version: 1, deprecated: false },
      { name: 'user.created', group: '', description: 'A user signed up', latest_version: 0, deprecated: false },
    ], next_cursor: null } }),
    'GET /event-types/invoice.paid': () => ({ body: {
      name: 'invoice.paid', group: 'Billing', description: 'An invoice was paid', latest_version: 1, deprecated: false,
      versions: [{ version: 1, schema: { type: 'object' }, examples: [{ amount: 4200 }] }],
    } }),
  }

  it('the endpoint form picks types from the portal catalog, grouped, with descriptions; free text stays', async () => {
    const { calls } = await start(session({ capabilities: ['view', 'manage_endpoints'] }), '/embed/ps_1', catalog)
    act(() => screen.getByRole('button', { name: 'Add endpoint' }).click())
    await screen.findByText(/Choose from your event types \(3\)/)
    // Through the portal API (the client's bearer token), not the tenant API.
    expect(calls).toContain('GET /event-types')
    expect(screen.getByRole('group', { name: 'Billing' })).toBeTruthy()
    expect(screen.getByRole('group', { name: 'Other' })).toBeTruthy()
    expect(screen.getByText('An invoice was paid')).toBeTruthy()
    const field = screen.getByLabelText('Event types') as HTMLInputElement
    fireEvent.change(field, { target: { value: 'order.*' } })
    act(() => screen.getByRole('checkbox', { name: /invoice\.paid/ }).click())
    expect(field.value).toBe('order.*, invoice.paid')
    act(() => screen.getByRole('button', { name: 'Show the schema of invoice.paid' }).click())
    expect((await screen.findByTestId('type-schema')).textContent).toContain('4200')
    expect(calls).toContain('GET /event-types/invoice.paid')
  })

  it('send test event: ferry.test by default, or a catalog type\'s example', async () => {
    const over = { ...catalog, [`POST /endpoints/${ep.id}/test`]: () => ({ status: 202, body: { id: 'ev_t1' } }) }
    const { sent } = await start(session({ capabilities: ['view', 'send_test'] }), `/embed/ps_1/endpoints/${ep.id}`, over)
    const select = (await screen.findByLabelText('Test event type')) as HTMLSelectElement
    expect(select.value).toBe('ferry.test')
    expect([...select.options].map((o) => o.value)).toEqual(['ferry.test', 'invoice.paid', 'invoice.voided', 'user.created'])
    await act(async () => screen.getByRole('button', { name: 'Send test event' }).click())
    await screen.findByTestId('test-event')
    fireEvent.change(select, { target: { value: 'invoice.paid' } })
    await act(async () => screen.getByRole('button', { name: 'Send test event' }).click())
    await screen.findByText(/An example invoice.paid event was sent/)
    expect(sent.filter((c) => c.key === `POST /endpoints/${ep.id}/test`).map((c) => c.body)).toEqual([{}, { event_type: 'invoice.paid' }])
  })

  it('send test event without a catalog: no type to choose, ferry.test', async () => {
    const over = { [`POST /endpoints/${ep.id}/test`]: () => ({ status: 202, body: { id: 'ev_t1' } }) }
    const { sent, calls } = await start(session({ capabilities: ['view', 'send_test'] }), `/embed/ps_1/endpoints/${ep.id}`, over)
    await screen.findByTestId('deliveries-summary')
    await waitFor(() => expect(calls).toContain('GET /event-types'))
    expect(screen.queryByLabelText('Test event type')).toBeNull()
    await act(async () => screen.getByRole('button', { name: 'Send test event' }).click())
    await screen.findByTestId('test-event')
    expect(sent.filter((c) => c.key === `POST /endpoints/${ep.id}/test`).map((c) => c.body)).toEqual([{}])
  })
})
