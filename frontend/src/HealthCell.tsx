// HealthCell.tsx shows an endpoint's health (state, success rate, last
// success, failing since, next retry) instead of a bare "enabled".
import { Badge } from './components'
import { formatPercent, formatTime, relativeTime } from './format'
import { waitingText, type Health } from './stats'

/** HealthCell is the compact form, for tables. */
export function HealthCell({ health, window }: { health: Health; window: string }) {
  return (
    <div className="health">
      <Badge status={health.state} />
      {Number.isNaN(health.rate)
        ? waitingText(health) && <small>none finished yet; {waitingText(health)}</small>
        : <small>{formatPercent(health.rate)} delivered ({window})</small>}
      {health.failingSince && <small className="muted" title={formatTime(health.failingSince)}>failing since {relativeTime(health.failingSince)}</small>}
      {health.lastSuccessAt && <small className="muted" title={formatTime(health.lastSuccessAt)}>last success {relativeTime(health.lastSuccessAt)}</small>}
      {health.nextRetryAt && <small className="muted" title={formatTime(health.nextRetryAt)}>next retry {relativeTime(health.nextRetryAt)}</small>}
    </div>
  )
}
