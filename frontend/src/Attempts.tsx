// Attempts.tsx renders an attempt timeline: outcome, status, latency,
// trigger, and on demand the request/response headers and response body.
import { Badge } from './components'
import { formatDuration, formatTime, prettyJSON, relativeTime } from './format'
import { Link } from './router'
import type { Attempt } from './types'

/** errorClassLabels name the error classes that are no transport error:
 * the endpoint's transformation stopped the delivery before any request. */
export const errorClassLabels: Record<string, string> = {
  transformation_error: 'Transformation failed (no request made)',
  transformation_cancelled: 'Cancelled by the transformation (no request made)',
}

/** attemptSummary is a one-line description of what happened. */
export function attemptSummary(a: Pick<Attempt, 'response_status' | 'error_class' | 'error_message'>): string {
  if (a.response_status) return `HTTP ${a.response_status}`
  const label = errorClassLabels[a.error_class ?? '']
  if (label) return a.error_class === 'transformation_error' && a.error_message ? `${label}: ${a.error_message}` : label
  if (a.error_class || a.error_message) return [a.error_class, a.error_message].filter(Boolean).join(': ')
  return 'no response'
}

function Headers({ h }: { h: Record<string, string[]> | null }) {
  const entries = Object.entries(h ?? {})
  if (entries.length === 0) return <p className="muted">none</p>
  return (
    <pre className="code">
      {entries.map(([k, v]) => `${k}: ${(Array.isArray(v) ? v : [v]).join(', ')}`).join('\n')}
    </pre>
  )
}

/** OutcomeSelect picks the attempt outcome an attempt log shows ('' for every outcome, labelled anyLabel). */
export function OutcomeSelect({ id, value, onChange, anyLabel }: { id: string; value: string; onChange: (outcome: string) => void; anyLabel: string }) {
  return (
    <>
      <label htmlFor={id}>Outcome</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{anyLabel}</option>
        <option value="success">success</option>
        <option value="retry">retry</option>
        <option value="dropped">dropped</option>
      </select>
    </>
  )
}

export function AttemptList({ attempts, showEvent, eventHref }: { attempts: Attempt[]; showEvent?: boolean; eventHref?: (id: string) => string }) {
  if (attempts.length === 0) return null
  return (
    <ol className="timeline" aria-label="Attempts">
      {attempts.map((a) => (
        <li key={a.id} className={`timeline-item outcome-${a.outcome}`} data-testid="attempt">
          <details>
            <summary>
              <span className="t-num">#{a.attempt_number}</span>
              <Badge status={a.outcome} />
              <span className="t-status">{attemptSummary(a)}</span>
              <span className="t-latency" title="latency">{formatDuration(a.duration_ms)}</span>
              <span className="muted t-when" title={formatTime(a.started_at)}>{relativeTime(a.started_at)}</span>
              <span className="muted t-trigger">{a.trigger}{a.actor ? ` by ${a.actor}` : ''}</span>
              {showEvent && <span className="muted t-event" title={a.event_id}>event <code>{a.event_id.slice(0, 8)}</code></span>}
              <span className="t-open" aria-hidden="true">Details</span>
            </summary>
            <div className="t-body">
              <dl className="props">
                <dt>Started</dt><dd>{formatTime(a.started_at)}</dd>
                <dt>Latency</dt><dd>{formatDuration(a.duration_ms)}</dd>
                {showEvent && (<><dt>Event</dt><dd><Link href={eventHref ? eventHref(a.event_id) : `/events/${a.event_id}`}><code>{a.event_id}</code></Link></dd></>)}
                {a.next_attempt_at && (<><dt>Next attempt</dt><dd>{formatTime(a.next_attempt_at)}</dd></>)}
                {a.error_message && (<><dt>Error</dt><dd className={errorClassLabels[a.error_class ?? ''] ? 'transformation-error' : undefined}>{a.error_class ? `${a.error_class}: ` : ''}{a.error_message}</dd></>)}
              </dl>
              <h4>Response body</h4>
              {a.response_body ? <pre className="code" data-testid="response-body">{prettyJSON(a.response_body)}</pre> : <p className="muted">empty</p>}
              {a.response_body_truncated && <p className="muted" data-testid="response-body-truncated">Truncated: only the first 4 KiB are kept.</p>}
              <h4>Response headers</h4>
              <Headers h={a.response_headers} />
              {a.response_headers_truncated && <p className="muted" data-testid="response-headers-truncated">Truncated: some headers were left out (8 KiB are kept).</p>}
              <h4>Request headers</h4>
              <Headers h={a.request_headers} />
            </div>
          </details>
        </li>
      ))}
    </ol>
  )
}
