// client.ts is the embedded portal's door to /api/v1/portal/*. It
// exchanges the launch code for a bearer token, keeps the token in memory
// only (no storage, no cookies: credentials are omitted), sends it on
// every call, renews it a minute before it expires, and ends the session
// on the first 401 or when the session's expires_at passes. Ending is
// final: timers stop, the token is dropped and the listeners hear why.
import { ApiError, errorFromBody } from '../api'
import type { Exchanged, PortalSession, PortalToken } from './types'

/** EndReason says why a portal session ended. */
export type EndReason =
  /** the launch code was used, expired or unknown (exchange answered 401) */
  | 'invalid_link'
  /** the page was opened without a code (e.g. reloaded) */
  | 'no_code'
  /** the session's expires_at passed */
  | 'expired'
  /** a call answered 401: revoked, or expired on the server */
  | 'unauthorized'

/** ClientOptions are the client's clock, timers and fetch; tests pass their own. */
export interface ClientOptions {
  fetch?: typeof fetch
  now?: () => number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (t: unknown) => void
  /** renewBeforeMs: how long before the token expires it is renewed (60 s). */
  renewBeforeMs?: number
  /** retryMs: how soon a renewal that failed (not 401) is tried again (15 s). */
  retryMs?: number
  /** base is the portal API's path (/api/v1/portal). */
  base?: string
}

export class PortalClient {
  readonly sessionId: string
  private token = ''
  private tokenExpiresAt = 0
  private sessionExpiresAt = 0
  private skew = 0
  private renewTimer: unknown = null
  private endTimer: unknown = null
  private endedWith: EndReason | null = null
  private readonly listeners = new Set<(r: EndReason) => void>()
  private readonly fetch: typeof fetch
  private readonly now: () => number
  private readonly setTimer: (fn: () => void, ms: number) => unknown
  private readonly clearTimer: (t: unknown) => void
  private readonly renewBeforeMs: number
  private readonly retryMs: number
  private readonly base: string

  constructor(sessionId: string, o: ClientOptions = {}) {
    this.sessionId = sessionId
    this.fetch = o.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.now = o.now ?? Date.now
    this.setTimer = o.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
    this.clearTimer = o.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>))
    this.renewBeforeMs = o.renewBeforeMs ?? 60_000
    this.retryMs = o.retryMs ?? 15_000
    this.base = o.base ?? '/api/v1/portal'
  }

  /** ended is why the session ended, or null while it lives. */
  get ended(): EndReason | null {
    return this.endedWith
  }

  /** onEnded registers a listener for the end of the session (called once); it returns the unsubscribe. */
  onEnded(fn: (r: EndReason) => void): () => void {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  /**
   * exchange trades the launch code for a token and returns the session.
   * A used, expired or unknown code ends the session ('invalid_link'); other
   * failures (network, 5xx) throw, and exchange may be called again.
   */
  async exchange(code: string): Promise<PortalSession> {
    if (!code) {
      this.end('no_code')
      throw new ApiError(401, 'no_code', 'This page was opened without a session code.')
    }
    const r = await this.send<Exchanged>('POST', '/exchange', { session_id: this.sessionId, code }, false)
    this.sessionExpiresAt = this.serverTime(r.session.expires_at)
    this.useToken(r)
    this.armSessionEnd()
    return r.session
  }

  /** renew gets a fresh token now (the timer calls it a minute before expiry). */
  async renew(): Promise<void> {
    this.useToken(await this.send<PortalToken>('POST', '/renew', {}, true))
  }

  get<T>(path: string): Promise<T> {
    return this.send<T>('GET', path, undefined, true)
  }
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.send<T>('POST', path, body ?? {}, true)
  }
  patch<T>(path: string, body: unknown): Promise<T> {
    return this.send<T>('PATCH', path, body, true)
  }
  del<T = void>(path: string): Promise<T> {
    return this.send<T>('DELETE', path, undefined, true)
  }

  /** end ends the session (once): timers stop, the token goes, listeners are told. */
  end(reason: EndReason): void {
    if (this.endedWith) return
    this.endedWith = reason
    this.token = ''
    this.stopTimers()
    this.listeners.forEach((fn) => fn(reason))
  }

  /** dispose stops the timers without ending the session (the page goes away). */
  dispose(): void {
    this.stopTimers()
  }

  private stopTimers() {
    if (this.renewTimer !== null) this.clearTimer(this.renewTimer)
    if (this.endTimer !== null) this.clearTimer(this.endTimer)
    this.renewTimer = this.endTimer = null
  }

  /** serverTime turns a server timestamp into this browser's clock (corrected by the Date header's skew). */
  private serverTime(iso: string): number {
    return Date.parse(iso) - this.skew
  }

  private useToken(t: PortalToken) {
    if (this.endedWith) return
    this.token = t.token
    this.tokenExpiresAt = this.serverTime(t.token_expires_at)
    this.armRenew(this.tokenExpiresAt - this.renewBeforeMs - this.now())
  }

  private armRenew(delay: number) {
    if (this.renewTimer !== null) this.clearTimer(this.renewTimer)
    this.renewTimer = null
    // A renewal at or after the session's end is pointless: it ends first.
    if (this.sessionExpiresAt && this.now() + delay >= this.sessionExpiresAt) return
    this.renewTimer = this.setTimer(() => {
      this.renewTimer = null
      this.renew().catch(() => {
        // A 401 has ended the session; anything else is tried again while the token lives.
        if (this.endedWith) return
        if (this.now() + this.retryMs < this.tokenExpiresAt) this.armRenew(this.retryMs)
      })
    }, Math.max(0, delay))
  }

  private armSessionEnd() {
    if (this.endTimer !== null) this.clearTimer(this.endTimer)
    this.endTimer = this.setTimer(() => {
      this.endTimer = null
      this.end('expired')
    }, Math.max(0, this.sessionExpiresAt - this.now()))
  }

  private async send<T>(method: string, path: string, body: unknown, authed: boolean): Promise<T> {
    if (this.endedWith) throw new ApiError(401, 'session_ended', 'Your session has ended.')
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    if (authed) headers.Authorization = `Bearer ${this.token}`
    let res: Response
    try {
      res = await this.fetch(this.base + path, {
        method,
        headers,
        credentials: 'omit',
        cache: 'no-store',
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch {
      throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.')
    }
    const date = Date.parse(res.headers?.get?.('Date') ?? '')
    if (!Number.isNaN(date)) this.skew = date - this.now()
    const text = await res.text()
    if (!res.ok) {
      const err = errorFromBody(res.status, text)
      if (res.status === 401) this.end(authed ? 'unauthorized' : 'invalid_link')
      throw err
    }
    if (!text) return undefined as T
    return JSON.parse(text) as T
  }
}
