// Endpoints.tsx: the list of endpoints (with whose each is: a customer's,
// or the tenant's own; ?customer=uid lists one customer's) and the create form.
import { useEffect, useState } from 'react'
import { api, query, type Page } from '../api'
import { Empty, ErrorMessage, Loading, Notice, Pager } from '../components'
import { EndpointForm } from '../EndpointForm'
import { emptyEndpointForm } from '../endpointForm'
import { HealthCell } from '../HealthCell'
import { endpointHealth, linesById } from '../stats'
import { endpointName, isQueue } from '../endpointName'
import { usePaged } from '../paging'
import { Link, navigate, useLocation } from '../router'
import { canWrite, useSession } from '../session'
import type { Endpoint, EndpointCreated, EndpointPatch, EndpointStatsLine, TenantStats } from '../types'

export function EndpointsPage() {
  const { me } = useSession()
  const [creating, setCreating] = useState(false)
  const [notice, setNotice] = useState('')
  const [actionError, setActionError] = useState<unknown>(null)
  const { search } = useLocation()
  const customer = search.get('customer') ?? ''
  const [customerInput, setCustomerInput] = useState(customer)
  useEffect(() => setCustomerInput(customer), [customer])
  const list = usePaged((cursor) => api.get<Page<Endpoint>>('/endpoints' + query({ customer, cursor, limit: 25 })), [customer])
  // Health over the last 24 h, per endpoint, from the server's stats.
  const [lines, setLines] = useState<Record<string, EndpointStatsLine>>({})
  useEffect(() => {
    api.get<TenantStats>('/stats' + query({ window: '24h' })).then((st) => setLines(linesById(st.endpoints)), () => setLines({}))
  }, [list.items])

  async function toggle(ep: Endpoint) {
    setActionError(null)
    try {
      await api.patch<Endpoint>(`/endpoints/${ep.id}`, { enabled: !ep.enabled } satisfies EndpointPatch)
      setNotice(`${endpointName(ep)} ${ep.enabled ? 'disabled' : 'enabled'}.`)
      list.reload()
    } catch (e) {
      setActionError(e)
    }
  }

  return (
    <section>
      <div className="page-head">
        <h1>Endpoints</h1>
        {canWrite(me.role) && !creating && (
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>Add endpoint</button>
        )}
      </div>
      {creating && (
        <div className="card">
          <h2>New endpoint</h2>
          <EndpointForm
            initial={emptyEndpointForm}
            chooseKind
            submitLabel="Create endpoint"
            onCancel={() => setCreating(false)}
            onSubmit={async (body) => {
              const ep = await api.post<EndpointCreated>('/endpoints', body)
              navigate(`/endpoints/${ep.id}?created=1`)
            }}
          />
        </div>
      )}
      <form className="inline-field filters" role="search" aria-label="Filter endpoints by customer" onSubmit={(e) => {
        e.preventDefault()
        const uid = customerInput.trim()
        navigate('/endpoints' + (uid ? '?' + new URLSearchParams({ customer: uid }) : ''), true)
      }}>
        <label htmlFor="endpoints-customer">Filter by customer</label>
        <input id="endpoints-customer" value={customerInput} onChange={(e) => setCustomerInput(e.target.value)} placeholder="uid" autoComplete="off" spellCheck={false} />
        <button type="submit" className="btn btn-small">Filter</button>
        {customer && <button type="button" className="btn btn-small" onClick={() => navigate('/endpoints', true)}>Show all</button>}
      </form>
      <Notice>{notice}</Notice>
      <ErrorMessage error={actionError} />
      <ErrorMessage error={list.error} title="Could not load endpoints" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && customer && (
        <Empty title="No endpoints for this customer">Customer <code>{customer}</code> has no endpoints. <Link href="/endpoints">Show all endpoints</Link>.</Empty>
      )}
      {!list.loading && !list.error && list.items.length === 0 && !customer && (
        <Empty title="No endpoints yet">
          An endpoint is a URL of yours that receives events, or a queue your consumers pull them from. {canWrite(me.role) ? 'Use "Add endpoint" to create one.' : 'Ask an admin to add one.'}
        </Empty>
      )}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr><th>Endpoint</th><th>Customer</th><th>Event types</th><th>Health</th><th><span className="visually-hidden">Actions</span></th></tr>
            </thead>
            <tbody>
              {list.items.map((ep) => (
                <tr key={ep.id}>
                  <td>
                    <Link className="break" href={`/endpoints/${ep.id}`}>{endpointName(ep)}</Link>
                    {isQueue(ep) ? <div className="muted">Pull queue: consumers pull its events</div> : ep.description && <div className="muted">{ep.description}</div>}
                  </td>
                  <td data-testid="endpoint-customer">{ep.customer ? <Link href={`/customers/${encodeURIComponent(ep.customer)}`}><code>{ep.customer}</code></Link> : null}</td>
                  <td>{ep.event_types?.length ? ep.event_types.join(', ') : <span className="muted">all types</span>}</td>
                  <td>
                    <HealthCell health={endpointHealth(ep, lines[ep.id])} window="24 h" />
                    {ep.disabled_reason && <div className="muted">{ep.disabled_reason}</div>}
                  </td>
                  <td className="cell-actions">
                    {canWrite(me.role) && (
                      <button type="button" className="btn btn-small" onClick={() => toggle(ep)} aria-label={`${ep.enabled ? 'Disable' : 'Enable'} ${endpointName(ep)}`}>
                        {ep.enabled ? 'Disable' : 'Enable'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={list} label="Endpoints" />
    </section>
  )
}
