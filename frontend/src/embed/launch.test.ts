// The launch: the session id from the path, the code and the host's origin
// from the fragment, which is removed from the address at once; and the
// channel to the host page, which posts to that exact origin only.
import { describe, expect, it, vi } from 'vitest'
import { can, canCreateEndpoint } from './capabilities'
import { embedSessionId, exactOrigin, isEmbedPath, parseFragment, readLaunch } from './launch'
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

  it('removes the fragment from the address before returning', () => {
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
