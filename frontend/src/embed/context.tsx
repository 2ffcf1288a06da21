// context.tsx hands the embedded portal's pages their session: the API
// client, what the session may do, and where its pages live.
import { createContext, useContext } from 'react'
import { can } from './capabilities'
import type { PortalClient } from './client'
import type { Capability, PortalSession } from './types'

/** Portal is what every embedded page needs. */
export interface Portal {
  client: PortalClient
  session: PortalSession
  /** can reports whether the session may use a capability. */
  can: (cap: Capability) => boolean
  /** href turns a page path ("/messages/1") into its address under /embed/{session_id}. */
  href: (path: string) => string
}

export const PortalContext = createContext<Portal | null>(null)

/** usePortal returns the session; only used inside the embedded app. */
export function usePortal(): Portal {
  const p = useContext(PortalContext)
  if (!p) throw new Error('usePortal outside the embedded portal')
  return p
}

/** portalOf builds the context value of a session. */
export function portalOf(client: PortalClient, session: PortalSession, base: string): Portal {
  return {
    client,
    session,
    can: (cap) => can(session, cap),
    href: (path) => (path === '/' || path === '' ? base : base + path),
  }
}
