// The embedded portal's token lifecycle: exchange, renewal a minute before
// expiry, the session's end (its expires_at, a 401) and what is sent.
import { describe, expect, it } from 'vitest'
import { PortalClient, type EndReason } from './client'
import type { PortalSession } from './types'

const t0 = Date.parse('2026-11-22T10:00:00Z')
const iso = (ms: number) => new Date(ms).toISOString()

function session(over: Partial<PortalSession> = {}): PortalSession {
  return {
    customer: { uid: 'acme', name: 'Acme Inc' }, capabilities: ['view'], read_only: false, endpoint_ids: null,
    theme: {}, external_user: { id: 'u_42', email: 'dana@acme.test' }, expires_at: iso(t0 + 3600_000), ...over,
  }
}

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown; credentials?: RequestCredentials }

/** setup is a client on a manual clock and timer queue, and a fake server answering from routes. */
function setup(routes: Record<string, (c: Call) => { status?: number; body?: unknown; date?: string }>) {
  let now = t0
  const timers: { at: number; fn: () => void; id: number }[] = []
  let nextId = 1
  const calls: Call[] = []
  const fetch = (async (url: string, init: RequestInit) => {
    const c: Call = { url, method: String(init.method), headers: init.headers as Record<string, string>, body: init.body ? JSON.parse(String(init.body)) : undefined, credentials: init.credentials }
    calls.push(c)
    const route = routes[`${c.method} ${url.split('?')[0]}`]
    const r = route ? route(c) : { status: 404, body: { error: { code: 'not_found', message: 'not found' } } }
    const headers = new Headers(r.date ? { Date: r.date } : {})
    return new Response(r.body === undefined ? '' : JSON.stringify(r.body), { status: r.status ?? 200, headers })
  }) as unknown as typeof globalThis.fetch
  const ended: EndReason[] = []
  const client = new PortalClient('ps_1', {
    fetch,
    now: () => now,
    setTimer: (fn, ms) => {
      const id = nextId++
      timers.push({ at: now + ms, fn, id })
      return id
    },
    clearTimer: (id) => {
      const i = timers.findIndex((t) => t.id === id)
      if (i >= 0) timers.splice(i, 1)
    },
  })
  client.onEnded((r) => ended.push(r))
  /** advance moves the clock, firing due timers in order, and lets their promises settle. */
  async function advance(ms: number) {
    const end = now + ms
    for (;;) {
      timers.sort((a, b) => a.at - b.at)
      const next = timers[0]
      if (!next || next.at > end) break
      timers.shift()
      now = next.at
      next.fn()
      await settle()
    }
    now = end
  }
  return { client, calls, ended, advance, timers, get now() { return now } }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

const exchanged = (over: { token?: string; tokenTtl?: number; session?: PortalSession } = {}) => ({
  token: over.token ?? 'tok_1', token_expires_at: iso(t0 + (over.tokenTtl ?? 600_000)), session: over.session ?? session(),
})

describe('PortalClient', () => {
  it('exchanges the code once, without a token or cookies, and sends the token on every call', async () => {
    const s = setup({
      'POST /api/v1/portal/exchange': () => ({ body: exchanged() }),
      'GET /api/v1/portal/endpoints': () => ({ body: { data: [], next_cursor: null } }),
    })
    const got = await s.client.exchange('code_1')
    expect(got.customer.uid).toBe('acme')
    expect(s.calls[0].body).toEqual({ session_id: 'ps_1', code: 'code_1' })
    expect(s.calls[0].headers.Authorization).toBeUndefined()
    await s.client.get('/endpoints?limit=25')
    expect(s.calls[1].headers.Authorization).toBe('Bearer tok_1')
    for (const c of s.calls) expect(c.credentials).toBe('omit')
  })

  it('renews the token a minute before it expires, and uses the new one', async () => {
    let n = 1
    const s = setup({
      'POST /api/v1/portal/exchange': () => ({ body: exchanged() }),
      'POST /api/v1/portal/renew': () => ({ body: { token: `tok_${++n}`, token_expires_at: iso(s.now + 600_000) } }),
      'GET /api/v1/portal/session': () => ({ body: session() }),
    })
    await s.client.exchange('code_1')
    await s.advance(539_000)
    expect(s.calls.filter((c) => c.url.endsWith('/renew'))).toHaveLength(0)
    await s.advance(1_000)
    const renewals = s.calls.filter((c) => c.url.endsWith('/renew'))
    expect(renewals).toHaveLength(1)
    expect(renewals[0].headers.Authorization).toBe('Bearer tok_1')
    await s.client.get('/session')
    expect(s.calls.at(-1)!.headers.Authorization).toBe('Bearer tok_2')
    // And again 9 minutes later, from the new token's expiry.
    await s.advance(540_000)
    expect(s.calls.filter((c) => c.url.endsWith('/renew'))).toHaveLength(2)
    expect(s.ended).toEqual([])
  })

  it('times the renewal by the server clock (Date header), not a skewed browser clock', async () => {
    // The browser's clock is 5 minutes behind the server's.
    const s = setup({
      'POST /api/v1/portal/exchange': () => ({ body: { token: 't', token_expires_at: iso(t0 + 300_000 + 600_000), session: session({ expires_at: iso(t0 + 300_000 + 3600_000) }) }, date: new Date(t0 + 300_000).toUTCString() }),
      'POST /api/v1/portal/renew': () => ({ body: { token: 't2', token_expires_at: iso(t0 + 300_000 + 1200_000) } }),
    })
    await s.client.exchange('c')
    await s.advance(539_000)
    expect(s.calls.filter((c) => c.url.endsWith('/renew'))).toHaveLength(0)
    await s.advance(1_000)
    expect(s.calls.filter((c) => c.url.endsWith('/renew'))).toHaveLength(1)
  })

  it('tries a failed renewal again while the token lives', async () => {
    let fail = true
    const s = setup({
      'POST /api/v1/portal/exchange': () => ({ body: exchanged() }),
      'POST /api/v1/portal/renew': () => (fail ? { status: 503 } : { body: { token: 'tok_2', token_expires_at: iso(s.now + 600_000) } }),
    })
    await s.client.exchange('c')
    await s.advance(540_000)
    fail = false
    await s.advance(15_000)
    expect(s.calls.filter((c) => c.url.endsWith('/renew'))).toHaveLength(2)
    expect(s.ended).toEqual([])
  })

  it('does not renew past the end of the session, and ends it when expires_at passes', async () => {
    const s = setup({
      'POST /api/v1/portal/exchange': () => ({ body: exchanged({ session: session({ expires_at: iso(t0 + 300_000) }) }) }),
    })
    await s.client.exchange('c')
    await s.advance(299_000)
    expect(s.ended).toEqual([])
    await s.advance(1_000)
    expect(s.ended).toEqual(['expired'])
    expect(s.calls.filter((c) => c.url.endsWith('/renew'))).toHaveLength(0)
    expect(s.timers).toHaveLength(0)
    await expect(s.client.get('/endpoints')).rejects.toMatchObject({ status: 401 })
    expect(s.calls).toHaveLength(1) // nothing sent once ended
  })

  it('ends the session on the first 401, once, and stops renewing', async () => {
    const s = setup({
      'POST /api/v1/portal/exchange': () => ({ body: exchanged() }),
      'GET /api/v1/portal/endpoints': () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'session revoked' } } }),
    })
    await s.client.exchange('c')
    await expect(s.client.get('/endpoints')).rejects.toMatchObject({ status: 401, message: 'session revoked' })
    await expect(s.client.get('/endpoints')).rejects.toMatchObject({ status: 401 })
    expect(s.ended).toEqual(['unauthorized'])
    expect(s.timers).toHaveLength(0)
  })

  it('ends with invalid_link when the code is refused, and no_code without one', async () => {
    const s = setup({ 'POST /api/v1/portal/exchange': () => ({ status: 401, body: { error: { code: 'unauthorized', message: 'code used' } } }) })
    await expect(s.client.exchange('used')).rejects.toMatchObject({ status: 401 })
    expect(s.ended).toEqual(['invalid_link'])
    const t = setup({})
    await expect(t.client.exchange('')).rejects.toMatchObject({ status: 401 })
    expect(t.ended).toEqual(['no_code'])
    expect(t.calls).toHaveLength(0)
  })

  it('keeps a 403 (a capability the session lacks) an ordinary error', async () => {
    const s = setup({
      'POST /api/v1/portal/exchange': () => ({ body: exchanged() }),
      'POST /api/v1/portal/recover': () => ({ status: 403, body: { error: { code: 'forbidden', message: 'missing capability replay' } } }),
    })
    await s.client.exchange('c')
    await expect(s.client.post('/recover', {})).rejects.toMatchObject({ status: 403 })
    expect(s.ended).toEqual([])
  })
})
