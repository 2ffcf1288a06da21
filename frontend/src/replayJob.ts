// replayJob.ts reads a bulk replay job's progress leniently, whatever the
// exact counter names the API uses.
import type { ReplayJob } from './types'

export interface JobProgress {
  state: string
  done: number
  total: number
  finished: boolean
}

const finishedStates = new Set(['completed', 'succeeded', 'done', 'cancelled', 'canceled', 'failed'])

/** jobProgress extracts state and counters from a replay job. */
export function jobProgress(job: ReplayJob): JobProgress {
  const state = job.state ?? job.status ?? 'queued'
  const done = job.done ?? job.replayed ?? job.processed ?? 0
  const total = Math.max(job.total ?? 0, done)
  return { state, done, total, finished: finishedStates.has(state) }
}

/** bulkReplayBody builds POST /api/v1/replays from the form, leaving out empty fields. */
export function bulkReplayBody(f: { endpointId: string; eventType: string; since: string; until: string; status: string; reason?: string }) {
  const body: Record<string, string> = {}
  if (f.endpointId) body.endpoint_id = f.endpointId
  if (f.eventType.trim()) body.event_type = f.eventType.trim()
  if (f.since) body.since = f.since
  if (f.until) body.until = f.until
  if (f.status) body.status = f.status
  if (f.reason !== undefined) body.reason = f.reason.trim()
  return body
}
