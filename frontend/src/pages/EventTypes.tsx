// EventTypes.tsx: the event-type catalog: list, create, and import the
// webhooks of an OpenAPI 3.1 document.
import { useState, type FormEvent } from 'react'
import { api, query, type Page } from '../api'
import { Badge, Empty, ErrorMessage, Field, Loading, Pager } from '../components'
import type { EventType, EventTypeImportResult } from '../customerTypes'
import { EventTypeForm } from '../EventTypeForm'
import { eventTypeHref } from '../eventTypes'
import { usePaged } from '../paging'
import { Link, navigate } from '../router'
import { canWrite, useSession } from '../session'

/** ValidationBadge names a type's validation mode. */
export function ValidationBadge({ mode }: { mode: EventType['validation'] }) {
  const tone = mode === 'reject' ? 'badge-bad' : mode === 'warn' ? 'badge-warn' : 'badge-info'
  return <span className={`badge ${tone}`}>validation {mode}</span>
}

/** ImportForm posts an OpenAPI 3.1 document (pasted or read from a file) to /event-types/import. */
function ImportForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [result, setResult] = useState<EventTypeImportResult | null>(null)
  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setResult(null)
    let doc: unknown
    try {
      doc = JSON.parse(text)
    } catch (err) {
      setError(new Error(`The document is not JSON: ${(err as Error).message}`))
      return
    }
    setBusy(true)
    try {
      setResult(await api.post<EventTypeImportResult>('/event-types/import', doc))
      onDone()
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form" onSubmit={submit}>
      <p className="muted">
        Each entry of the document's <code>webhooks</code> becomes an event type named by its key, with its JSON request body's schema and
        examples as a version, its first tag as the group and its summary as the description. A type whose latest schema differs gets a new
        version (its validation mode is kept); unchanged ones are skipped.
      </p>
      <ErrorMessage error={error} title="Could not import" />
      <Field label="OpenAPI document file" hint="A JSON file (YAML is not read here: convert it first).">
        {(id, d) => <input id={id} type="file" accept=".json,application/json" aria-describedby={d}
          onChange={async (e) => { const f = e.target.files?.[0]; if (f) setText(await f.text()) }} />}
      </Field>
      <Field label="OpenAPI 3.1 document (JSON)">
        {(id) => <textarea id={id} rows={8} required spellCheck={false} className="mono" value={text} onChange={(e) => setText(e.target.value)} placeholder='{"openapi": "3.1.0", "webhooks": {…}}' />}
      </Field>
      <div className="actions">
        <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Importing…' : 'Import'}</button>
        <button className="btn" type="button" onClick={onCancel}>Close</button>
      </div>
      {result && (
        <div className="alert alert-ok" role="status" data-testid="import-result">
          <p><strong>Created ({result.created.length}):</strong> {result.created.length ? result.created.join(', ') : 'none'}</p>
          <p><strong>Updated with a new version ({result.updated.length}):</strong> {result.updated.length ? result.updated.join(', ') : 'none'}</p>
          <p><strong>Skipped ({result.skipped.length}):</strong> {result.skipped.length === 0 && 'none'}</p>
          {result.skipped.length > 0 && <ul>{result.skipped.map((s) => <li key={s.name}><code>{s.name}</code>: {s.reason}</li>)}</ul>}
        </div>
      )}
    </form>
  )
}

export function EventTypesPage() {
  const { me } = useSession()
  const writer = canWrite(me.role)
  const [panel, setPanel] = useState<'' | 'create' | 'import'>('')
  const list = usePaged((cursor) => api.get<Page<EventType>>('/event-types' + query({ cursor, limit: 50 })), [])
  return (
    <section>
      <div className="page-head">
        <h1>Event types</h1>
        {writer && !panel && (
          <div className="actions">
            <button type="button" className="btn" onClick={() => setPanel('import')}>Import from OpenAPI</button>
            <button type="button" className="btn btn-primary" onClick={() => setPanel('create')}>Add event type</button>
          </div>
        )}
      </div>
      <p className="muted">
        The catalog of the events you send: your customers pick from it in their portal and in the endpoint form, and it can check each
        event's data against the type's JSON Schema (warn or reject).
      </p>
      {panel === 'create' && (
        <div className="card">
          <h2>New event type</h2>
          <EventTypeForm onCancel={() => setPanel('')} onSubmit={async (body) => {
            const t = await api.post<EventType>('/event-types', body)
            navigate(eventTypeHref(t.name) + '?created=1')
          }} />
        </div>
      )}
      {panel === 'import' && (
        <div className="card">
          <h2>Import from an OpenAPI 3.1 document</h2>
          <ImportForm onDone={list.reload} onCancel={() => setPanel('')} />
        </div>
      )}
      <ErrorMessage error={list.error} title="Could not load event types" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && (
        <Empty title="No event types yet">
          Describe the events you send, with a JSON Schema and examples, or import the <code>webhooks</code> of your OpenAPI document.
          Events of types not in the catalog are still accepted.
        </Empty>
      )}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table className="stack">
            <thead><tr><th>Name</th><th>Group</th><th>Description</th><th>Schema</th></tr></thead>
            <tbody>
              {list.items.map((t) => (
                <tr key={t.name}>
                  <td data-label="Name">
                    <Link href={eventTypeHref(t.name)}><code>{t.name}</code></Link>
                    {t.deprecated && <> <Badge status="deprecated" /></>}
                  </td>
                  <td data-label="Group">{t.group || <span className="muted">—</span>}</td>
                  <td data-label="Description">{t.description || <span className="muted">—</span>}</td>
                  <td data-label="Schema">
                    {t.latest_version > 0 ? <>version {t.latest_version}</> : <span className="muted">none</span>}{' '}
                    <ValidationBadge mode={t.validation} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={list} label="Event types" />
    </section>
  )
}
