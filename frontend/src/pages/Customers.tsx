// Customers.tsx: the tenant's customers, each with the health of its
// endpoints; create and edit (PUT /customers/{uid}) and delete.
import { useState } from 'react'
import { api, query, type Page } from '../api'
import { ConfirmPanel, Empty, ErrorMessage, Loading, Notice, Pager, useAction } from '../components'
import { CustomerForm } from '../CustomerForm'
import { HealthBadge } from '../CustomerHealth'
import { healthOf } from '../customers'
import type { Customer } from '../customerTypes'
import { formatTime } from '../format'
import { usePaged } from '../paging'
import { Link, navigate } from '../router'
import { canWrite, useSession } from '../session'

/** customerHref is a customer's page. */
export function customerHref(uid: string): string {
  return '/customers/' + encodeURIComponent(uid)
}

/** DeleteCustomer asks before deleting a customer and says what happens to its endpoints and history. */
export function DeleteCustomer({ customer, onDeleted, onCancel }: { customer: Customer; onDeleted: () => void; onCancel: () => void }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  return (
    <ConfirmPanel
      title={`Delete the customer ${customer.name || customer.uid}?`}
      confirmLabel="Yes, delete the customer"
      busy={busy}
      onCancel={onCancel}
      onConfirm={async () => {
        setBusy(true)
        setError(null)
        try {
          await api.del(`/customers/${encodeURIComponent(customer.uid)}`)
          onDeleted()
        } catch (e) {
          setError(e)
          setBusy(false)
        }
      }}
    >
      <p>Its endpoints are disabled (each says why) and receive nothing more; its events and delivery history are kept. Creating the
        uid <code>{customer.uid}</code> again brings the customer back with its history, its endpoints still disabled until you enable them.
        Its portal sessions stop working.</p>
      <ErrorMessage error={error} title="Could not delete the customer" />
    </ConfirmPanel>
  )
}

export function CustomersPage() {
  const { me } = useSession()
  const writer = canWrite(me.role)
  const [creating, setCreating] = useState(false)
  const [editing, setEditing] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<string | null>(null)
  const { notice, setNotice, error } = useAction()
  const list = usePaged((cursor) => api.get<Page<Customer>>('/customers' + query({ cursor, limit: 25 })), [])

  return (
    <section>
      <div className="page-head">
        <h1>Customers</h1>
        <div className="actions">
          <Link className="btn" href="/portal-settings">Portal settings</Link>
          {writer && !creating && <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>Add customer</button>}
        </div>
      </div>
      <p className="muted">
        Your customers, named by your own id for each (uid). A customer's endpoints receive only the events you send for that customer,
        and each customer can manage its own endpoints in the embedded portal.
      </p>
      {creating && (
        <div className="card">
          <h2>New customer</h2>
          <CustomerForm onCancel={() => setCreating(false)} onSaved={(c) => navigate(customerHref(c.uid) + '?created=1')} />
        </div>
      )}
      <Notice>{notice}</Notice>
      <ErrorMessage error={error} />
      <ErrorMessage error={list.error} title="Could not load customers" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && (
        <Empty title="No customers yet">
          Add a customer, then create endpoints for it and send its events with <code>"customer": "&lt;uid&gt;"</code>.
          {!writer && ' Ask an admin to add one.'}
        </Empty>
      )}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table className="stack">
            <thead><tr><th>Customer</th><th>Endpoints</th><th>Created</th><th><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {list.items.map((c) => (
                <tr key={c.uid}>
                  <td data-label="Customer">
                    <Link href={customerHref(c.uid)}>{c.name || c.uid}</Link>
                    <div className="muted"><code className="id">{c.uid}</code></div>
                    {editing === c.uid && (
                      <CustomerForm customer={c} onCancel={() => setEditing(null)}
                        onSaved={(saved) => { setEditing(null); setNotice(`${saved.name || saved.uid} saved.`); list.reload() }} />
                    )}
                    {deleting === c.uid && (
                      <DeleteCustomer customer={c} onCancel={() => setDeleting(null)}
                        onDeleted={() => { setDeleting(null); setNotice(`${c.name || c.uid} deleted; its endpoints are disabled.`); list.reload() }} />
                    )}
                  </td>
                  <td data-label="Endpoints"><HealthBadge health={healthOf(c.endpoints)} /></td>
                  <td data-label="Created">{formatTime(c.created_at)}</td>
                  <td className="cell-actions">
                    {writer && editing !== c.uid && deleting !== c.uid && (
                      <span className="actions">
                        <button type="button" className="btn btn-small" aria-label={`Edit ${c.name || c.uid}`} onClick={() => { setDeleting(null); setEditing(c.uid) }}>Edit</button>
                        <button type="button" className="btn btn-small btn-danger" aria-label={`Delete ${c.name || c.uid}`} onClick={() => { setEditing(null); setDeleting(c.uid) }}>Delete</button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={list} label="Customers" />
    </section>
  )
}
