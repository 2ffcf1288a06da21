// CustomerHealth.tsx loads a customer's endpoints and shows how many are
// failing or disabled.
import { useEffect, useState } from 'react'
import { api, query, type Page } from './api'
import { Badge } from './components'
import { customerHealth, healthSummary, type CustomerHealth } from './customers'
import type { Endpoint } from './types'

/** customerEndpoints reads a customer's endpoints (the first 200: the health of a list row). */
export async function customerEndpoints(uid: string): Promise<{ endpoints: Endpoint[]; more: boolean }> {
  const p = await api.get<Page<Endpoint>>('/endpoints' + query({ customer: uid, limit: 200 }))
  return { endpoints: p.data, more: !!p.next_cursor }
}

/** HealthBadge shows a customer's health state and its summary line. */
export function HealthBadge({ health }: { health: CustomerHealth }) {
  return (
    <div className="health" data-testid="customer-health">
      {health.state !== 'none' && <Badge status={health.state} />}
      <small className={health.state === 'none' ? 'muted' : undefined}>{healthSummary(health)}</small>
    </div>
  )
}

/** CustomerHealthCell is a list row's health: it loads the customer's endpoints itself. */
export function CustomerHealthCell({ uid }: { uid: string }) {
  const [health, setHealth] = useState<CustomerHealth | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    customerEndpoints(uid).then(
      (r) => live && setHealth(customerHealth(r.endpoints, r.more)),
      () => live && setFailed(true),
    )
    return () => { live = false }
  }, [uid])
  if (failed) return <small className="muted">Health could not be loaded</small>
  if (!health) return <small className="muted">Loading…</small>
  return <HealthBadge health={health} />
}
