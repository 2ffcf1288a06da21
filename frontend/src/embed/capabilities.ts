// capabilities.ts decides what the embedded portal offers: a page shows
// an action only when the session may use it (the server checks again and
// answers 403 otherwise).
import type { Capability, PortalSession } from './types'

/** can reports whether the session may use a capability: `view` always, nothing else when read_only. */
export function can(session: Pick<PortalSession, 'capabilities' | 'read_only'>, cap: Capability): boolean {
  if (cap === 'view') return true
  if (session.read_only) return false
  return session.capabilities.includes(cap)
}

/** canCreateEndpoint: manage_endpoints, and a session not scoped to given endpoints. */
export function canCreateEndpoint(session: Pick<PortalSession, 'capabilities' | 'read_only' | 'endpoint_ids'>): boolean {
  return can(session, 'manage_endpoints') && session.endpoint_ids == null
}
