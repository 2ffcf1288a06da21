// CustomerField.tsx is the optional customer of a new endpoint: a uid,
// typed or chosen from the tenant's customers.
import { useEffect, useState } from 'react'
import { api, query, type Page } from './api'
import { Field } from './components'
import type { Customer } from './customerTypes'

export function CustomerField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error?: string }) {
  const [customers, setCustomers] = useState<Customer[]>([])
  useEffect(() => {
    api.get<Page<Customer>>('/customers' + query({ limit: 200 })).then((p) => setCustomers(p?.data ?? []), () => setCustomers([]))
  }, [])
  return (
    <Field label="Customer" error={error}
      hint="Optional. The uid of the customer this endpoint belongs to: it then receives only that customer's events (and none of your own). Set once, at creation.">
      {(id, d) => (
        <>
          <input id={id} list={id + '-customers'} aria-describedby={d} value={value} onChange={(e) => onChange(e.target.value)} autoComplete="off" spellCheck={false} placeholder="none: your own endpoint" />
          <datalist id={id + '-customers'}>
            {customers.map((c) => <option key={c.uid} value={c.uid}>{c.name || c.uid}</option>)}
          </datalist>
        </>
      )}
    </Field>
  )
}
