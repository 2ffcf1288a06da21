// SourceDetail.tsx: one inbound source: its ingest URL (copy, rotate),
// edit, enable/disable, delete, its settings, and the requests it
// captured, filtered by status and paged.
import { useEffect, useState } from 'react'
import { api, query, type Page } from '../api'
import { Badge, ConfirmButton, Empty, ErrorMessage, Loading, Notice, Pager, useAction } from '../components'
import { formatTime, relativeTime } from '../format'
import { SourceForm } from '../SourceForm'
import { eventTypeRuleText, fromSource, schemeInfo } from '../sourceForm'
import { usePaged } from '../paging'
import { Link, navigate, useLocation } from '../router'
import { canWrite, useSession } from '../session'
import type { Source, SourcePatch, SourceRequest } from '../types'
import { IngestURL, redacted } from './Sources'

/** RequestTable lists captured requests, each opening the inspector. */
function RequestTable({ sourceId, requests }: { sourceId: string; requests: SourceRequest[] }) {
  return (
    <div className="table-wrap">
      <table className="stack">
        <thead><tr><th>Received</th><th>Status</th><th>Method</th><th>Why</th><th>Event</th></tr></thead>
        <tbody>
          {requests.map((r) => (
            <tr key={r.id} data-testid="source-request">
              <td>
                <Link href={`/sources/${sourceId}/requests/${r.id}`} title={formatTime(r.received_at)}>{formatTime(r.received_at)}</Link>
                <div className="muted">{relativeTime(r.received_at)}</div>
              </td>
              <td data-label="Status"><Badge status={r.status} /></td>
              <td data-label="Method"><code>{r.method}</code></td>
              <td data-label="Why" className={r.reason ? undefined : 'stack-hide'}>{r.reason || <span className="muted">—</span>}</td>
              <td data-label="Event">{r.event_id ? <Link href={`/events/${r.event_id}`}><code className="id">{r.event_id.slice(0, 8)}</code></Link> : <span className="muted">none</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** verificationText describes a source's scheme with its settings. */
function verificationText(s: Source): string {
  const v = s.verification
  const label = schemeInfo(v.type).label
  if (v.type === 'hmac_sha256') return `${label}: ${v.header}, ${v.encoding}${v.prefix ? `, prefix ${v.prefix}` : ''}`
  if (v.type === 'basic_auth') return `${label}: user ${v.username}`
  return label
}

export function SourceDetailPage({ id }: { id: string }) {
  const { me } = useSession()
  const { search } = useLocation()
  const writer = canWrite(me.role)
  const [src, setSrc] = useState<Source | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [editing, setEditing] = useState(false)
  const { notice, setNotice, error, act } = useAction(search.get('created') ? 'Source created. Paste its URL into the provider\'s webhook settings.' : '')
  const [status, setStatus] = useState('')
  useEffect(() => {
    api.get<Source>(`/sources/${id}`).then(setSrc, setLoadError)
  }, [id])
  const requests = usePaged(
    (cursor) => api.get<Page<SourceRequest>>(`/sources/${id}/requests` + query({ cursor, status, limit: 25 })),
    [id, status],
  )
  // New requests show by themselves while the first page is open.
  const { pageNumber, reload } = requests
  useEffect(() => {
    if (pageNumber !== 1) return
    const t = window.setInterval(reload, 5000)
    return () => window.clearInterval(t)
  }, [pageNumber, reload])

  if (loadError) return <section><h1>Source</h1><ErrorMessage error={loadError} title="Could not load the source" /><Link href="/sources">Back to sources</Link></section>
  if (!src) return <Loading />

  return (
    <section>
      <p><Link href="/sources">← Sources</Link></p>
      <div className="page-head">
        <h1 className="break">{src.name}</h1>
        <Badge status={src.enabled ? 'enabled' : 'disabled'} />
      </div>
      <Notice>{notice}</Notice>
      <ErrorMessage error={error} />
      {writer && (
        <div className="actions">
          <button type="button" className="btn" onClick={() => setEditing(!editing)} aria-expanded={editing}>Edit</button>
          <button type="button" className="btn" onClick={() => act(async () => {
            setSrc(await api.patch<Source>(`/sources/${src.id}`, { enabled: !src.enabled } satisfies SourcePatch))
            setNotice(src.enabled ? 'Source disabled: its URL answers 404 until you enable it again.' : 'Source enabled.')
          })}>{src.enabled ? 'Disable' : 'Enable'}</button>
          <ConfirmButton confirmLabel="Yes, delete source" onConfirm={() => act(async () => {
            await api.del(`/sources/${src.id}`)
            navigate('/sources')
          })}>Delete</ConfirmButton>
        </div>
      )}
      {editing && (
        <div className="card">
          <h2>Edit source</h2>
          <SourceForm initial={fromSource(src)} editing submitLabel="Save changes" onCancel={() => setEditing(false)} onSubmit={async (body) => {
            setSrc(await api.patch<Source>(`/sources/${src.id}`, body satisfies SourcePatch))
            setEditing(false)
            setNotice('Source saved.')
          }} />
        </div>
      )}
      <div className="card">
        <h2>Ingest URL</h2>
        <IngestURL url={src.ingest_url} />
        {redacted(src.ingest_url) ? (
          <p className="muted">Only owners and admins see the URL: it lets anyone send requests to this source.</p>
        ) : (
          <p className="muted">Give this URL to the provider. Keep it private: anyone with it can send requests, which must still pass verification.</p>
        )}
        {writer && (
          <ConfirmButton className="btn btn-small" confirmLabel="Yes, rotate URL" onConfirm={() => act(async () => {
            setSrc(await api.post<Source>(`/sources/${src.id}/rotate-token`))
            setNotice('New URL made. The old URL no longer works: update it at the provider.')
          })}>Rotate URL</ConfirmButton>
        )}
      </div>
      <div className="card">
        <div className="page-head">
          <h2>Requests</h2>
          <div className="inline-field">
            <label htmlFor="request-status">Status</label>
            <select id="request-status" value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">all</option>
              <option value="received">received</option>
              <option value="verified">verified</option>
              <option value="rejected">rejected</option>
              <option value="duplicate">duplicate</option>
              <option value="refused">refused</option>
            </select>
            <button type="button" className="btn btn-small" onClick={requests.reload}>Refresh</button>
          </div>
        </div>
        <ErrorMessage error={requests.error} title="Could not load requests" />
        {requests.loading && requests.items.length === 0 && <Loading />}
        {!requests.loading && !requests.error && requests.items.length === 0 && (
          status ? <Empty title={`No ${status} requests`}>Choose "all" to see every request.</Empty> : (
            <Empty title="No requests yet">Send a webhook from the provider to the URL above; each request shows here, accepted or not.</Empty>
          )
        )}
        {requests.items.length > 0 && <RequestTable sourceId={src.id} requests={requests.items} />}
        <Pager list={requests} label="Requests" />
        {src.rejected_unstored > 0 && (
          <p className="muted">{src.rejected_unstored} more rejected requests were answered but not kept (at most a few per minute are kept, so a flood cannot fill your log).</p>
        )}
      </div>
      <div className="card">
        <h2>Settings</h2>
        <dl className="props">
          <dt>Verification</dt><dd>{verificationText(src)}{src.verification.has_secret ? ' (secret stored)' : ''}</dd>
          <dt>Event type</dt><dd>{eventTypeRuleText(src.event_type)}</dd>
          <dt>Duplicates</dt><dd>{src.dedupe ? `dropped for 24 h by ${src.dedupe.header ? `the ${src.dedupe.header} header` : `${src.dedupe.json_path} in the JSON body`}` : 'every request is forwarded'}</dd>
          <dt>Answer</dt><dd>{src.response ? <>HTTP {src.response.status}, {src.response.content_type}{src.response.body && <> <code>{src.response.body}</code></>}</> : <>HTTP 200 <code>{'{}'}</code></>}</dd>
          <dt>Rate limit</dt><dd>{src.rate_limit_per_second} requests per second (more are answered 429)</dd>
          <dt>Created</dt><dd>{formatTime(src.created_at)}</dd>
        </dl>
      </div>
    </section>
  )
}
