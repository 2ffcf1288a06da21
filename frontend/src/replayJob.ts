// replayJob.ts reads a bulk replay job's progress and builds the body that
// starts one; both follow the API's types (ReplayJob, BulkReplayInput).
import { formatTime } from './format'
import type { BulkReplayInput, DeliveryStatus, ReplayJob, ReplayState, StaffReplayInput } from './types'

export interface JobProgress {
  state: ReplayState
  done: number
  total: number
  finished: boolean
}

const finishedStates: ReadonlySet<ReplayState> = new Set<ReplayState>(['completed', 'cancelled', 'failed'])

/** jobProgress extracts state and counters from a replay job. */
export function jobProgress(job: Pick<ReplayJob, 'state' | 'done' | 'total'>): JobProgress {
  return { state: job.state, done: job.done, total: Math.max(job.total, job.done), finished: finishedStates.has(job.state) }
}

/** ReplayBody starts a bulk replay: the filters, and for staff the reason. */
export type ReplayBody = BulkReplayInput & Partial<Pick<StaffReplayInput, 'reason'>>

/** StatusChoice is the bulk replay form's status: unchosen (""), any status, or one. */
export type StatusChoice = '' | 'any' | DeliveryStatus

/** statusChoices are the statuses a bulk replay offers, each saying what it means. */
export const statusChoices: readonly { value: Exclude<StatusChoice, ''>; label: string }[] = [
  { value: 'exhausted', label: 'exhausted (retries used up)' },
  { value: 'dropped', label: 'dropped (refused by the receiver)' },
  { value: 'retrying', label: 'retrying' },
  { value: 'succeeded', label: 'succeeded' },
  { value: 'pending', label: 'pending' },
  { value: 'any', label: 'any status' },
]

/** bulkReplayBody builds POST /api/v1/replays from the form, leaving out empty fields ("any" status sends none). */
export function bulkReplayBody(f: { endpointId: string; eventType: string; since: string; until: string; status: StatusChoice; reason?: string }): ReplayBody {
  const body: ReplayBody = {}
  if (f.endpointId) body.endpoint_id = f.endpointId
  if (f.eventType.trim()) body.event_type = f.eventType.trim()
  if (f.since) body.since = f.since
  if (f.until) body.until = f.until
  if (f.status && f.status !== 'any') body.status = f.status
  if (f.reason !== undefined) body.reason = f.reason.trim()
  return body
}

/**
 * replayScope says in words which deliveries a bulk replay form selects
 * ("status exhausted, to every endpoint, since …"), for its confirmation.
 * since and until are the form's datetime-local values; endpoint is the
 * chosen endpoint's name (undefined: every endpoint).
 */
export function replayScope(f: { status: StatusChoice; endpoint?: string; eventType: string; since: string; until: string }): string {
  const parts = [f.status === 'any' || !f.status ? 'any status' : `status ${f.status}`, f.endpoint ? `to ${f.endpoint}` : 'to every endpoint']
  if (f.eventType.trim()) parts.push(`event type ${f.eventType.trim()}`)
  if (f.since) parts.push(`since ${formatTime(f.since)}`)
  if (f.until) parts.push(`until ${formatTime(f.until)}`)
  return parts.join(', ')
}
