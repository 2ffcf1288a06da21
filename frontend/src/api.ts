// api.ts is the portal's only door to Ferry's HTTP API: it sends the
// session cookie, echoes the ferry_csrf cookie (__Host-ferry_csrf over
// HTTPS) in X-CSRF-Token on every write (double-submit CSRF), and turns
// the API's error body
// {"error":{"code","message","field"}} into an ApiError.

/** ApiError carries the API's machine-readable error. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly field?: string
  constructor(status: number, code: string, message: string, field?: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.field = field
  }
}

/** A page of a list: every list route answers {data, next_cursor}. */
export interface Page<T> {
  data: T[]
  next_cursor: string | null
}

/** readCookie returns a cookie's value from a document.cookie string. */
export function readCookie(name: string, cookies: string = typeof document === 'undefined' ? '' : document.cookie): string {
  for (const part of cookies.split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) return decodeURIComponent(v.join('='))
  }
  return ''
}

/**
 * csrfToken returns the double-submit token: over HTTPS the cookie has the
 * __Host- prefix (which browsers accept only from a Secure origin).
 */
export function csrfToken(cookies: string = typeof document === 'undefined' ? '' : document.cookie): string {
  return readCookie('__Host-ferry_csrf', cookies) || readCookie('ferry_csrf', cookies)
}

/** errorFromBody builds an ApiError from a failed response's status and body text. */
export function errorFromBody(status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text)
    const e = body?.error
    if (e && typeof e.message === 'string') {
      return new ApiError(status, String(e.code ?? 'error'), e.message, e.field || undefined)
    }
  } catch {
    // not JSON: fall through
  }
  const fallback: Record<number, string> = {
    401: 'Your session has ended. Sign in again.',
    403: 'You are not allowed to do this.',
    404: 'Not found.',
    413: 'The request is too large.',
    429: 'Too many requests. Wait a moment and try again.',
    502: 'Ferry is not reachable right now.',
    503: 'Ferry is unavailable right now. Try again shortly.',
  }
  return new ApiError(status, 'http_' + status, fallback[status] ?? `The request failed (HTTP ${status}).`)
}

/** query renders defined, non-empty params as a query string ("" when none). */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v))
  }
  const s = q.toString()
  return s ? '?' + s : ''
}

type Listener = () => void
const unauthorizedListeners = new Set<Listener>()

/** onUnauthorized registers a callback for any 401 (session expired). */
export function onUnauthorized(fn: Listener): () => void {
  unauthorizedListeners.add(fn)
  return () => unauthorizedListeners.delete(fn)
}

/** request calls the API; it resolves to the parsed JSON (undefined for 204). */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  if (method !== 'GET' && method !== 'HEAD') {
    const csrf = csrfToken()
    if (csrf) headers['X-CSRF-Token'] = csrf
  }
  let res: Response
  try {
    res = await fetch('/api/v1' + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(0, 'network', 'Could not reach Ferry. Check your connection and try again.')
  }
  const text = await res.text()
  if (!res.ok) {
    const err = errorFromBody(res.status, text)
    if (res.status === 401 && !path.startsWith('/auth/')) unauthorizedListeners.forEach((fn) => fn())
    throw err
  }
  if (!text) return undefined as T
  return JSON.parse(text) as T
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  del: <T = void>(path: string) => request<T>('DELETE', path),
}
