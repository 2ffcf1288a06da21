// session.tsx holds who is signed in (GET /api/v1/me) for the whole app.
import { createContext, useContext } from 'react'
import type { Me } from './types'

export interface Session {
  me: Me
  /** refresh re-reads /me (after sign-in). */
  refresh: () => Promise<void>
  signOut: () => Promise<void>
}

export const SessionContext = createContext<Session | null>(null)

/** useSession returns the signed-in session; only used below the signed-in shell. */
export function useSession(): Session {
  const s = useContext(SessionContext)
  if (!s) throw new Error('useSession outside a signed-in page')
  return s
}

/** canWrite reports whether a tenant role may change things (owner, admin). */
export function canWrite(role: string | undefined): boolean {
  return role === 'owner' || role === 'admin'
}
