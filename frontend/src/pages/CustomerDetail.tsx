// CustomerDetail.tsx: one customer: its endpoints and recent events, its
// portal sessions (revoke one or all), what its users did in the portal,
// and "Open portal as this customer".
import { Fragment, useEffect, useState } from 'react'
import { api, ApiError, query, type Page } from '../api'
import { Badge, ConfirmButton, Empty, ErrorMessage, Loading, Notice, Pager, useAction } from '../components'
import { CustomerForm } from '../CustomerForm'
import { customerEndpoints, HealthBadge } from '../CustomerHealth'
import { healthOf, memberPortalSession, sessionState } from '../customers'
import type { Customer, PortalAuditEntry, PortalSession, PortalSessionMinted, Revoked } from '../customerTypes'
import { EndpointForm } from '../EndpointForm'
import { emptyEndpointForm } from '../endpointForm'
import { endpointName } from '../endpointName'
import { formatTime, relativeTime } from '../format'
import { usePaged } from '../paging'
import { Link, navigate, useLocation } from '../router'
import { canWrite, useSession } from '../session'
import type { Endpoint, EndpointCreated, EventDetail } from '../types'
import { EventTable } from './Events'
import { DeleteCustomer } from './Customers'

function endpointState(ep: Endpoint): string {
  if (!ep.enabled) return 'disabled'
  return ep.failing_since ? 'failing' : 'enabled'
}

function externalUser(u: { id: string; email?: string }): string {
  return u.email && u.email !== u.id ? `${u.email} (${u.id})` : u.id
}

export function CustomerDetailPage({ uid }: { uid: string }) {
  const { me } = useSession()
  const writer = canWrite(me.role)
  const { search } = useLocation()
  const path = `/customers/${encodeURIComponent(uid)}`
  const [customer, setCustomer] = useState<Customer | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [endpoints, setEndpoints] = useState<{ endpoints: Endpoint[]; more: boolean } | null>(null)
  const [mode, setMode] = useState<'' | 'edit' | 'delete' | 'endpoint'>('')
  const [portalUrl, setPortalUrl] = useState('')
  const { notice, setNotice, error, setError, act } = useAction(search.get('created') ? 'Customer created.' : '')

  const loadEndpoints = () => customerEndpoints(uid).then(setEndpoints, setError)
  useEffect(() => {
    setCustomer(null)
    api.get<Customer>(path).then(setCustomer, setLoadError)
    loadEndpoints()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uid])

  const events = usePaged((cursor) => api.get<Page<EventDetail>>('/events' + query({ customer: uid, cursor, limit: 10 })), [uid])
  const sessions = usePaged((cursor) => api.get<Page<PortalSession>>('/portal-sessions' + query({ customer: uid, cursor, limit: 10 })), [uid])
  const audit = usePaged((cursor) => api.get<Page<PortalAuditEntry>>('/portal-audit' + query({ customer: uid, cursor, limit: 15 })), [uid])

  async function openPortal() {
    setError(null)
    setNotice('')
    setPortalUrl('')
    // Opened during the click, so no pop-up blocker stops it; pointed at the session's URL once minted.
    const tab = window.open('', '_blank')
    try {
      const minted = await api.post<PortalSessionMinted>(`${path}/portal-sessions`, memberPortalSession(me.email))
      if (tab) {
        tab.opener = null
        tab.location.href = minted.url
        setNotice(`The portal opened in a new tab as ${customer?.name || uid}. What you do there is audited as tenant:${me.email}.`)
      } else {
        setPortalUrl(minted.url)
      }
      sessions.reload()
      audit.reload()
    } catch (e) {
      tab?.close()
      setError(e)
    }
  }

  if (loadError) {
    return (
      <section>
        <h1>Customer</h1>
        <ErrorMessage error={loadError} title={loadError instanceof ApiError && loadError.status === 404 ? 'No such customer' : 'Could not load the customer'} />
        <Link href="/customers">Back to customers</Link>
      </section>
    )
  }
  if (!customer) return <Loading what="Loading the customer" />
  // The API's counts, not the endpoints listed below: those stop at 200.
  const health = healthOf(customer.endpoints)
  const activeSessions = sessions.items.filter((s) => sessionState(s) === 'active').length

  return (
    <section>
      <p><Link href="/customers">← Customers</Link></p>
      <div className="page-head">
        <h1>{customer.name || customer.uid}</h1>
        {writer && (
          <div className="actions">
            <button type="button" className="btn btn-primary" onClick={openPortal}>Open portal as this customer</button>
            <button type="button" className="btn" onClick={() => setMode('edit')}>Edit</button>
            <button type="button" className="btn btn-danger" onClick={() => setMode('delete')}>Delete</button>
          </div>
        )}
      </div>
      <Notice>{notice}</Notice>
      <ErrorMessage error={error} />
      {portalUrl && (
        <div className="alert alert-warn" role="status">
          Your browser blocked the new tab. <a href={portalUrl} target="_blank" rel="noopener noreferrer">Open the customer's portal</a> (the link works once, within 2 minutes).
        </div>
      )}
      {mode === 'delete' && (
        <DeleteCustomer customer={customer} onCancel={() => setMode('')} onDeleted={() => navigate('/customers')} />
      )}
      <div className="card">
        <h2>Details</h2>
        {mode === 'edit' ? (
          <CustomerForm customer={customer} onCancel={() => setMode('')} onSaved={(c) => { setCustomer(c); setMode(''); setNotice('Customer saved.') }} />
        ) : (
          <dl className="props">
            <dt>uid</dt><dd><code>{customer.uid}</code></dd>
            <dt>Name</dt><dd>{customer.name || <span className="muted">none</span>}</dd>
            {Object.entries(customer.metadata ?? {}).map(([k, v]) => <Fragment key={k}><dt>{k}</dt><dd>{v}</dd></Fragment>)}
            <dt>Created</dt><dd>{formatTime(customer.created_at)}</dd>
          </dl>
        )}
      </div>

      <div className="card">
        <div className="page-head">
          <h2>Endpoints</h2>
          {writer && mode !== 'endpoint' && <button type="button" className="btn btn-small" onClick={() => setMode('endpoint')}>Add endpoint for this customer</button>}
        </div>
        <HealthBadge health={health} />
        {mode === 'endpoint' && (
          <EndpointForm
            initial={{ ...emptyEndpointForm, customer: uid }}
            chooseKind
            submitLabel="Create endpoint"
            onCancel={() => setMode('')}
            onSubmit={async (body) => {
              const ep = await api.post<EndpointCreated>('/endpoints', body)
              navigate(`/endpoints/${ep.id}?created=1`)
            }}
          />
        )}
        {!endpoints ? <Loading /> : endpoints.endpoints.length === 0 ? (
          <Empty title="No endpoints">This customer's endpoints appear here once created, by you or by the customer in its portal.</Empty>
        ) : (
          <div className="table-wrap">
            <table className="stack">
              <thead><tr><th>Endpoint</th><th>Event types</th><th>State</th></tr></thead>
              <tbody>
                {endpoints.endpoints.map((ep) => (
                  <tr key={ep.id}>
                    <td data-label="Endpoint"><Link className="break" href={`/endpoints/${ep.id}`}>{endpointName(ep)}</Link></td>
                    <td data-label="Event types">{ep.event_types?.length ? ep.event_types.join(', ') : <span className="muted">all types</span>}</td>
                    <td data-label="State">
                      <Badge status={endpointState(ep)} />
                      {ep.enabled && ep.failing_since && <small className="muted"> since {relativeTime(ep.failing_since)}</small>}
                      {ep.disabled_reason && <div className="muted">{ep.disabled_reason}</div>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {endpoints.more && (
              <p className="muted">
                The first {endpoints.endpoints.length} of {health.total}.{' '}
                <Link href={'/endpoints?' + new URLSearchParams({ customer: customer.uid })}>All of this customer's endpoints</Link>
              </p>
            )}
          </div>
        )}
      </div>

      <div className="card">
        <h2>Recent events</h2>
        <ErrorMessage error={events.error} title="Could not load events" />
        {events.loading && events.items.length === 0 && <Loading />}
        {!events.loading && !events.error && events.items.length === 0 && (
          <Empty title="No events yet">Send events for this customer with <code>"customer": "{customer.uid}"</code>.</Empty>
        )}
        {events.items.length > 0 && <EventTable events={events.items} href={(id) => `/events/${id}`} endpoints={endpoints?.endpoints} />}
        <Pager list={events} label="Events" />
      </div>

      <div className="card">
        <div className="page-head">
          <h2>Portal sessions</h2>
          {writer && activeSessions > 0 && (
            <ConfirmButton confirmLabel="Yes, revoke all" onConfirm={() => act(async () => {
              const r = await api.post<Revoked>(`${path}/portal-sessions/revoke`, {})
              setNotice(`${r.revoked} portal session${r.revoked === 1 ? '' : 's'} revoked: they end on their next request.`)
              sessions.reload()
            })}>Revoke all sessions</ConfirmButton>
          )}
        </div>
        <p className="muted">Each session is minted by your backend (or by "Open portal as this customer") for one of the customer's users.</p>
        <ErrorMessage error={sessions.error} title="Could not load portal sessions" />
        {sessions.loading && sessions.items.length === 0 && <Loading />}
        {!sessions.loading && !sessions.error && sessions.items.length === 0 && <Empty title="No portal sessions">None has been minted for this customer yet.</Empty>}
        {sessions.items.length > 0 && (
          <div className="table-wrap">
            <table className="stack">
              <thead><tr><th>User</th><th>Capabilities</th><th>Created</th><th>State</th><th><span className="visually-hidden">Actions</span></th></tr></thead>
              <tbody>
                {sessions.items.map((s) => {
                  const state = sessionState(s)
                  return (
                    <tr key={s.id} data-testid="portal-session">
                      <td data-label="User">{externalUser(s.external_user)}</td>
                      <td data-label="Capabilities">{s.read_only ? 'read only' : (s.capabilities ?? []).join(', ')}{s.endpoint_ids?.length ? ` (${s.endpoint_ids.length} endpoints)` : ''}</td>
                      <td data-label="Created">{formatTime(s.created_at)}</td>
                      <td data-label="State">
                        <Badge status={state} />
                        <small className="muted"> {state === 'revoked' ? formatTime(s.revoked_at) : state === 'active' ? `until ${formatTime(s.expires_at)}` : formatTime(s.expires_at)}</small>
                      </td>
                      <td className="cell-actions">
                        {writer && state === 'active' && (
                          <ConfirmButton confirmLabel="Yes, revoke" onConfirm={() => act(async () => {
                            await api.del(`/portal-sessions/${s.id}`)
                            setNotice(`The session of ${externalUser(s.external_user)} was revoked.`)
                            sessions.reload()
                          })}>Revoke</ConfirmButton>
                        )}
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pager list={sessions} label="Portal sessions" />
      </div>

      <div className="card">
        <h2>Portal audit</h2>
        <p className="muted">What this customer's users did in the portal, newest first.</p>
        <ErrorMessage error={audit.error} title="Could not load the portal audit" />
        {audit.loading && audit.items.length === 0 && <Loading />}
        {!audit.loading && !audit.error && audit.items.length === 0 && <Empty title="Nothing yet">The customer's users have done nothing in the portal yet.</Empty>}
        {audit.items.length > 0 && (
          <div className="table-wrap">
            <table className="stack">
              <thead><tr><th>When</th><th>User</th><th>Action</th><th>Target</th></tr></thead>
              <tbody>
                {audit.items.map((a) => (
                  <tr key={a.id} data-testid="portal-audit">
                    <td data-label="When">{formatTime(a.at)}</td>
                    <td data-label="User">{externalUser(a.external_user)}</td>
                    <td data-label="Action"><code>{a.action}</code></td>
                    <td data-label="Target">{a.target ? <code className="id">{a.target}</code> : <span className="muted">—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager list={audit} label="Portal audit" />
      </div>
    </section>
  )
}
