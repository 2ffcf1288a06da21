// launch.ts reads what the embedded portal starts from: the session id in
// the path (/embed/{session_id}) and, in the URL fragment, the single-use
// code and the host page's origin (added by embed.js). The fragment is
// removed from the address at once, so the code is in no history entry,
// bookmark or screenshot of the address bar.

/** EMBED_PREFIX is the path under which Ferry serves the embedded portal. */
export const EMBED_PREFIX = '/embed/'

/** Launch is what the page was opened with. */
export interface Launch {
  /** sessionId is the portal session's id from the path. */
  sessionId: string
  /** code is the single-use code to exchange ("" when the URL had none, e.g. after a reload). */
  code: string
  /** parentOrigin is the host page's exact origin, or null when unknown or not a web origin. */
  parentOrigin: string | null
}

/** isEmbedPath reports whether a path is the embedded portal's (/embed/{session_id}…). */
export function isEmbedPath(path: string): boolean {
  return embedSessionId(path) !== null
}

/** embedSessionId returns the session id of /embed/{session_id}[/…], or null. */
export function embedSessionId(path: string): string | null {
  if (!path.startsWith(EMBED_PREFIX)) return null
  const id = path.slice(EMBED_PREFIX.length).split('/')[0]
  return id ? decodeURIComponent(id) : null
}

/** embedBase is the path the embedded portal's pages live under. */
export function embedBase(sessionId: string): string {
  return EMBED_PREFIX + encodeURIComponent(sessionId)
}

/**
 * exactOrigin returns o when it is exactly a web origin (http or https,
 * scheme://host[:port], no path, query or trailing slash), else null: the
 * portal posts to the host page only with its exact origin, never "*".
 */
export function exactOrigin(o: string | null | undefined): string | null {
  if (!o) return null
  let u: URL
  try {
    u = new URL(o)
  } catch {
    return null
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null
  return u.origin === o ? o : null
}

/** parseFragment reads code= and origin= from a location.hash ("#code=…&origin=…"). */
export function parseFragment(hash: string): { code: string; origin: string | null } {
  const p = new URLSearchParams(hash.replace(/^#/, ''))
  return { code: p.get('code') ?? '', origin: exactOrigin(p.get('origin')) }
}

/**
 * readLaunch reads the launch from the window's address and removes the
 * fragment from it (history.replaceState, no navigation). Call it once, at
 * startup, before anything else can read or log the address.
 */
export function readLaunch(win: Pick<Window, 'location' | 'history'>): Launch {
  const { pathname, search, hash } = win.location
  const { code, origin } = parseFragment(hash)
  if (hash) win.history.replaceState(win.history.state, '', pathname + search)
  return { sessionId: embedSessionId(pathname) ?? '', code, parentOrigin: origin }
}
