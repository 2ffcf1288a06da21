// BulkReplay.tsx: the bulk replay form and a running job's progress bar
// with cancel; shared by the tenant portal and the staff console.
import { useEffect, useState, type FormEvent } from 'react'
import { ErrorMessage, Field, Notice, ProgressBar, Badge } from './components'
import { toISOFromLocal } from './format'
import { bulkReplayBody, jobProgress, type ReplayBody } from './replayJob'
import type { DeliveryStatus, Endpoint, ReplayJob } from './types'

const statuses: readonly DeliveryStatus[] = ['exhausted', 'dropped', 'retrying', 'succeeded', 'pending']

export interface BulkReplayProps {
  endpoints: Endpoint[]
  start: (body: ReplayBody) => Promise<Pick<ReplayJob, 'id'>>
  /** get and cancel a job; absent when the API does not offer them (staff). */
  get?: (id: string) => Promise<ReplayJob>
  cancel?: (id: string) => Promise<unknown>
  needReason?: boolean
  storageKey: string
}

export function BulkReplay({ endpoints, start, get, cancel, needReason, storageKey }: BulkReplayProps) {
  const [f, setF] = useState({ endpointId: '', eventType: '', since: '', until: '', status: 'exhausted' as DeliveryStatus | '', reason: '' })
  const [jobId, setJobId] = useState<string | null>(() => sessionStorage.getItem(storageKey))
  const [job, setJob] = useState<ReplayJob | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState('')

  useEffect(() => {
    if (!jobId || !get) return
    let live = true
    let t: number | undefined
    const poll = async () => {
      try {
        const j = await get(jobId)
        if (!live) return
        setJob(j)
        if (!jobProgress(j).finished) t = window.setTimeout(poll, 1000)
      } catch (e) {
        if (live) setError(e)
      }
    }
    poll()
    return () => {
      live = false
      window.clearTimeout(t)
    }
  }, [jobId, get])

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setNotice('')
    setBusy(true)
    try {
      const body = bulkReplayBody({ ...f, since: toISOFromLocal(f.since), until: toISOFromLocal(f.until), reason: needReason ? f.reason : undefined })
      const r = await start(body)
      setJob(null)
      setJobId(r.id)
      sessionStorage.setItem(storageKey, r.id)
      setNotice('Bulk replay started.')
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  async function doCancel() {
    if (!jobId || !cancel) return
    setError(null)
    try {
      await cancel(jobId)
      setNotice('Cancelling the replay…')
    } catch (err) {
      setError(err)
    }
  }

  const p = job ? jobProgress(job) : null
  return (
    <div>
      <form className="form" onSubmit={submit} aria-label="Bulk replay">
        <div className="row">
          <Field label="Endpoint">
            {(id) => (
              <select id={id} value={f.endpointId} onChange={(e) => setF({ ...f, endpointId: e.target.value })}>
                <option value="">all endpoints</option>
                {endpoints.map((ep) => <option key={ep.id} value={ep.id}>{ep.url}</option>)}
              </select>
            )}
          </Field>
          <Field label="Event type" hint="Optional">
            {(id, d) => <input id={id} aria-describedby={d} value={f.eventType} onChange={(e) => setF({ ...f, eventType: e.target.value })} />}
          </Field>
          <Field label="Delivery status">
            {(id) => (
              <select id={id} value={f.status} onChange={(e) => setF({ ...f, status: e.target.value as DeliveryStatus | '' })}>
                <option value="">any</option>
                {statuses.map((s) => <option key={s}>{s}</option>)}
              </select>
            )}
          </Field>
        </div>
        <div className="row">
          <Field label="Since">{(id) => <input id={id} type="datetime-local" value={f.since} onChange={(e) => setF({ ...f, since: e.target.value })} />}</Field>
          <Field label="Until">{(id) => <input id={id} type="datetime-local" value={f.until} onChange={(e) => setF({ ...f, until: e.target.value })} />}</Field>
        </div>
        {needReason && (
          <Field label="Reason" hint="Required; recorded in the audit log.">
            {(id, d) => <input id={id} required aria-describedby={d} value={f.reason} onChange={(e) => setF({ ...f, reason: e.target.value })} />}
          </Field>
        )}
        <div className="actions">
          <button className="btn btn-primary" type="submit" disabled={busy || (!!p && !p.finished)}>{busy ? 'Starting…' : 'Start bulk replay'}</button>
        </div>
      </form>
      <Notice>{notice}</Notice>
      <ErrorMessage error={error} title="Bulk replay failed" />
      {jobId && (
        <div className="job" aria-live="polite">
          <h3>Replay job <code>{jobId.slice(0, 8)}</code> {p && <Badge status={p.state} />}</h3>
          {get && <ProgressBar value={p?.done ?? 0} max={p?.total ?? 0} label="Replay progress" />}
          {job?.error && <p className="field-error">{job.error}</p>}
          <div className="actions">
            {cancel && p && !p.finished && <button type="button" className="btn btn-danger" onClick={doCancel}>Cancel replay</button>}
            {(!p || p.finished) && <button type="button" className="btn btn-small" onClick={() => { sessionStorage.removeItem(storageKey); setJobId(null); setJob(null) }}>Dismiss</button>}
          </div>
        </div>
      )}
    </div>
  )
}
