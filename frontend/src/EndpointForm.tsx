// EndpointForm.tsx is the create/edit form for an endpoint.
import { useState, type FormEvent } from 'react'
import { ApiError } from './api'
import { ErrorMessage, Field } from './components'
import { toEndpointBody, type EndpointFormValues } from './endpointForm'

export function EndpointForm({
  initial, submitLabel, onSubmit, onCancel, chooseKind = false,
}: { initial: EndpointFormValues; submitLabel: string; onSubmit: (body: ReturnType<typeof toEndpointBody>) => Promise<void>; onCancel?: () => void; chooseKind?: boolean }) {
  const [v, setV] = useState(initial)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const set = (k: keyof EndpointFormValues) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value })
  const fieldErr = (f: string) => ((error as ApiError | null)?.field === f ? (error as Error).message : undefined)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setBusy(true)
    try {
      await onSubmit(toEndpointBody(v))
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form" onSubmit={submit}>
      <ErrorMessage error={error} title="Could not save the endpoint" />
      {chooseKind && (
        <Field label="Kind" hint="HTTP: Ferry POSTs each event to your URL. Queue: your consumers pull events with an API key or a consumer token." error={fieldErr('kind')}>
          {(id, d) => (
            <select id={id} aria-describedby={d} value={v.kind} onChange={set('kind')}>
              <option value="http">HTTP (push)</option>
              <option value="queue">Queue (pull)</option>
            </select>
          )}
        </Field>
      )}
      {v.kind !== 'queue' && (
        <Field label="URL" hint="Where Ferry POSTs your events, e.g. https://example.com/webhooks." error={fieldErr('url')}>
          {(id, d) => <input id={id} type="url" required aria-describedby={d} value={v.url} onChange={set('url')} placeholder="https://" />}
        </Field>
      )}
      <Field label="Description" error={fieldErr('description')}>
        {(id) => <input id={id} value={v.description} onChange={set('description')} />}
      </Field>
      <Field label="Event types" hint="Comma-separated, e.g. invoice.paid, user.created. Leave empty to receive every event type." error={fieldErr('event_types')}>
        {(id, d) => <input id={id} aria-describedby={d} value={v.eventTypes} onChange={set('eventTypes')} />}
      </Field>
      <div className="row">
        <Field label="Timeout (seconds)" hint="1–30" error={fieldErr('timeout_seconds')}>
          {(id, d) => <input id={id} inputMode="numeric" aria-describedby={d} value={v.timeoutSeconds} onChange={set('timeoutSeconds')} />}
        </Field>
        <Field label="Rate limit (per second)" hint="Optional" error={fieldErr('rate_limit_per_second')}>
          {(id, d) => <input id={id} inputMode="numeric" aria-describedby={d} value={v.rateLimit} onChange={set('rateLimit')} />}
        </Field>
        <Field label="Max in flight" hint="1 = strictly ordered" error={fieldErr('max_in_flight')}>
          {(id, d) => <input id={id} inputMode="numeric" aria-describedby={d} value={v.maxInFlight} onChange={set('maxInFlight')} />}
        </Field>
      </div>
      <Field label="Custom headers" hint='One per line, "Name: value".' error={fieldErr('headers')}>
        {(id, d) => <textarea id={id} rows={3} aria-describedby={d} value={v.headers} onChange={set('headers')} />}
      </Field>
      <div className="actions">
        <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Saving…' : submitLabel}</button>
        {onCancel && <button className="btn" type="button" onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  )
}
