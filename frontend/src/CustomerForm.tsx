// CustomerForm.tsx creates a customer (uid, name, metadata) or edits one
// (name, metadata): PUT /customers/{uid}.
import { useState, type FormEvent } from 'react'
import { api, ApiError } from './api'
import { ErrorMessage, Field, fieldError } from './components'
import { formatMetadata, parseMetadata, uidProblem } from './customers'
import type { Customer, CustomerInput } from './customerTypes'

const formFields = ['uid', 'name', 'metadata']

export function CustomerForm({ customer, onSaved, onCancel }: {
  /** customer is the one being edited; none creates a new one. */
  customer?: Customer
  onSaved: (c: Customer) => void
  onCancel: () => void
}) {
  const [uid, setUid] = useState(customer?.uid ?? '')
  const [name, setName] = useState(customer?.name ?? '')
  const [metadata, setMetadata] = useState(formatMetadata(customer?.metadata))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const fieldErr = (f: string) => ((error as ApiError | null)?.field === f ? fieldError(error, formFields) : undefined)
  const alertError = fieldError(error, formFields) ? null : error

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setBusy(true)
    try {
      const id = uid.trim()
      if (!customer) {
        const problem = uidProblem(id)
        if (problem) throw new ApiError(422, 'invalid', problem, 'uid')
        // PUT is an upsert: creating must not overwrite a customer that exists.
        const existing = await api.get<Customer>(`/customers/${encodeURIComponent(id)}`).catch((err) => {
          if (err instanceof ApiError && err.status === 404) return null
          throw err
        })
        if (existing) throw new ApiError(409, 'conflict', `A customer with the uid ${id} already exists: edit it instead`, 'uid')
      }
      const body: CustomerInput = { name: name.trim(), metadata: parseMetadata(metadata) }
      onSaved(await api.put<Customer>(`/customers/${encodeURIComponent(id)}`, body))
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form" onSubmit={submit}>
      <ErrorMessage error={alertError} title="Could not save the customer" />
      {!customer && (
        <Field label="Customer uid" hint="Your own id for this customer (e.g. your account id): letters, digits and . _ : @ -. It never changes." error={fieldErr('uid')}>
          {(id, d) => <input id={id} required aria-describedby={d} value={uid} onChange={(e) => setUid(e.target.value)} autoComplete="off" spellCheck={false} />}
        </Field>
      )}
      <Field label="Name" hint="Shown in the portal, e.g. Acme Inc." error={fieldErr('name')}>
        {(id, d) => <input id={id} aria-describedby={d} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Metadata" hint='Optional. One per line, "key: value", e.g. plan: gold.' error={fieldErr('metadata')}>
        {(id, d) => <textarea id={id} rows={3} aria-describedby={d} value={metadata} onChange={(e) => setMetadata(e.target.value)} spellCheck={false} />}
      </Field>
      <div className="actions">
        <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Saving…' : customer ? 'Save customer' : 'Create customer'}</button>
        <button className="btn" type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
