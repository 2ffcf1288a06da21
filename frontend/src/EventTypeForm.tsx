// EventTypeForm.tsx creates an event type (name, group, description,
// validation, and version 1's schema and examples), and VersionForm adds
// a version to one.
import { useState, type FormEvent } from 'react'
import { ApiError } from './api'
import { CodeEditor } from './CodeEditor'
import { ErrorMessage, Field, fieldError } from './components'
import type { EventTypeInput } from './customerTypes'
import { emptyEventTypeForm, parseExamples, parseSchema, toEventTypeBody, validationModes, type EventTypeFormValues } from './eventTypes'

const formFields = ['name', 'group', 'description', 'validation', 'schema', 'examples']

const schemaPlaceholder = `{
  "type": "object",
  "required": ["amount"],
  "properties": { "amount": { "type": "integer" } }
}`

/** errorOf reads a FormError or an ApiError for the field errors of a form. */
function useFieldErrors(error: unknown) {
  const fieldErr = (f: string) => ((error as ApiError | null)?.field === f ? fieldError(error, formFields) : undefined)
  return { fieldErr, alertError: fieldError(error, formFields) ? null : error }
}

/** SchemaFields are the schema and examples editors of a version. */
function SchemaFields({ schema, examples, setSchema, setExamples, fieldErr }: {
  schema: string; examples: string; setSchema: (s: string) => void; setExamples: (s: string) => void; fieldErr: (f: string) => string | undefined
}) {
  return (
    <>
      <Field label="JSON Schema" error={fieldErr('schema')}
        hint={<>Draft 2020-12 (<code>$schema</code> absent or <code>https://json-schema.org/draft/2020-12/schema</code>), at most 64 KiB, no remote <code>$ref</code>. Empty: no schema.</>}>
        {(id, d) => <CodeEditor id={id} describedBy={d} rows={8} value={schema} onChange={setSchema} placeholder={schemaPlaceholder} />}
      </Field>
      <Field label="Examples" error={fieldErr('examples')} hint='Optional. A JSON array of up to 10 payloads, each matching the schema, e.g. [{"amount": 4200}].'>
        {(id, d) => <CodeEditor id={id} describedBy={d} rows={4} value={examples} onChange={setExamples} placeholder='[{"amount": 4200}]' />}
      </Field>
    </>
  )
}

export function EventTypeForm({ onSubmit, onCancel }: { onSubmit: (body: EventTypeInput) => Promise<void>; onCancel: () => void }) {
  const [v, setV] = useState<EventTypeFormValues>(emptyEventTypeForm)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const { fieldErr, alertError } = useFieldErrors(error)
  const set = (k: keyof EventTypeFormValues) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value })

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setBusy(true)
    try {
      await onSubmit(toEventTypeBody(v))
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form" onSubmit={submit}>
      <ErrorMessage error={alertError} title="Could not create the event type" />
      <Field label="Name" hint="The event's type, e.g. invoice.paid: letters, digits and . _ : - /, up to 100; not ferry.…" error={fieldErr('name')}>
        {(id, d) => <input id={id} required aria-describedby={d} value={v.name} onChange={set('name')} spellCheck={false} autoComplete="off" />}
      </Field>
      <div className="row">
        <Field label="Group" hint="Optional, e.g. billing: the portal groups types by it." error={fieldErr('group')}>
          {(id, d) => <input id={id} aria-describedby={d} value={v.group} onChange={set('group')} />}
        </Field>
        <Field label="Validation" error={fieldErr('validation')} hint="Checks POST /events against the latest schema.">
          {(id, d) => (
            <select id={id} aria-describedby={d} value={v.validation} onChange={set('validation')}>
              {validationModes.map((m) => <option key={m.value} value={m.value}>{m.label}</option>)}
            </select>
          )}
        </Field>
      </div>
      <Field label="Description" hint="Optional. What happened, for the people who subscribe." error={fieldErr('description')}>
        {(id, d) => <textarea id={id} rows={2} aria-describedby={d} value={v.description} onChange={set('description')} />}
      </Field>
      <SchemaFields schema={v.schema} examples={v.examples} fieldErr={fieldErr}
        setSchema={(schema) => setV({ ...v, schema })} setExamples={(examples) => setV({ ...v, examples })} />
      <div className="actions">
        <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Creating…' : 'Create event type'}</button>
        <button className="btn" type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}

/** VersionForm adds the next version of a type: a schema (required) and examples. */
export function VersionForm({ initialSchema, onSubmit, onCancel }: {
  initialSchema: string; onSubmit: (body: { schema: unknown; examples?: unknown[] }) => Promise<void>; onCancel: () => void
}) {
  const [schema, setSchema] = useState(initialSchema)
  const [examples, setExamples] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const { fieldErr, alertError } = useFieldErrors(error)
  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setBusy(true)
    try {
      const s = parseSchema(schema)
      if (s === undefined) throw new ApiError(422, 'invalid', 'A version needs a schema', 'schema')
      const ex = parseExamples(examples)
      await onSubmit({ schema: s, ...(ex ? { examples: ex } : {}) })
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form" onSubmit={submit}>
      <ErrorMessage error={alertError} title="Could not add the version" />
      <SchemaFields schema={schema} examples={examples} setSchema={setSchema} setExamples={setExamples} fieldErr={fieldErr} />
      <div className="actions">
        <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Adding…' : 'Add version'}</button>
        <button className="btn" type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
