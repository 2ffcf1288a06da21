// Replays.tsx: bulk replay by endpoint, event type, time range and status.
import { useCallback, useEffect, useState } from 'react'
import { api, query, type Page } from '../api'
import { BulkReplay } from '../BulkReplay'
import { Badge, Empty, ErrorMessage, Loading, Pager, ProgressBar } from '../components'
import { formatTime } from '../format'
import { usePaged } from '../paging'
import { jobProgress, type ReplayBody } from '../replayJob'
import { Link } from '../router'
import { canWrite, useSession } from '../session'
import type { Endpoint, ReplayJob, ReplayPreview } from '../types'

const getJob = (id: string) => api.get<ReplayJob>(`/replays/${id}`)
const cancelJob = (id: string) => api.post(`/replays/${id}/cancel`)
const startJob = (body: ReplayBody) => api.post<ReplayJob>('/replays', body)
const previewJob = (body: ReplayBody) => api.post<ReplayPreview>('/replays/preview', body)

export function ReplaysPage() {
  const { me } = useSession()
  const [endpoints, setEndpoints] = useState<Endpoint[]>([])
  const [error, setError] = useState<unknown>(null)
  // version changes whenever a job starts or changes state, so the list
  // below reloads and always shows the job that was just run.
  const [version, setVersion] = useState(0)
  const jobChanged = useCallback(() => setVersion((v) => v + 1), [])
  useEffect(() => {
    api.get<Page<Endpoint>>('/endpoints' + query({ limit: 200 })).then((p) => setEndpoints(p.data), setError)
  }, [])
  return (
    <section>
      <h1>Replay</h1>
      <p className="muted">
        Re-send deliveries with the same event id and payload (receivers dedupe on <code>webhook-id</code>). To replay one event, open it from{' '}
        <Link href="/events">Events</Link>. Here you replay in bulk, e.g. every exhausted delivery to one endpoint since Monday.
      </p>
      <ErrorMessage error={error} title="Could not load endpoints" />
      {canWrite(me.role) ? (
        <div className="card">
          <h2>Bulk replay</h2>
          <BulkReplay endpoints={endpoints} start={startJob} get={getJob} cancel={cancelJob} preview={previewJob} onJobChange={jobChanged} storageKey="ferry.replayJob" />
        </div>
      ) : (
        <p className="alert alert-warn">Only owners and admins can replay.</p>
      )}
      {canWrite(me.role) && <RecentJobs version={version} />}
    </section>
  )
}

/** RecentJobs lists the tenant's bulk replay jobs (GET /api/v1/replays). */
function RecentJobs({ version }: { version: number }) {
  const list = usePaged((cursor) => api.get<Page<ReplayJob>>('/replays' + query({ cursor, limit: 10 })), [version])
  return (
    <div className="card">
      <div className="page-head">
        <h2>Recent replay jobs</h2>
        <button type="button" className="btn btn-small" onClick={list.reload}>Refresh</button>
      </div>
      <ErrorMessage error={list.error} title="Could not load replay jobs" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && !list.hasPrev && (
        <Empty title="No replay jobs yet">Start one above, e.g. every exhausted delivery to an endpoint you have fixed.</Empty>
      )}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table className="stack">
            <thead><tr><th>Started</th><th>By</th><th>State</th><th>Progress</th></tr></thead>
            <tbody>
              {list.items.map((j) => {
                const p = jobProgress(j)
                return (
                  <tr key={j.id}>
                    <td data-label="Started">{formatTime(j.created_at)}</td>
                    <td data-label="By">{j.actor || '—'}</td>
                    <td data-label="State"><Badge status={p.state} /></td>
                    <td data-label="Progress"><ProgressBar value={p.done} max={p.total} label={`Progress of job ${j.id.slice(0, 8)}`} /></td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={list} label="Replay jobs" />
    </div>
  )
}
