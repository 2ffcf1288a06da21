// BulkReplay.tsx: the bulk replay form with a count of the deliveries it
// would re-send, and a running job's progress bar with cancel; shared by
// the tenant portal and the staff console.
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ErrorMessage, Field, Notice, ProgressBar, Badge } from './components'
import { formatCount, toISOFromLocal } from './format'
import { bulkReplayBody, jobProgress, statusChoices, type ReplayBody, type StatusChoice } from './replayJob'
import { endpointName } from './endpointName'
import type { Endpoint, ReplayJob, ReplayPreview } from './types'

export interface BulkReplayProps {
  endpoints: Endpoint[]
  start: (body: ReplayBody) => Promise<Pick<ReplayJob, 'id'>>
  /** get and cancel a job; absent when the API does not offer them (staff). */
  get?: (id: string) => Promise<ReplayJob>
  cancel?: (id: string) => Promise<unknown>
  /** preview counts the deliveries a body would replay (the server's count, never guessed here). */
  preview?: (body: ReplayBody) => Promise<ReplayPreview>
  /** onJobChange is told when a job starts or its state changes, so job lists can reload. */
  onJobChange?: (job: Pick<ReplayJob, 'id' | 'state'>) => void
  needReason?: boolean
  storageKey: string
}

type PreviewState = { state: 'idle' } | { state: 'counting' } | { state: 'done'; matched: number } | { state: 'error'; error: unknown }

export function BulkReplay({ endpoints, start, get, cancel, preview, onJobChange, needReason, storageKey }: BulkReplayProps) {
  // The status starts unchosen: replaying every delivery and replaying only
  // the exhausted ones are very different jobs, so the user picks one.
  const [f, setF] = useState({ endpointId: '', eventType: '', since: '', until: '', status: '' as StatusChoice, reason: '' })
  const [jobId, setJobId] = useState<string | null>(() => sessionStorage.getItem(storageKey))
  const [job, setJob] = useState<ReplayJob | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState('')
  const [count, setCount] = useState<PreviewState>({ state: 'idle' })
  const onChange = useRef(onJobChange)
  onChange.current = onJobChange

  useEffect(() => {
    if (!jobId || !get) return
    let live = true
    let t: number | undefined
    let lastState = ''
    const poll = async () => {
      try {
        const j = await get(jobId)
        if (!live) return
        setJob(j)
        if (j.state !== lastState) {
          lastState = j.state
          onChange.current?.(j)
        }
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

  const body = () => bulkReplayBody({ ...f, since: toISOFromLocal(f.since), until: toISOFromLocal(f.until), reason: needReason ? f.reason : undefined })

  // Count what the filter matches, shortly after the user stops typing.
  const previewKey = JSON.stringify([f.endpointId, f.eventType.trim(), f.since, f.until, f.status])
  useEffect(() => {
    if (!preview || !f.status) {
      setCount({ state: 'idle' })
      return
    }
    let live = true
    setCount({ state: 'counting' })
    const t = window.setTimeout(async () => {
      const b = body()
      delete b.reason
      try {
        const p = await preview(b)
        if (live) setCount({ state: 'done', matched: p.matched })
      } catch (e) {
        if (live) setCount({ state: 'error', error: e })
      }
    }, 300)
    return () => {
      live = false
      window.clearTimeout(t)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [previewKey, preview])

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setNotice('')
    if (!f.status) {
      setError(new Error('Choose which deliveries to replay: one status, or any status.'))
      return
    }
    setBusy(true)
    try {
      const r = await start(body())
      setJob(null)
      setJobId(r.id)
      sessionStorage.setItem(storageKey, r.id)
      setNotice('Bulk replay started.')
      onChange.current?.({ id: r.id, state: 'queued' })
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
                {endpoints.map((ep) => <option key={ep.id} value={ep.id}>{endpointName(ep)}</option>)}
              </select>
            )}
          </Field>
          <Field label="Event type" hint="Optional">
            {(id, d) => <input id={id} aria-describedby={d} value={f.eventType} onChange={(e) => setF({ ...f, eventType: e.target.value })} />}
          </Field>
          <Field label="Delivery status" hint="Which deliveries to re-send.">
            {(id, d) => (
              <select id={id} required aria-describedby={d} value={f.status} onChange={(e) => setF({ ...f, status: e.target.value as StatusChoice })}>
                <option value="" disabled>Choose…</option>
                {statusChoices.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
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
          {preview && <PreviewCount count={count} chosen={!!f.status} />}
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

/** PreviewCount says, beside the start button, how many deliveries the filter matches now. */
function PreviewCount({ count, chosen }: { count: PreviewState; chosen: boolean }) {
  let text: string
  switch (count.state) {
    case 'counting':
      text = 'Counting matching deliveries…'
      break
    case 'done':
      text = count.matched === 0
        ? 'No delivery matches these filters: nothing would be replayed.'
        : `${formatCount(count.matched)} ${count.matched === 1 ? 'delivery matches' : 'deliveries match'}; starting replays ${count.matched === 1 ? 'it' : 'them'}.`
      break
    case 'error':
      text = 'Could not count: ' + ((count.error as Error)?.message ?? String(count.error))
      break
    default:
      text = chosen ? '' : 'Choose a delivery status to see how many deliveries match.'
  }
  return <span className="muted preview-count" role="status" data-testid="replay-preview">{text}</span>
}
