// endpointName.ts names endpoints for people. An http endpoint is known
// by its URL; a pull queue has none (its url is ""), so it goes by its
// description or, without one, by "Pull queue" and the start of its id.
import type { Endpoint } from './types'

/** NamedEndpoint is what naming needs: full endpoints and the staff console's endpoint refs both fit. */
export type NamedEndpoint = Pick<Endpoint, 'id' | 'url'> & { kind?: Endpoint['kind']; description?: string | null }

/** isQueue reports whether an endpoint is a pull queue (consumers pull; no URL). */
export function isQueue(ep: Pick<NamedEndpoint, 'kind'>): boolean {
  return ep.kind === 'queue'
}

/** shortId is the first 8 characters of an id, enough to tell endpoints apart on screen. */
export function shortId(id: string): string {
  return id.slice(0, 8)
}

function queueName(ep: NamedEndpoint): string {
  return ep.description?.trim() || `Pull queue ${shortId(ep.id)}`
}

/**
 * endpointName is an endpoint's full name, for headings, links and
 * choices: an http endpoint's URL, a queue's description or "Pull queue
 * <short id>"; never empty.
 */
export function endpointName(ep: NamedEndpoint): string {
  if (isQueue(ep)) return queueName(ep)
  return ep.url || ep.description?.trim() || `Endpoint ${shortId(ep.id)}`
}

/**
 * endpointShortName is a compact name, for badges: the description when
 * set, else the URL's host and path (no query, which may hold a token or
 * read [redacted]), else the queue's name.
 */
export function endpointShortName(ep: NamedEndpoint): string {
  if (isQueue(ep)) return queueName(ep)
  const d = ep.description?.trim()
  if (d) return d
  if (!ep.url) return `Endpoint ${shortId(ep.id)}`
  try {
    const u = new URL(ep.url)
    return u.host + (u.pathname === '/' ? '' : u.pathname)
  } catch {
    return ep.url
  }
}
