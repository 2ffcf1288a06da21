// types.ts names the JSON shapes of the portal session routes
// (/api/v1/portal/exchange, /renew, /session, /recover; docs/customer-portal.md).
// The portal's endpoint, event, attempt and stats routes answer the same
// JSON as the tenant routes of the same name, so those types come from
// ../types (generated from the OpenAPI document). These few are written by
// hand until the portal routes are in openapi.json; then they become
// aliases of its schemas, as ../types does.

/** Capability is what a portal session's user may do; `view` is always granted. */
export type Capability = 'view' | 'manage_endpoints' | 'view_secret' | 'rotate_secret' | 'replay' | 'send_test' | 'manage_routing'

/** PortalTheme is the tenant's look, with the session's overrides. */
export interface PortalTheme {
  logo_url?: string | null
  primary_color?: string | null
  dark?: boolean | null
}

/** PortalSession is GET /api/v1/portal/session (and the session of the exchange). */
export interface PortalSession {
  customer: { uid: string; name: string }
  capabilities: string[]
  read_only: boolean
  /** null: every endpoint of the customer; else only these (and none may be created). */
  endpoint_ids: string[] | null
  theme: PortalTheme | null
  external_user: { id: string; email?: string | null }
  expires_at: string
}

/** PortalToken is a bearer token for /api/v1/portal/* and when it expires. */
export interface PortalToken {
  token: string
  token_expires_at: string
}

/** Exchanged is POST /api/v1/portal/exchange's answer. */
export interface Exchanged extends PortalToken {
  session: PortalSession
}

/** RecoverInput is the body of POST /portal/recover/preview and /portal/recover. */
export interface RecoverInput {
  endpoint_id: string
  /** RFC 3339 */
  since: string
}

/** RecoverCount is the answer of both recover routes: deliveries counted, or queued. */
export interface RecoverCount {
  count: number
}
