// CustomerHealth.tsx shows a customer's health: how many of its endpoints
// are failing or disabled, from the counts the API sums up.
import { api, query, type Page } from './api'
import { Badge } from './components'
import { healthSummary, type CustomerHealth } from './customers'
import type { Endpoint } from './types'

/** customerEndpoints reads a customer's endpoints (the first 200, for its page). */
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
