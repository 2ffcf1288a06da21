// parent.ts is the embedded portal's side of the postMessage channel to
// the host page (embed.js): its content height, and that the session has
// ended so the host fetches a new URL. Every message goes to the host's
// exact origin, never "*"; with no known origin, or no parent frame,
// nothing is posted.

/** ParentMessage is every message the portal posts to the host page. */
export type ParentMessage = { type: 'ferry:height'; height: number } | { type: 'ferry:session-ended' }

/** ParentChannel posts to the host page. */
export interface ParentChannel {
  /** framed reports whether there is a host page to post to. */
  readonly framed: boolean
  /** origin is the host page's exact origin (null when unknown). */
  readonly origin: string | null
  post(m: ParentMessage): void
}

/** parentChannel posts to win.parent with targetOrigin origin; a no-op when not framed or origin is null. */
export function parentChannel(win: Window, origin: string | null): ParentChannel {
  const framed = !!origin && !!win.parent && win.parent !== win
  return {
    framed,
    origin,
    post(m) {
      if (!framed) return
      win.parent.postMessage(m, origin)
    },
  }
}

/** ResizeObserverLike is the part of ResizeObserver watchHeight uses (tests pass their own). */
export type ResizeObserverCtor = new (cb: () => void) => { observe(el: Element): void; disconnect(): void }

/**
 * watchHeight posts el's height (whole CSS pixels) whenever it changes,
 * and once at the start; it returns the function that stops watching.
 */
export function watchHeight(el: HTMLElement, channel: ParentChannel, RO: ResizeObserverCtor | undefined = globalThis.ResizeObserver): () => void {
  if (!channel.framed) return () => {}
  let last = -1
  const send = () => {
    const height = Math.ceil(el.getBoundingClientRect().height)
    if (height === last) return
    last = height
    channel.post({ type: 'ferry:height', height })
  }
  send()
  if (!RO) return () => {}
  const ro = new RO(send)
  ro.observe(el)
  return () => ro.disconnect()
}
