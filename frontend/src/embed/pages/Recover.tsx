// Recover.tsx (embedded portal): replay every failed delivery to one of
// the customer's endpoints since a time. The server counts them first
// (POST /portal/recover/preview) and the confirmation names that count;
// only then does POST /portal/recover queue them.
import { useEffect, useState, type FormEvent } from 'react'
import { query, type Page } from '../../api'
import { ConfirmPanel, ErrorMessage, Field, Notice } from '../../components'
import { endpointName } from '../../endpointName'
import { formatCount, formatTime, toISOFromLocal } from '../../format'
import { useLocation } from '../../router'
import type { Endpoint } from '../../types'
import { usePortal } from '../context'
import type { RecoverCount, RecoverInput } from '../types'

/** failedDeliveries renders "1 failed delivery", "1,204 failed deliveries". */
export function failedDeliveries(n: number): string {
  return `${formatCount(n)} failed ${n === 1 ? 'delivery' : 'deliveries'}`
}

/** localInput renders a time as a datetime-local value (minutes). */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000)
  return d.toISOString().slice(0, 16)
}

export function PortalRecoverPage() {
  const { client } = usePortal()
  const { search } = useLocation()
  const [endpoints, setEndpoints] = useState<Endpoint[]>([])
  const [endpointId, setEndpointId] = useState(search.get('endpoint') ?? '')
  const [since, setSince] = useState(() => localInput(Date.now() - 24 * 3600_000))
  const [preview, setPreview] = useState<{ input: RecoverInput; count: number } | null>(null)
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState('')
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    client.get<Page<Endpoint>>('/endpoints' + query({ limit: 200 })).then((p) => {
      setEndpoints(p.data)
      setEndpointId((cur) => cur || p.data[0]?.id || '')
    }, setError)
  }, [client])

  // Changing what to recover drops a count made for something else.
  useEffect(() => setPreview(null), [endpointId, since])

  async function count(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setNotice('')
    const input: RecoverInput = { endpoint_id: endpointId, since: toISOFromLocal(since) }
    setBusy(true)
    try {
      const r = await client.post<RecoverCount>('/recover/preview', input)
      setPreview({ input, count: r.count })
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  async function recover() {
    if (!preview || busy) return
    setBusy(true)
    setError(null)
    try {
      const r = await client.post<RecoverCount>('/recover', preview.input)
      setPreview(null)
      setNotice(`${failedDeliveries(r.count)} queued for replay. Follow them under Messages.`)
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  const ep = endpoints.find((x) => x.id === preview?.input.endpoint_id)
  return (
    <section>
      <h1>Recover failed messages</h1>
      <p className="muted">Replays every delivery to an endpoint that failed for good since a time, e.g. after your endpoint was down.</p>
      <Notice>{notice}</Notice>
      <ErrorMessage error={error} />
      <form className="form" onSubmit={count}>
        <Field label="Endpoint">
          {(id) => (
            <select id={id} value={endpointId} required onChange={(e) => setEndpointId(e.target.value)}>
              {endpoints.length === 0 && <option value="">No endpoint</option>}
              {endpoints.map((x) => <option key={x.id} value={x.id}>{endpointName(x)}</option>)}
            </select>
          )}
        </Field>
        <Field label="Failed since" hint="Your local time.">
          {(id, d) => <input id={id} type="datetime-local" required aria-describedby={d} value={since} onChange={(e) => setSince(e.target.value)} />}
        </Field>
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={busy || !endpointId || !!preview}>Count failed deliveries</button>
        </div>
      </form>
      {preview && preview.count === 0 && (
        <ConfirmPanel title="Nothing to recover" onCancel={() => setPreview(null)} testId="recover-confirm">
          <p>No delivery to {ep ? endpointName(ep) : 'this endpoint'} has failed since {formatTime(preview.input.since)}.</p>
        </ConfirmPanel>
      )}
      {preview && preview.count > 0 && (
        <ConfirmPanel
          title={`Replay ${failedDeliveries(preview.count)}?`}
          confirmLabel={`Yes, replay ${formatCount(preview.count)}`}
          onConfirm={recover}
          onCancel={() => setPreview(null)}
          busy={busy}
          testId="recover-confirm"
        >
          <p>Every delivery to {ep ? endpointName(ep) : 'this endpoint'} that failed since {formatTime(preview.input.since)} is sent again, with its original <code>webhook-id</code>.</p>
        </ConfirmPanel>
      )}
    </section>
  )
}
