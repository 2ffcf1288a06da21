// Replays.tsx: bulk replay by endpoint, event type, time range and status.
import { useEffect, useState } from 'react'
import { api, query, type Page } from '../api'
import { BulkReplay } from '../BulkReplay'
import { ErrorMessage } from '../components'
import { Link } from '../router'
import { canWrite, useSession } from '../session'
import type { Endpoint, ReplayJob } from '../types'

const getJob = (id: string) => api.get<ReplayJob>(`/replays/${id}`)
const cancelJob = (id: string) => api.post(`/replays/${id}/cancel`)
const startJob = (body: Record<string, string>) => api.post<{ id: string }>('/replays', body)

export function ReplaysPage() {
  const { me } = useSession()
  const [endpoints, setEndpoints] = useState<Endpoint[]>([])
  const [error, setError] = useState<unknown>(null)
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
          <BulkReplay endpoints={endpoints} start={startJob} get={getJob} cancel={cancelJob} storageKey="ferry.replayJob" />
        </div>
      ) : (
        <p className="alert alert-warn">Only owners and admins can replay.</p>
      )}
    </section>
  )
}
