// SourceRequest.tsx: the request inspector: one captured request exactly
// as received (method, path, query, headers, body), its verification
// result, the event it became with its deliveries, and replay.
import { useCallback, useEffect, useState } from 'react'
import { api, query, type Page } from '../api'
import { Badge, CopyButton, ErrorMessage, Loading, Notice } from '../components'
import { formatTime } from '../format'
import { bodyView, headerRows } from '../sourceForm'
import { Link } from '../router'
import { canWrite, useSession } from '../session'
import type { Endpoint, Source, SourceReplayResult, SourceRequestDetail } from '../types'
import { attemptsText } from './Events'
import { endpointName } from '../endpointName'

/** RequestBody shows a body as pretty JSON (or as received), as text, or as hex and base64 when it is not UTF-8. */
function RequestBody({ d }: { d: SourceRequestDetail }) {
  const view = bodyView(d)
  const [raw, setRaw] = useState(false)
  if (view.kind === 'empty') return <p className="muted">No body.</p>
  if (view.kind === 'text') return <pre className="code" data-testid="request-body">{view.raw}</pre>
  if (view.kind === 'binary') {
    return (
      <>
        <p className="muted">The body is not UTF-8 text, so its bytes are shown in hex{view.truncated ? ' (the first 4 KiB)' : ''}; the base64 below is the whole body, exactly.</p>
        <pre className="code" data-testid="request-body-hex">{view.hex}</pre>
        <details>
          <summary>Base64</summary>
          <pre className="code" data-testid="request-body-base64">{view.base64}</pre>
          <CopyButton text={view.base64} label="Copy base64" />
        </details>
      </>
    )
  }
  return (
    <>
      <div className="segmented" role="group" aria-label="Show the body">
        <button type="button" aria-pressed={!raw} onClick={() => setRaw(false)}>Formatted</button>
        <button type="button" aria-pressed={raw} onClick={() => setRaw(true)}>As received</button>
      </div>
      <pre className="code" data-testid="request-body">{raw ? view.raw : view.pretty}</pre>
    </>
  )
}

export function SourceRequestPage({ sourceId, requestId }: { sourceId: string; requestId: string }) {
  const { me } = useSession()
  const [d, setD] = useState<SourceRequestDetail | null>(null)
  const [src, setSrc] = useState<Source | null>(null)
  const [endpoints, setEndpoints] = useState<Record<string, Endpoint>>({})
  const [loadError, setLoadError] = useState<unknown>(null)
  const [error, setError] = useState<unknown>(null)
  const [replayed, setReplayed] = useState<SourceReplayResult | null>(null)

  const load = useCallback(() => {
    api.get<SourceRequestDetail>(`/sources/${sourceId}/requests/${requestId}`).then(setD, setLoadError)
  }, [sourceId, requestId])
  useEffect(load, [load])
  useEffect(() => {
    api.get<Source>(`/sources/${sourceId}`).then(setSrc, () => setSrc(null))
    api.get<Page<Endpoint>>('/endpoints' + query({ limit: 200 })).then(
      (p) => setEndpoints(Object.fromEntries(p.data.map((e) => [e.id, e]))),
      () => undefined,
    )
  }, [sourceId])

  async function replay() {
    setError(null)
    setReplayed(null)
    try {
      setReplayed(await api.post<SourceReplayResult>(`/sources/${sourceId}/requests/${requestId}/replay`))
    } catch (e) {
      setError(e)
    }
  }

  const back = <p><Link href={`/sources/${sourceId}`}>← {src?.name ?? 'Source'}</Link></p>
  if (loadError) return <section>{back}<ErrorMessage error={loadError} title="Could not load the request" /></section>
  if (!d) return <Loading />
  const rows = headerRows(d.headers)
  const deliveries = d.event?.deliveries ?? []
  return (
    <section>
      {back}
      <div className="page-head">
        <h1>{d.method} request</h1>
        <Badge status={d.status} />
      </div>
      <p className="muted"><code className="id">{d.id}</code> · received {formatTime(d.received_at)}</p>
      <Notice>{replayed && <>Replayed as a new event: <Link href={`/events/${replayed.event_id}`}><code>{replayed.event_id}</code></Link>.</>}</Notice>
      <ErrorMessage error={error} title="Replay failed" />
      <div className="card">
        <div className="page-head">
          <h2>Verification</h2>
          {canWrite(me.role) && d.status !== 'rejected' && (
            <button type="button" className="btn" onClick={replay}>Replay</button>
          )}
        </div>
        <dl className="props" data-testid="verification">
          <dt>Result</dt>
          <dd>
            <Badge status={d.status} />{' '}
            {d.status === 'received' && 'The signature holds and the request is stored: its event is being made. Refresh in a moment.'}
            {d.status === 'verified' && 'The signature holds: the request became an event.'}
            {d.status === 'rejected' && <>Refused with 401 and never forwarded: {d.reason || 'verification failed'}.</>}
            {d.status === 'duplicate' && <>Already received: {d.reason || 'same duplicate key'}. No second event was made.</>}
            {d.status === 'refused' && <>Stored, but your plan refused its event: {d.reason}. Replay it once the plan allows.</>}
          </dd>
          {d.dedupe_key && (<><dt>Duplicate key</dt><dd><code>{d.dedupe_key}</code></dd></>)}
          <dt>Method</dt><dd><code>{d.method}</code></dd>
          <dt>Path</dt><dd><code className="break">{d.path}</code></dd>
          <dt>Query</dt><dd>{d.query ? <code className="break">{d.query}</code> : <span className="muted">none</span>}</dd>
          <dt>Content type</dt><dd>{d.content_type || <span className="muted">none</span>}</dd>
          <dt>Size</dt><dd>{d.body_size} bytes</dd>
        </dl>
        {d.status !== 'rejected' && <p className="muted">Replay sends the stored request through routing again as a new event, with the source's current event type rule.</p>}
      </div>
      <div className="card">
        <h2>Body</h2>
        <RequestBody d={d} />
      </div>
      <div className="card">
        <h2>Headers</h2>
        {rows.length === 0 ? <p className="muted">none</p> : (
          <div className="table-wrap">
            <table className="headers-table stack" data-testid="request-headers">
              <thead><tr><th>Name</th><th>Value</th></tr></thead>
              <tbody>
                {rows.map((h, i) => (
                  <tr key={i}><td>{h.name}</td><td><code>{h.value}</code></td></tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <div className="card">
        <h2>Event</h2>
        {d.event ? (
          <>
            <p>
              <Link href={`/events/${d.event.id}`}>{d.event.type}</Link> <code className="id">{d.event.id}</code>
              <span className="muted"> · {formatTime(d.event.created_at)}</span>
            </p>
            {deliveries.length === 0 ? <p className="muted">No endpoint was subscribed to this event type, so nothing was delivered.</p> : (
              <ul className="plain-list" aria-label="Deliveries">
                {deliveries.map((del) => {
                  const ep = endpoints[del.endpoint_id]
                  return (
                    <li key={del.id}>
                      <Badge status={del.status} />{' '}
                      <Link href={`/endpoints/${del.endpoint_id}`} className="break">{ep ? endpointName(ep) : `endpoint ${del.endpoint_id.slice(0, 8)}`}</Link>
                      <span className="muted"> · {attemptsText(del.attempt_count)}</span>
                    </li>
                  )
                })}
              </ul>
            )}
            <p><Link href={`/events/${d.event.id}`}>Open the event</Link> to see every attempt.</p>
          </>
        ) : (
          <p className="muted">
            {d.status === 'rejected' ? 'None: rejected requests are never forwarded.'
              : d.status === 'duplicate' ? 'None: the first request with this key made the event.'
                : d.status === 'received' ? 'Not yet: it is being made.'
                  : d.status === 'refused' ? 'None: your plan refused it. Replay the request to make it.'
                : d.event_id ? 'The event is no longer kept.' : 'None.'}
          </p>
        )}
      </div>
    </section>
  )
}
