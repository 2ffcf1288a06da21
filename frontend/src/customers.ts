// customers.ts holds the pure logic of the Customers pages: a customer's
// health from its endpoints' counts, its metadata as editable text, the portal
// session a tenant member opens as a customer, and a session's state.
import { FormError } from './endpointForm'
import type { EndpointHealth, PortalSession, PortalSessionInput } from './customerTypes'

/** CustomerHealth sums up a customer's endpoints. */
export interface CustomerHealth {
  total: number
  /** enabled endpoints whose attempts all fail (failing_since set) */
  failing: number
  /** endpoints that are disabled (by a member, or by the customer's deletion) */
  disabled: number
  /** state is the worst of them: none (no endpoint), healthy, failing or disabled. */
  state: 'none' | 'healthy' | 'failing' | 'disabled'
}

/** healthOf gives the counts the API sums up (a customer's `endpoints`) their state. */
export function healthOf(counts: EndpointHealth): CustomerHealth {
  const { total, failing, disabled } = counts
  const state = total === 0 ? 'none' : failing > 0 ? 'failing' : disabled === total ? 'disabled' : 'healthy'
  return { total, failing, disabled, state }
}

/** healthSummary says it in words: "3 endpoints · 1 failing · 1 disabled". */
export function healthSummary(h: CustomerHealth): string {
  if (h.total === 0) return 'No endpoints'
  const parts = [`${h.total} endpoint${h.total === 1 ? '' : 's'}`]
  if (h.failing) parts.push(`${h.failing} failing`)
  if (h.disabled) parts.push(`${h.disabled} disabled`)
  if (!h.failing && !h.disabled) parts.push('all healthy')
  return parts.join(' · ')
}

/** parseMetadata reads "key: value" lines into metadata; it throws a FormError on a line without a colon or a repeated key. */
export function parseMetadata(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return
    const at = line.indexOf(':')
    if (at <= 0 || !line.slice(0, at).trim()) throw new FormError('metadata', `Metadata line ${i + 1} must look like "key: value".`)
    const key = line.slice(0, at).trim()
    if (key in out) throw new FormError('metadata', `Metadata key "${key}" appears twice.`)
    out[key] = line.slice(at + 1).trim()
  })
  return out
}

/** formatMetadata writes metadata as "key: value" lines, keys sorted. */
export function formatMetadata(md: Record<string, string> | null | undefined): string {
  return Object.keys(md ?? {}).sort().map((k) => `${k}: ${md![k]}`).join('\n')
}

/** uidProblem says why uid is not a valid customer uid (the server's rule), or undefined. */
export function uidProblem(uid: string): string | undefined {
  if (!uid) return 'The uid is required.'
  if (uid.length > 256 || !/^[A-Za-z0-9][A-Za-z0-9._:@-]*$/.test(uid)) {
    return 'Use letters, digits and . _ : @ -, starting with a letter or digit.'
  }
  return undefined
}

/** portalCapabilities are every capability a portal session may grant (docs/customer-portal.md). */
export const portalCapabilities = ['view', 'manage_endpoints', 'view_secret', 'rotate_secret', 'replay', 'send_test', 'manage_routing'] as const

/**
 * memberPortalSession is the body that opens the portal as a customer for
 * a tenant member: every capability, and the member as the external user
 * ("tenant:<email>"), so the customer's audit shows who it was.
 */
export function memberPortalSession(email: string): PortalSessionInput {
  return { capabilities: [...portalCapabilities], external_user: { id: `tenant:${email}`, email } }
}

/** sessionState is a portal session's state at now: revoked, expired or active. */
export function sessionState(s: Pick<PortalSession, 'revoked_at' | 'expires_at'>, now: number = Date.now()): 'active' | 'revoked' | 'expired' {
  if (s.revoked_at) return 'revoked'
  return new Date(s.expires_at).getTime() <= now ? 'expired' : 'active'
}
