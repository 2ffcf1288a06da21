// EndpointForm.tsx is the create/edit form for an endpoint.
import { useState, type FormEvent } from 'react'
import { ApiError } from './api'
import { CodeEditor } from './CodeEditor'
import { ErrorMessage, Field, fieldError } from './components'
import { toEndpointBody, type EndpointFormValues } from './endpointForm'
import { RoutingTest } from './RoutingTest'
import { CustomerField } from './CustomerField'
import { TypePicker, type EventTypeCatalog } from './TypePicker'

/** formFields are the fields this form shows errors beside. */
const formFields = ['customer', 'kind', 'url', 'description', 'event_types', 'timeout_seconds', 'rate_limit_per_second', 'max_in_flight', 'headers', 'signature_timestamp', 'filter', 'format', 'transformation']

const transformationExample = `function handler(webhook) {
  const d = webhook.event.data
  webhook.payload = { text: 'Invoice ' + d.invoice + ' paid: ' + d.amount + ' ' + d.currency }
  return webhook
}`

export function EndpointForm({
  initial, submitLabel, onSubmit, onCancel, endpointId, chooseKind = false, routing = true, catalog,
}: {
  initial: EndpointFormValues; submitLabel: string; onSubmit: (body: ReturnType<typeof toEndpointBody>) => Promise<void>; onCancel?: () => void
  /** endpointId, when editing a saved endpoint, enables the routing test panel. */
  endpointId?: string
  /** chooseKind shows the http/queue choice (only when creating). */
  chooseKind?: boolean
  /** routing shows the filter and transformation (the embedded portal hides them without manage_routing). */
  routing?: boolean
  /** catalog is where the type picker reads the event types (the tenant API when not given; the embedded portal passes its own). */
  catalog?: EventTypeCatalog
}) {
  const [v, setV] = useState(initial)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const set = (k: keyof EndpointFormValues) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value })
  const fieldErr = (f: string) => ((error as ApiError | null)?.field === f ? fieldError(error, formFields) : undefined)
  // A field's error shows once, beside the field; others in the alert.
  const alertError = fieldError(error, formFields) ? null : error

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
    <>
      <form className="form" onSubmit={submit}>
        <ErrorMessage error={alertError} title="Could not save the endpoint" />
        {chooseKind && <CustomerField value={v.customer ?? ''} onChange={(customer) => setV({ ...v, customer })} error={fieldErr('customer')} />}
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
        {v.kind !== 'queue' && (
          <Field label="Format" hint="Envelope: Ferry's signed JSON envelope. Raw forwards the original body and content type, e.g. for a source forwarder." error={fieldErr('format')}>
            {(id, d) => (
              <select id={id} aria-describedby={d} value={v.format} onChange={set('format')}>
                <option value="envelope">Envelope (JSON)</option>
                <option value="raw">Raw (original body)</option>
              </select>
            )}
          </Field>
        )}
        <Field label="Description" hint={v.kind === 'queue' ? 'The queue\'s name in the portal, e.g. billing worker.' : undefined} error={fieldErr('description')}>
          {(id, d) => <input id={id} aria-describedby={d} value={v.description} onChange={set('description')} />}
        </Field>
        <Field label="Event types" hint="Comma-separated, e.g. invoice.paid, order.*, ferry.*. A trailing * matches any rest; leave empty (or *) to receive every event type." error={fieldErr('event_types')}>
          {(id, d) => <input id={id} aria-describedby={d} value={v.eventTypes} onChange={set('eventTypes')} />}
        </Field>
        <TypePicker value={v.eventTypes} onChange={(eventTypes) => setV({ ...v, eventTypes })} catalog={catalog} />
        <div className="row">
          {/* A queue is pulled: Ferry makes no request that could time out or be rate limited. */}
          {v.kind !== 'queue' && (
            <Field label="Timeout (seconds)" hint="1–30" error={fieldErr('timeout_seconds')}>
              {(id, d) => <input id={id} inputMode="numeric" aria-describedby={d} value={v.timeoutSeconds} onChange={set('timeoutSeconds')} />}
            </Field>
          )}
          {v.kind !== 'queue' && (
            <Field label="Rate limit (per second)" hint="Optional" error={fieldErr('rate_limit_per_second')}>
              {(id, d) => <input id={id} inputMode="numeric" aria-describedby={d} value={v.rateLimit} onChange={set('rateLimit')} />}
            </Field>
          )}
          <Field label="Max in flight" hint={v.kind === 'queue' ? '1 = strictly ordered: one message leased at a time' : '1 = strictly ordered'} error={fieldErr('max_in_flight')}>
            {(id, d) => <input id={id} inputMode="numeric" aria-describedby={d} value={v.maxInFlight} onChange={set('maxInFlight')} />}
          </Field>
        </div>
        <Field label="Custom headers" hint={v.kind === 'queue' ? 'One per line, "Name: value"; added to each pulled message\'s headers.' : 'One per line, "Name: value".'} error={fieldErr('headers')}>
          {(id, d) => <textarea id={id} rows={3} aria-describedby={d} value={v.headers} onChange={set('headers')} />}
        </Field>
        <Field label="Signature timestamp" hint="Standard Webhooks and Svix libraries refuse a webhook-timestamp older than 5 minutes: for receivers that verify with them unchanged, sign each attempt with its own time, so retries and replays pass. The body stays the same." error={fieldErr('signature_timestamp')}>
          {(id, d) => (
            <select id={id} aria-describedby={d} value={v.signatureTimestamp} onChange={(e) => setV({ ...v, signatureTimestamp: e.target.value === 'attempt' ? 'attempt' : 'event' })}>
              <option value="event">The event's time (every attempt byte-for-byte the same)</option>
              <option value="attempt">Each attempt's own time (for a 5-minute tolerance)</option>
            </select>
          )}
        </Field>
        {routing && <Field label="Filter (CEL)" hint={<>Optional. The endpoint gets an event only when this is true, e.g. <code>event.data.amount &gt;= 1000</code>. Fields: <code>event.id</code>, <code>event.type</code>, <code>event.created_at</code>, <code>event.data</code>.</>} error={fieldErr('filter')}>
          {(id, d) => <textarea id={id} rows={3} spellCheck={false} aria-describedby={d} value={v.filter} onChange={set('filter')} placeholder='event.data.amount >= 1000' />}
        </Field>}
        {routing && v.kind !== 'queue' && (
          <Field label="Transformation (JavaScript)" hint={<>Optional. <code>function handler(webhook) {'{ … return webhook }'}</code> runs once per delivery (50 ms, no network or timers) and may change <code>webhook.payload</code> (any JSON) and <code>webhook.headers</code> (not <code>webhook-*</code>), or set <code>webhook.cancel = true</code>. The input is <code>webhook.event</code> (<code>id</code>, <code>type</code>, <code>created_at</code>, <code>data</code>). The result is stored: retries and replays send the same body.</>} error={fieldErr('transformation')}>
            {(id, d) => <CodeEditor id={id} describedBy={d} rows={8} value={v.transformation} onChange={(t) => setV({ ...v, transformation: t })} placeholder={transformationExample} />}
          </Field>
        )}
        <div className="actions">
          <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Saving…' : submitLabel}</button>
          {onCancel && <button className="btn" type="button" onClick={onCancel}>Cancel</button>}
        </div>
      </form>
      {/* Outside the form: Enter in the sample event must not save the endpoint. */}
      {endpointId && <RoutingTest endpointId={endpointId} filter={v.filter} transformation={v.kind === 'queue' ? undefined : v.transformation} />}
    </>
  )
}
