// The launch: the session id from the path, the code from the fragment,
// which is removed from the address at once, the host's origin from the
// query (or the fragment of older links); and the
// channel to the host page, which posts to that exact origin only.
import { describe, expect, it, vi } from 'vitest'
import { can, canCreateEndpoint } from './capabilities'
import { embedSessionId, exactOrigin, isEmbedPath, keepOrigin, parseFragment, parseQuery, readLaunch } from './launch'
import { parentChannel, watchHeight } from './parent'
import { contrast, logoUrl, parseHex, themeStyle } from './theme'

describe('launch', () => {
  it('knows the embed paths', () => {
    expect(isEmbedPath('/embed/ps_1')).toBe(true)
    expect(isEmbedPath('/embed/ps_1/messages/ev_1')).toBe(true)
    expect(embedSessionId('/embed/ps_1/messages')).toBe('ps_1')
    expect(isEmbedPath('/embed/')).toBe(false)
    expect(isEmbedPath('/endpoints')).toBe(false)
    expect(isEmbedPath('/embedded')).toBe(false)
  })

  it('accepts only an exact web origin for the host page', () => {
    expect(exactOrigin('https://app.acme.test')).toBe('https://app.acme.test')
    expect(exactOrigin('http://localhost:5173')).toBe('http://localhost:5173')
    for (const bad of ['*', 'null', '', 'https://app.acme.test/', 'https://app.acme.test/path', 'javascript:alert(1)', 'file:///x', 'HTTPS://APP.acme.test', 'app.acme.test']) {
      expect(exactOrigin(bad), bad).toBeNull()
    }
    expect(parseFragment('#code=abc_-1&origin=https%3A%2F%2Fapp.acme.test')).toEqual({ code: 'abc_-1', origin: 'https://app.acme.test' })
    expect(parseFragment('#code=abc&origin=*')).toEqual({ code: 'abc', origin: null })
    expect(parseFragment('')).toEqual({ code: '', origin: null })
  })

  it('reads the host origin from the query, keeps the query and drops the fragment', () => {
    window.history.replaceState(null, '', '/embed/ps_8?origin=https%3A%2F%2Fapp.acme.test#code=secret')
    expect(readLaunch(window)).toEqual({ sessionId: 'ps_8', code: 'secret', parentOrigin: 'https://app.acme.test' })
    expect(window.location.hash).toBe('')
    expect(window.location.search).toBe('?origin=https%3A%2F%2Fapp.acme.test')
    // A reload: no code, the origin is still there.
    expect(readLaunch(window)).toEqual({ sessionId: 'ps_8', code: '', parentOrigin: 'https://app.acme.test' })
    expect(parseQuery('?origin=*').origin).toBeNull()
    expect(parseQuery('?origin=https%3A%2F%2Fapp.acme.test%2F').origin).toBeNull()
    expect(parseQuery('').origin).toBeNull()
  })

  it('the query wins over the fragment; a bad query origin falls back to none, not to "*"', () => {
    window.history.replaceState(null, '', '/embed/ps_7?origin=https%3A%2F%2Fa.test#code=c&origin=https%3A%2F%2Fb.test')
    expect(readLaunch(window).parentOrigin).toBe('https://a.test')
    window.history.replaceState(null, '', '/embed/ps_7?origin=javascript%3Aalert(1)#code=c')
    expect(readLaunch(window).parentOrigin).toBeNull()
  })

  it('puts the origin back into an address whose query lost it', () => {
    expect(keepOrigin('', 'https://app.acme.test')).toBe('?origin=https%3A%2F%2Fapp.acme.test')
    expect(keepOrigin('?created=1', 'https://app.acme.test')).toBe('?created=1&origin=https%3A%2F%2Fapp.acme.test')
    expect(keepOrigin('?origin=https%3A%2F%2Fapp.acme.test', 'https://app.acme.test')).toBeNull()
    expect(keepOrigin('', null)).toBeNull()
  })

  it('removes the fragment from the address before returning (links with the origin in the fragment)', () => {
    window.history.replaceState({ keep: 1 }, '', '/embed/ps_9?x=1#code=secret&origin=http%3A%2F%2Flocalhost%3A4000')
    const launch = readLaunch(window)
    expect(launch).toEqual({ sessionId: 'ps_9', code: 'secret', parentOrigin: 'http://localhost:4000' })
    expect(window.location.hash).toBe('')
    expect(window.location.href).not.toContain('secret')
    expect(window.location.pathname + window.location.search).toBe('/embed/ps_9?x=1')
    expect(window.history.state).toEqual({ keep: 1 })
  })
})

/** framedWindow is a window whose parent is another window with a postMessage spy. */
function framedWindow() {
  const postMessage = vi.fn()
  return { win: { parent: { postMessage } } as unknown as Window, postMessage }
}

describe('parent channel', () => {
  it('posts to the exact origin it was given', () => {
    const { win, postMessage } = framedWindow()
    parentChannel(win, 'https://app.acme.test').post({ type: 'ferry:session-ended' })
    expect(postMessage).toHaveBeenCalledWith({ type: 'ferry:session-ended' }, 'https://app.acme.test')
  })

  it('posts nothing without an origin, or when not framed', () => {
    const { win, postMessage } = framedWindow()
    const none = parentChannel(win, null)
    none.post({ type: 'ferry:session-ended' })
    expect(none.framed).toBe(false)
    expect(postMessage).not.toHaveBeenCalled()
    const top = { postMessage: vi.fn() } as unknown as Window & { parent: Window }
    top.parent = top
    parentChannel(top, 'https://app.acme.test').post({ type: 'ferry:height', height: 1 })
    expect(top.postMessage).not.toHaveBeenCalled()
  })

  it('posts the height at the start and when it changes, not when it stays', () => {
    const { win, postMessage } = framedWindow()
    let height = 300.2
    const el = { getBoundingClientRect: () => ({ height }) } as HTMLElement
    let fire = () => {}
    class RO {
      constructor(cb: () => void) { fire = cb }
      observe() {}
      disconnect() {}
    }
    watchHeight(el, parentChannel(win, 'https://app.acme.test'), RO)
    fire()
    height = 480
    fire()
    expect(postMessage.mock.calls).toEqual([
      [{ type: 'ferry:height', height: 301 }, 'https://app.acme.test'],
      [{ type: 'ferry:height', height: 480 }, 'https://app.acme.test'],
    ])
  })
})

describe('capabilities', () => {
  const s = { capabilities: ['view', 'manage_endpoints', 'replay'], read_only: false, endpoint_ids: null }
  it('grants view always and what the session lists', () => {
    expect(can({ ...s, capabilities: [] }, 'view')).toBe(true)
    expect(can(s, 'replay')).toBe(true)
    expect(can(s, 'view_secret')).toBe(false)
    expect(canCreateEndpoint(s)).toBe(true)
  })
  it('read_only drops everything but view', () => {
    const ro = { ...s, read_only: true }
    expect(can(ro, 'view')).toBe(true)
    expect(can(ro, 'manage_endpoints')).toBe(false)
    expect(can(ro, 'replay')).toBe(false)
    expect(canCreateEndpoint(ro)).toBe(false)
  })
  it('a session scoped to some endpoints creates none', () => {
    expect(canCreateEndpoint({ ...s, endpoint_ids: ['ep_1'] })).toBe(false)
  })
})

describe('theme', () => {
  it('takes #rgb and #rrggbb colours only', () => {
    expect(parseHex('#0af')).toEqual([0, 170, 255])
    expect(parseHex('#112233')).toEqual([17, 34, 51])
    for (const bad of ['red', '#12345', 'url(x)', '#123;background:red', '', null]) expect(parseHex(bad)).toBeNull()
    expect(themeStyle({ primary_color: 'red; background: url(//evil)' }).vars).toEqual({})
  })
  it('picks a text colour that reads on the primary, and a link colour that reads on the background', () => {
    const light = themeStyle({ primary_color: '#fde047' })
    expect(light.vars['--on-primary']).toBe('#000000')
    const dark = themeStyle({ primary_color: '#1d4ed8', dark: true })
    expect(dark.dark).toBe(true)
    expect(dark.vars['--on-primary']).toBe('#ffffff')
    expect(contrast(parseHex(dark.vars['--link'])!, [17, 24, 39])).toBeGreaterThanOrEqual(4.5)
    expect(contrast(parseHex(light.vars['--link'])!, [246, 247, 249])).toBeGreaterThanOrEqual(4.5)
  })
  it('takes an http(s) logo only', () => {
    expect(logoUrl({ logo_url: 'https://cdn.acme.test/logo.svg' })).toBe('https://cdn.acme.test/logo.svg')
    expect(logoUrl({ logo_url: 'javascript:alert(1)' })).toBeNull()
    expect(logoUrl({ logo_url: 'data:image/svg+xml,<svg/>' })).toBeNull()
    expect(logoUrl(null)).toBeNull()
  })
})
