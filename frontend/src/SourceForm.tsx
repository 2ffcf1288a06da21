// SourceForm.tsx is the create/edit form for an inbound source: the
// verification scheme shows only the fields it needs, with where the
// provider shows its secret; then the event type rule, the duplicate rule
// and an optional custom answer to the provider.
import { useState, type FormEvent } from 'react'
import { ErrorMessage, Field, sentence } from './components'
import {
  fieldsFor, formFieldOf, plainMessage, schemeInfo, schemes, toSourceBody, withScheme,
  type DedupeMode, type EventTypeMode, type SourceFormValues,
} from './sourceForm'
import type { SourceScheme } from './types'

const eventTypeLabels: Record<EventTypeMode, { label: string; hint: string; placeholder: string }> = {
  value: { label: 'Event type', hint: 'Every request becomes an event of this type, e.g. github.push.', placeholder: 'github.push' },
  header: { label: 'Event type header', hint: 'The request header that names the event, e.g. X-GitHub-Event.', placeholder: 'X-GitHub-Event' },
  json_path: { label: 'Event type JSON path', hint: 'Where the type is in the JSON body: dotted keys, numbers for list items, e.g. type or data.object.type.', placeholder: 'type' },
}

const dedupeLabels: Record<Exclude<DedupeMode, ''>, { label: string; placeholder: string }> = {
  header: { label: 'Duplicate key header', placeholder: 'X-GitHub-Delivery' },
  json_path: { label: 'Duplicate key JSON path', placeholder: 'id' },
}

export function SourceForm({
  initial, submitLabel, onSubmit, onCancel, editing = false,
}: {
  initial: SourceFormValues; submitLabel: string; onSubmit: (body: ReturnType<typeof toSourceBody>) => Promise<void>; onCancel?: () => void
  /** editing a saved source: secrets left empty keep the stored ones. */
  editing?: boolean
}) {
  const [v, setV] = useState(initial)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const set = (k: keyof SourceFormValues) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value })
  const errField = formFieldOf((error as { field?: string } | null)?.field)
  // A field's error shows once, beside the field; others in the alert.
  const fieldErr = (f: string) => (errField === f ? sentence(plainMessage((error as Error).message)) : undefined)
  const alertError = errField ? null : error
  const fields = fieldsFor(v.scheme)
  const info = schemeInfo(v.scheme)
  const keepHint = editing ? ' Leave empty to keep the current one.' : ''
  const et = eventTypeLabels[v.eventTypeMode]

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setBusy(true)
    try {
      await onSubmit(toSourceBody(v, editing))
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form" onSubmit={submit}>
      <ErrorMessage error={alertError && { message: plainMessage((alertError as Error).message ?? String(alertError)) }} title="Could not save the source" />
      <Field label="Name" hint="For you, e.g. GitHub: acme/shop." error={fieldErr('name')}>
        {(id, d) => <input id={id} required aria-describedby={d} value={v.name} onChange={set('name')} />}
      </Field>

      <fieldset className="fieldset">
        <legend>Verification</legend>
        <Field label="Sender" hint={info.help} error={fieldErr('verification.type')}>
          {(id, d) => (
            <select id={id} aria-describedby={d} value={v.scheme} onChange={(e) => setV(withScheme(v, e.target.value as SourceScheme))}>
              {schemes.map((s) => <option key={s.scheme} value={s.scheme}>{s.label}</option>)}
            </select>
          )}
        </Field>
        {fields.includes('secret') && (
          <Field label="Signing secret" hint={`Copied from the provider.${keepHint}`} error={fieldErr('verification.secret')}>
            {(id, d) => <input id={id} aria-describedby={d} autoComplete="off" spellCheck={false} value={v.secret} onChange={set('secret')} required={!editing} />}
          </Field>
        )}
        {fields.includes('header') && (
          <Field label="Signature header" hint="The header the sender puts the signature in." error={fieldErr('verification.header')}>
            {(id, d) => <input id={id} aria-describedby={d} spellCheck={false} value={v.header} onChange={set('header')} placeholder="X-Signature" required />}
          </Field>
        )}
        {(fields.includes('encoding') || fields.includes('prefix')) && (
          <div className="row">
            <Field label="Signature written as" error={fieldErr('verification.encoding')}>
              {(id) => (
                <select id={id} value={v.encoding} onChange={set('encoding')}>
                  <option value="hex">hex</option>
                  <option value="base64">base64</option>
                </select>
              )}
            </Field>
            <Field label="Prefix" hint="Text before the signature, e.g. sha256=. Optional." error={fieldErr('verification.prefix')}>
              {(id, d) => <input id={id} aria-describedby={d} spellCheck={false} value={v.prefix} onChange={set('prefix')} />}
            </Field>
          </div>
        )}
        {fields.includes('username') && (
          <div className="row">
            <Field label="Username" error={fieldErr('verification.username')}>
              {(id) => <input id={id} autoComplete="off" value={v.username} onChange={set('username')} required />}
            </Field>
            <Field label="Password" hint={keepHint.trim() || undefined} error={fieldErr('verification.password')}>
              {(id, d) => <input id={id} type="password" autoComplete="new-password" aria-describedby={d} value={v.password} onChange={set('password')} required={!editing} />}
            </Field>
          </div>
        )}
      </fieldset>

      <fieldset className="fieldset">
        <legend>Event type</legend>
        <div className="row">
          <Field label="Take the event type from">
            {(id) => (
              <select id={id} value={v.eventTypeMode} onChange={(e) => setV({ ...v, eventTypeMode: e.target.value as EventTypeMode })}>
                <option value="value">a fixed value</option>
                <option value="header">a request header</option>
                <option value="json_path">a JSON path in the body</option>
              </select>
            )}
          </Field>
          <Field label={et.label} hint={et.hint} error={fieldErr('event_type')}>
            {(id, d) => <input id={id} aria-describedby={d} spellCheck={false} value={v.eventTypeValue} onChange={set('eventTypeValue')} placeholder={et.placeholder} required />}
          </Field>
        </div>
        {v.eventTypeMode !== 'value' && (
          <Field label="Default type" hint="Used when the request has no valid type there. Optional (else unknown)." error={fieldErr('event_type.default')}>
            {(id, d) => <input id={id} aria-describedby={d} spellCheck={false} value={v.eventTypeDefault} onChange={set('eventTypeDefault')} />}
          </Field>
        )}
      </fieldset>

      <fieldset className="fieldset">
        <legend>Duplicates</legend>
        <div className="row">
          <Field label="Drop resends" hint="A request whose key was seen in the last 24 hours is kept but makes no second event.">
            {(id, d) => (
              <select id={id} aria-describedby={d} value={v.dedupeMode} onChange={(e) => setV({ ...v, dedupeMode: e.target.value as DedupeMode })}>
                <option value="">no, forward every request</option>
                <option value="header">by a request header</option>
                <option value="json_path">by a JSON path in the body</option>
              </select>
            )}
          </Field>
          {v.dedupeMode && (
            <Field label={dedupeLabels[v.dedupeMode].label} error={fieldErr('dedupe')}>
              {(id) => <input id={id} spellCheck={false} value={v.dedupeValue} onChange={set('dedupeValue')} placeholder={dedupeLabels[v.dedupeMode as 'header'].placeholder} required />}
            </Field>
          )}
        </div>
      </fieldset>

      <fieldset className="fieldset">
        <legend>Answer to the sender</legend>
        <label className="checkbox">
          <input type="checkbox" checked={v.customResponse} onChange={(e) => setV({ ...v, customResponse: e.target.checked })} />{' '}
          <span><strong>Custom response</strong> <span className="muted">Ferry answers accepted requests with 200 and <code>{'{}'}</code> unless you set your own.</span></span>
        </label>
        {v.customResponse && (
          <>
            <div className="row">
              <Field label="Status" hint="200–299" error={fieldErr('response.status')}>
                {(id, d) => <input id={id} inputMode="numeric" aria-describedby={d} value={v.responseStatus} onChange={set('responseStatus')} />}
              </Field>
              <Field label="Content type" hint="application/json, text/plain, application/xml or text/xml" error={fieldErr('response.content_type')}>
                {(id, d) => <input id={id} spellCheck={false} aria-describedby={d} value={v.responseContentType} onChange={set('responseContentType')} />}
              </Field>
            </div>
            <Field label="Response body" hint="At most 4 KiB." error={fieldErr('response.body')}>
              {(id, d) => <textarea id={id} rows={3} spellCheck={false} aria-describedby={d} value={v.responseBody} onChange={set('responseBody')} />}
            </Field>
          </>
        )}
      </fieldset>

      <div className="actions">
        <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Saving…' : submitLabel}</button>
        {onCancel && <button className="btn" type="button" onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  )
}
