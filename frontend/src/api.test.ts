import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, api, errorFromBody, onUnauthorized, query, readCookie } from './api'

describe('readCookie', () => {
  it('finds a cookie among several and decodes it', () => {
    expect(readCookie('ferry_csrf', 'a=1; ferry_csrf=abc%3D%3D; b=2')).toBe('abc==')
    expect(readCookie('missing', 'a=1')).toBe('')
  })
})

describe('errorFromBody', () => {
  it('uses the API error body: code, message, field', () => {
    const e = errorFromBody(422, JSON.stringify({ error: { code: 'invalid', message: 'url must be https', field: 'url' } }))
    expect(e).toBeInstanceOf(ApiError)
    expect([e.status, e.code, e.message, e.field]).toEqual([422, 'invalid', 'url must be https', 'url'])
  })
  it('falls back to a readable message for non-JSON bodies', () => {
    expect(errorFromBody(503, '<html>bad gateway</html>').message).toMatch(/unavailable/i)
    expect(errorFromBody(418, '').message).toBe('The request failed (HTTP 418).')
  })
})

describe('query', () => {
  it('drops empty values', () => {
    expect(query({ type: 'a.b', status: '', cursor: undefined, limit: 25 })).toBe('?type=a.b&limit=25')
    expect(query({ q: '' })).toBe('')
  })
})

describe('request', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    document.cookie = 'ferry_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT'
  })

  it('echoes the ferry_csrf cookie in X-CSRF-Token on writes only', async () => {
    document.cookie = 'ferry_csrf=tok123'
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ id: 'x' }), { status: 201 }))
    vi.stubGlobal('fetch', fetchMock)
    await api.post('/api-keys', { name: 'k' })
    await api.get('/api-keys')
    const [postURL, postInit] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    const [, getInit] = fetchMock.mock.calls[1] as unknown as [string, RequestInit]
    expect(postURL).toBe('/api/v1/api-keys')
    expect((postInit.headers as Record<string, string>)['X-CSRF-Token']).toBe('tok123')
    expect(postInit.body).toBe('{"name":"k"}')
    expect((getInit.headers as Record<string, string>)['X-CSRF-Token']).toBeUndefined()
  })

  it('throws the API error and notifies on 401', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ error: { code: 'unauthorized', message: 'sign in' } }), { status: 401 })))
    const seen = vi.fn()
    const off = onUnauthorized(seen)
    await expect(api.get('/me')).rejects.toMatchObject({ status: 401, message: 'sign in' })
    expect(seen).toHaveBeenCalledOnce()
    off()
  })

  it('resolves undefined for 204 and reports network failures', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 204 })))
    await expect(api.del('/api-keys/1')).resolves.toBeUndefined()
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch') }))
    await expect(api.get('/me')).rejects.toMatchObject({ code: 'network' })
  })
})
