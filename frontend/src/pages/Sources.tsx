// Sources.tsx: the list of inbound sources and the create form.
import { useState } from 'react'
import { api, query, type Page } from '../api'
import { Badge, CopyButton, Empty, ErrorMessage, Loading, Pager } from '../components'
import { SourceForm } from '../SourceForm'
import { emptySourceForm, schemeInfo } from '../sourceForm'
import { formatTime, relativeTime } from '../format'
import { usePaged } from '../paging'
import { Link, navigate } from '../router'
import { canWrite, useSession } from '../session'
import type { Source, SourceInput } from '../types'

/** redacted reports whether an ingest URL's token is hidden from this user (viewers). */
export function redacted(url: string): boolean {
  return url.endsWith('/in/[redacted]')
}

/** IngestURL shows a source's ingest URL with a copy button (only when the token is shown). */
export function IngestURL({ url, label = 'Copy URL' }: { url: string; label?: string }) {
  return (
    <div className="secret ingest-url">
      <code data-testid="ingest-url">{url}</code>
      {!redacted(url) && <CopyButton text={url} label={label} />}
    </div>
  )
}

export function SourcesPage() {
  const { me } = useSession()
  const writer = canWrite(me.role)
  const [creating, setCreating] = useState(false)
  const list = usePaged((cursor) => api.get<Page<Source>>('/sources' + query({ cursor, limit: 25 })), [])

  return (
    <section>
      <div className="page-head">
        <h1>Sources</h1>
        {writer && !creating && (
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>Add source</button>
        )}
      </div>
      {creating && (
        <div className="card">
          <h2>New source</h2>
          <SourceForm
            initial={emptySourceForm}
            submitLabel="Create source"
            onCancel={() => setCreating(false)}
            onSubmit={async (body) => {
              const src = await api.post<Source>('/sources', body satisfies SourceInput)
              navigate(`/sources/${src.id}?created=1`)
            }}
          />
        </div>
      )}
      <ErrorMessage error={list.error} title="Could not load sources" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && !creating && (
        <Empty title="No sources yet">
          <p>
            A source receives webhooks from Stripe, GitHub, Shopify, Slack or any other sender at its own URL. Ferry verifies
            each request's signature, keeps an exact copy you can inspect and replay, answers the sender at once, and forwards
            the request as an event to your endpoints, with retries.
          </p>
          <p>{writer ? 'Use "Add source" to get a URL for your provider.' : 'Ask an admin to add one.'}</p>
        </Empty>
      )}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table className="stack">
            <thead>
              <tr><th>Source</th><th>State</th><th>Last request</th><th>Ingest URL</th></tr>
            </thead>
            <tbody>
              {list.items.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link href={`/sources/${s.id}`}>{s.name}</Link>
                    <div className="muted">{schemeInfo(s.verification.type).label}</div>
                  </td>
                  <td data-label="State"><Badge status={s.enabled ? 'enabled' : 'disabled'} /></td>
                  <td data-label="Last request">
                    {s.last_request_at
                      ? <span title={formatTime(s.last_request_at)}>{relativeTime(s.last_request_at)}</span>
                      : <span className="muted">none yet</span>}
                  </td>
                  <td data-label="Ingest URL"><IngestURL url={s.ingest_url} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={list} label="Sources" />
    </section>
  )
}
