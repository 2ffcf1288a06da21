// BulkReplay.tsx: the bulk replay form with a count of the deliveries it
// would re-send, a confirmation that counts them afresh before anything
// starts, and a running job's progress bar with cancel; shared by the
// tenant portal and the staff console.
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ConfirmPanel, ErrorMessage, Field, Notice, ProgressBar, Badge } from './components'
import { formatCount, toISOFromLocal } from './format'
import { bulkReplayBody, jobProgress, replayScope, statusChoices, type ReplayBody, type StatusChoice } from './replayJob'
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

/** Confirming is the confirmation step: counting afresh, or the body to start and what it matched (null: no count offered). */
type Confirming = { state: 'counting' } | { state: 'ready'; body: ReplayBody; matched: number | null; scope: string }

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
  const [confirming, setConfirming] = useState<Confirming | null>(null)
  // starting guards the start itself: one job per confirmation, even when
  // "Yes" is pressed twice before React re-renders.
  const starting = useRef(false)
  // confirmSeq drops a count that arrives after the form changed or the
  // confirmation was cancelled: its number would describe other filters.
  const confirmSeq = useRef(0)
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

  // A change to the form voids an open confirmation: it was for other filters.
  const formKey = JSON.stringify(f)
  useEffect(() => {
    confirmSeq.current++
    setConfirming(null)
  }, [formKey])

  const p = job ? jobProgress(job) : null
  // A job started here and not seen to finish blocks another start.
  const jobActive = !!jobId && (!p || !p.finished)

  // submit asks for confirmation: it counts the deliveries afresh (the
  // count beside the button may be seconds old) and shows what starting
  // will do; nothing starts until the user says yes.
  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setNotice('')
    if (!f.status) {
      setError(new Error('Choose which deliveries to replay: one status, or any status.'))
      return
    }
    if (jobActive || busy || confirming) return
    const b = body()
    const endpoint = endpoints.find((ep) => ep.id === f.endpointId)
    const scope = replayScope({ ...f, endpoint: endpoint && endpointName(endpoint) })
    if (!preview) {
      setConfirming({ state: 'ready', body: b, matched: null, scope })
      return
    }
    const seq = ++confirmSeq.current
    setConfirming({ state: 'counting' })
    try {
      const counted = { ...b }
      delete counted.reason
      const r = await preview(counted)
      if (seq !== confirmSeq.current) return
      // The job replays what was counted: without an end of its own, the
      // range ends where the count did.
      setConfirming({ state: 'ready', body: b.until ? b : { ...b, until: r.until }, matched: r.matched, scope })
    } catch (err) {
      if (seq !== confirmSeq.current) return
      setConfirming(null)
      setError(err)
    }
  }

  async function confirmStart() {
    if (confirming?.state !== 'ready' || starting.current) return
    starting.current = true
    const b = confirming.body
    setConfirming(null)
    setBusy(true)
    try {
      const r = await start(b)
      setJob(null)
      setJobId(r.id)
      sessionStorage.setItem(storageKey, r.id)
      setNotice('Bulk replay started.')
      onChange.current?.({ id: r.id, state: 'queued' })
    } catch (err) {
      setError(err)
    } finally {
      starting.current = false
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
          <button className="btn btn-primary" type="submit" disabled={busy || jobActive || !!confirming}>
            {busy ? 'Starting…' : confirming?.state === 'counting' ? 'Counting…' : 'Start bulk replay'}
          </button>
          {preview && !confirming && <PreviewCount count={count} chosen={!!f.status} />}
        </div>
        {jobActive && !busy && <p className="muted" data-testid="replay-running">A replay job from here is under way: start another once it has finished{cancel ? ' or been cancelled' : ''}.</p>}
      </form>
      {confirming?.state === 'ready' && (
        <ConfirmDialog c={confirming} needReason={!!needReason} onConfirm={confirmStart} onCancel={() => { confirmSeq.current++; setConfirming(null) }} />
      )}
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

/** ConfirmDialog says what a bulk replay will re-send, from the count made when confirming. */
function ConfirmDialog({ c, needReason, onConfirm, onCancel }: { c: Extract<Confirming, { state: 'ready' }>; needReason: boolean; onConfirm: () => void; onCancel: () => void }) {
  if (c.matched === 0) {
    return (
      <ConfirmPanel title="Nothing to replay" onCancel={onCancel} testId="replay-confirm">
        <p>No delivery matches these filters now ({c.scope}), so a job would re-send nothing.</p>
      </ConfirmPanel>
    )
  }
  const what = c.matched === null ? 'every matching delivery' : `${formatCount(c.matched)} ${c.matched === 1 ? 'delivery' : 'deliveries'}`
  return (
    <ConfirmPanel
      title={c.matched === null ? 'Start this bulk replay?' : `Replay ${what}?`}
      confirmLabel={c.matched === null ? 'Yes, start the replay' : `Yes, replay ${what}`}
      onConfirm={onConfirm}
      onCancel={onCancel}
      testId="replay-confirm"
    >
      <p>
        Ferry re-sends {c.matched === null ? 'every delivery that matches' : `the ${what} that match${c.matched === 1 ? 'es' : ''} now`} ({c.scope}), with the same event id
        and payload: receivers get each event again and can dedupe on <code>webhook-id</code>.
        {needReason && ' Your reason is recorded in the audit log.'}
      </p>
    </ConfirmPanel>
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
