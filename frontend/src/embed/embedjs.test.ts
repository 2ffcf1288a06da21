// embed.js (public/embed.js, served at /embed.js): the iframe it makes, the
// host's origin it adds to the query, and the messages it listens to:
// from the portal's origin and its iframe only.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import source from '../../public/embed.js?raw'

type Mounted = { iframe: HTMLIFrameElement; reload: () => void; unmount: () => void }
declare global {
  interface Window {
    FerryPortal: { mount: (el: Element, o: { getUrl: () => Promise<string>; onError?: (e: unknown) => void; minHeight?: number }) => Mounted; version: number }
  }
}

beforeAll(() => {
  // Run as the host page runs it: a classic script in the page's global scope.
  ;(0, eval)(source)
})

let mounted: Mounted[] = []
afterEach(() => {
  mounted.forEach((m) => m.unmount())
  mounted = []
  vi.useRealTimers()
})

const PORTAL = 'https://ferry.example'
const url = (sid: string) => `${PORTAL}/embed/${sid}#code=c_${sid}`
const settle = () => new Promise((r) => setTimeout(r, 0))

async function mount(getUrl: () => Promise<string>, extra = {}) {
  const el = document.createElement('div')
  document.body.appendChild(el)
  const m = window.FerryPortal.mount(el, { getUrl, ...extra })
  mounted.push(m)
  await settle()
  await settle()
  return m
}

/** from sends a message as if from a window at origin. */
function from(source: Window | null, origin: string, data: unknown) {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }))
}

describe('embed.js', () => {
  it('mounts an iframe on the URL with this page\'s origin added to the query, the fragment last', async () => {
    const m = await mount(async () => url('ps_1'))
    expect(m.iframe.getAttribute('allow')).toBe('clipboard-write')
    expect(m.iframe.hasAttribute('sandbox')).toBe(false)
    expect(m.iframe.title).toBe('Webhooks')
    const src = new URL(m.iframe.src)
    expect(src.origin + src.pathname).toBe(`${PORTAL}/embed/ps_1`)
    expect(src.searchParams.get('origin')).toBe(window.location.origin)
    const frag = new URLSearchParams(src.hash.slice(1))
    expect(frag.get('code')).toBe('c_ps_1')
    expect(frag.has('origin')).toBe(false)
    expect(m.iframe.src).toBe(`${PORTAL}/embed/ps_1?origin=${encodeURIComponent(window.location.origin)}#code=c_ps_1`)
  })

  it('resizes on ferry:height from the portal in its iframe only', async () => {
    const m = await mount(async () => url('ps_1'), { minHeight: 321 })
    expect(m.iframe.style.height).toBe('321px')
    const frame = m.iframe.contentWindow
    from(frame, 'https://evil.example', { type: 'ferry:height', height: 900 })
    from(frame, 'https://ferry.example.evil.test', { type: 'ferry:height', height: 901 })
    from(frame, 'http://ferry.example', { type: 'ferry:height', height: 902 })
    from(window, PORTAL, { type: 'ferry:height', height: 903 }) // right origin, not the iframe
    from(null, PORTAL, { type: 'ferry:height', height: 904 })
    expect(m.iframe.style.height).toBe('321px')
    from(frame, PORTAL, { type: 'ferry:height', height: 'a lot' })
    from(frame, PORTAL, { type: 'ferry:height', height: -5 })
    from(frame, PORTAL, 'ferry:height')
    expect(m.iframe.style.height).toBe('321px')
    from(frame, PORTAL, { type: 'ferry:height', height: 612.4 })
    expect(m.iframe.style.height).toBe('613px')
  })

  it('on ferry:session-ended from the portal, asks for a new URL and loads it; from elsewhere, ignores it', async () => {
    let n = 0
    const getUrl = vi.fn(async () => url(`ps_${++n}`))
    const m = await mount(getUrl)
    expect(getUrl).toHaveBeenCalledTimes(1)
    from(m.iframe.contentWindow, 'https://evil.example', { type: 'ferry:session-ended' })
    from(window, PORTAL, { type: 'ferry:session-ended' })
    await settle()
    expect(getUrl).toHaveBeenCalledTimes(1)
    vi.useFakeTimers()
    from(m.iframe.contentWindow, PORTAL, { type: 'ferry:session-ended' })
    await vi.advanceTimersByTimeAsync(1000)
    expect(getUrl).toHaveBeenCalledTimes(2)
    expect(new URL(m.iframe.src).pathname).toBe('/embed/ps_2')
  })

  it('backs off when sessions keep ending right after they start', async () => {
    let n = 0
    const getUrl = vi.fn(async () => url(`ps_${++n}`))
    const m = await mount(getUrl)
    vi.useFakeTimers()
    const end = () => from(m.iframe.contentWindow, PORTAL, { type: 'ferry:session-ended' })
    end() // 1st quick end: 1 s
    await vi.advanceTimersByTimeAsync(999)
    expect(getUrl).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(getUrl).toHaveBeenCalledTimes(2)
    end() // 2nd: 2 s
    await vi.advanceTimersByTimeAsync(1999)
    expect(getUrl).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(getUrl).toHaveBeenCalledTimes(3)
    // A session that lived a while: straight away again.
    await vi.advanceTimersByTimeAsync(60_000)
    end()
    await vi.advanceTimersByTimeAsync(0)
    expect(getUrl).toHaveBeenCalledTimes(4)
  })

  it('refuses a getUrl answer that is no http(s) URL, and stops listening when unmounted', async () => {
    const onError = vi.fn()
    const bad = await mount(async () => 'javascript:alert(1)', { onError })
    expect(onError).toHaveBeenCalledTimes(1)
    expect(bad.iframe.getAttribute('src')).toBeNull()
    const m = await mount(async () => url('ps_1'), { minHeight: 200 })
    const frame = m.iframe.contentWindow
    m.unmount()
    from(frame, PORTAL, { type: 'ferry:height', height: 700 })
    expect(m.iframe.style.height).toBe('200px')
    expect(m.iframe.isConnected).toBe(false)
  })

  it('requires an element and getUrl', () => {
    expect(() => window.FerryPortal.mount(null as unknown as Element, { getUrl: async () => '' })).toThrow(TypeError)
    expect(() => window.FerryPortal.mount(document.body, {} as never)).toThrow(/getUrl/)
  })
})
