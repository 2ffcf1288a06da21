// launch.ts reads what the embedded portal starts from: the session id in
// the path (/embed/{session_id}), the single-use code in the URL fragment,
// and the host page's origin in the query (?origin=, added by embed.js; in
// the fragment in links minted before). The fragment is removed from the
// address at once, so the code is in no history entry, bookmark or
// screenshot of the address bar; the query stays, so a reloaded frame still
// knows whom to tell that it needs a new session.

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

/** parseQuery reads origin= from a location.search ("?origin=…"). */
export function parseQuery(search: string): { origin: string | null } {
  return { origin: exactOrigin(new URLSearchParams(search.replace(/^\?/, '')).get('origin')) }
}

/**
 * readLaunch reads the launch from the window's address and removes the
 * fragment from it (history.replaceState, no navigation). Call it once, at
 * startup, before anything else can read or log the address. The host's
 * origin comes from the query, else (older links) from the fragment.
 */
export function readLaunch(win: Pick<Window, 'location' | 'history'>): Launch {
  const { pathname, search, hash } = win.location
  const { code, origin: fragmentOrigin } = parseFragment(hash)
  if (hash) win.history.replaceState(win.history.state, '', pathname + search)
  const origin = parseQuery(search).origin ?? fragmentOrigin
  return { sessionId: embedSessionId(pathname) ?? '', code, parentOrigin: origin }
}

/**
 * keepOrigin returns the search string of the current address with
 * origin=<origin> added when it lacks it (or null when nothing changes):
 * the portal's own links drop the query, and a reload must still find it.
 */
export function keepOrigin(search: string, origin: string | null): string | null {
  if (!origin) return null
  const p = new URLSearchParams(search.replace(/^\?/, ''))
  if (p.get('origin') === origin) return null
  p.set('origin', origin)
  return '?' + p.toString()
}
