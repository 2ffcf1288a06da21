// EventTypeDetail.tsx: one event type: its group, description, validation
// mode and deprecation (PATCH), its versions with their schemas and
// examples, adding a version, its recent validation warnings, delete.
import { useEffect, useState, type FormEvent } from 'react'
import { api, ApiError } from '../api'
import { Badge, ConfirmButton, Empty, ErrorMessage, Field, Loading, Notice, useAction } from '../components'
import type { EventType, EventTypePatch, EventTypeVersion } from '../customerTypes'
import { VersionForm } from '../EventTypeForm'
import { eventTypePath, validationModes } from '../eventTypes'
import { formatTime, prettyJSON, relativeTime } from '../format'
import { Link, navigate, useLocation } from '../router'
import { canWrite, useSession } from '../session'
import { ValidationBadge } from './EventTypes'

function Version({ v, open }: { v: EventTypeVersion; open: boolean }) {
  return (
    <details className="version" open={open} data-testid="version">
      <summary><strong>Version {v.version}</strong> <span className="muted">{formatTime(v.created_at)}</span></summary>
      <h4>Schema</h4>
      <pre className="code">{prettyJSON(v.schema)}</pre>
      <h4>Examples ({v.examples?.length ?? 0})</h4>
      {v.examples?.length ? v.examples.map((ex, i) => <pre key={i} className="code">{prettyJSON(ex)}</pre>) : <p className="muted">None.</p>}
    </details>
  )
}

/** SettingsForm edits what PATCH changes: group, description, validation, deprecated. */
function SettingsForm({ t, onSaved, onCancel }: { t: EventType; onSaved: (t: EventType) => void; onCancel: () => void }) {
  const [group, setGroup] = useState(t.group)
  const [description, setDescription] = useState(t.description)
  const [validation, setValidation] = useState(t.validation)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setBusy(true)
    try {
      onSaved(await api.patch<EventType>(eventTypePath(t.name), { group: group.trim(), description: description.trim(), validation } satisfies EventTypePatch))
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form" onSubmit={submit}>
      <ErrorMessage error={error} title="Could not save the event type" />
      <div className="row">
        <Field label="Group">{(id) => <input id={id} value={group} onChange={(e) => setGroup(e.target.value)} />}</Field>
        <Field label="Validation" hint={t.latest_version === 0 ? 'warn and reject need a version with a schema.' : undefined}>
          {(id, d) => (
            <select id={id} aria-describedby={d} value={validation} onChange={(e) => setValidation(e.target.value as EventType['validation'])}>
              {validationModes.map((m) => <option key={m.value} value={m.value}>{m.label}</option>)}
            </select>
          )}
        </Field>
      </div>
      <Field label="Description">{(id) => <textarea id={id} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}</Field>
      <div className="actions">
        <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Saving…' : 'Save'}</button>
        <button className="btn" type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}

export function EventTypeDetailPage({ name }: { name: string }) {
  const { me } = useSession()
  const writer = canWrite(me.role)
  const { search } = useLocation()
  const [t, setT] = useState<EventType | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [mode, setMode] = useState<'' | 'edit' | 'version'>('')
  const { notice, setNotice, error, act } = useAction(search.get('created') ? 'Event type created.' : '')
  const load = () => api.get<EventType>(eventTypePath(name)).then(setT, setLoadError)
  useEffect(() => {
    setT(null)
    load()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name])

  if (loadError) {
    return (
      <section>
        <h1><code>{name}</code></h1>
        <ErrorMessage error={loadError} title={loadError instanceof ApiError && loadError.status === 404 ? 'No such event type' : 'Could not load the event type'} />
        <Link href="/event-types">Back to event types</Link>
      </section>
    )
  }
  if (!t) return <Loading what="Loading the event type" />
  const versions = t.versions ?? []
  const warnings = t.recent_warnings ?? []
  return (
    <section>
      <p><Link href="/event-types">← Event types</Link></p>
      <div className="page-head">
        <h1><code>{t.name}</code></h1>
        {writer && (
          <div className="actions">
            <button type="button" className="btn" onClick={() => setMode('edit')}>Edit</button>
            <button type="button" className="btn" onClick={() => act(async () => {
              setT(await api.patch<EventType>(eventTypePath(t.name), { deprecated: !t.deprecated } satisfies EventTypePatch))
              setNotice(t.deprecated ? 'No longer deprecated.' : 'Deprecated: events of this type are still accepted; the portal marks it.')
            })}>{t.deprecated ? 'Undeprecate' : 'Deprecate'}</button>
            <ConfirmButton confirmLabel="Yes, delete it and its versions" onConfirm={() => act(async () => {
              await api.del(eventTypePath(t.name))
              navigate('/event-types')
            })}>Delete</ConfirmButton>
          </div>
        )}
      </div>
      <Notice>{notice}</Notice>
      <ErrorMessage error={error} />
      <div className="card">
        <h2>Details</h2>
        {mode === 'edit' ? (
          <SettingsForm t={t} onCancel={() => setMode('')} onSaved={(saved) => { setT({ ...t, ...saved }); setMode(''); setNotice('Event type saved.') }} />
        ) : (
          <dl className="props">
            <dt>Group</dt><dd>{t.group || <span className="muted">none</span>}</dd>
            <dt>Description</dt><dd>{t.description || <span className="muted">none</span>}</dd>
            <dt>Validation</dt><dd><ValidationBadge mode={t.validation} /> <span className="muted">{validationModes.find((m) => m.value === t.validation)?.label}</span></dd>
            <dt>State</dt><dd>{t.deprecated ? <><Badge status="deprecated" /> since {formatTime(t.deprecated_at)}</> : 'current'}</dd>
            <dt>Latest version</dt><dd>{t.latest_version || <span className="muted">none: no schema yet</span>}</dd>
            <dt>Updated</dt><dd>{formatTime(t.updated_at)}</dd>
          </dl>
        )}
      </div>

      <div className="card">
        <div className="page-head">
          <h2>Versions</h2>
          {writer && mode !== 'version' && <button type="button" className="btn btn-small" onClick={() => setMode('version')}>Add version</button>}
        </div>
        <p className="muted">Versions never change; events are checked against the latest one.</p>
        {mode === 'version' && (
          <VersionForm initialSchema={versions[0] ? prettyJSON(versions[0].schema) : ''} onCancel={() => setMode('')} onSubmit={async (body) => {
            const v = await api.post<EventTypeVersion>(eventTypePath(t.name) + '/versions', body)
            setMode('')
            setNotice(`Version ${v.version} added.`)
            await load()
          }} />
        )}
        {versions.length === 0 ? <Empty title="No version yet">Add one with a JSON Schema to describe (and optionally check) this type's data.</Empty>
          : versions.map((v, i) => <Version key={v.version} v={v} open={i === 0} />)}
      </div>

      <div className="card">
        <h2>Recent validation warnings</h2>
        <p className="muted">With validation "warn", the latest 20 events whose data did not match (sampled).</p>
        {warnings.length === 0 ? <p className="muted">None.</p> : (
          <div className="table-wrap">
            <table className="stack">
              <thead><tr><th>When</th><th>Version</th><th>Field</th><th>Message</th></tr></thead>
              <tbody>
                {warnings.map((w, i) => (
                  <tr key={i} data-testid="schema-warning">
                    <td data-label="When" title={formatTime(w.at)}>{relativeTime(w.at)}</td>
                    <td data-label="Version">{w.version}</td>
                    <td data-label="Field"><code>{w.field}</code></td>
                    <td data-label="Message">{w.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  )
}
