// Staff.tsx: the support staff console: tenant search, a tenant's events
// and deliveries, replay with a reason (audited), and the audit log.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { api, ApiError, query, type Page } from '../api'
import { BulkReplay } from '../BulkReplay'
import { Badge, Empty, ErrorMessage, Field, Loading, Pager } from '../components'
import { formatTime, prettyJSON } from '../format'
import { usePaged, type PagedList } from '../paging'
import type { ReplayBody } from '../replayJob'
import { Link, navigate } from '../router'
import type { AuditEntry, FerryEvent, ReplayJob, ReplayResult, StaffEventDetail, StaffEventLookup, StaffReplayInput, StaffTenant, TenantSummary } from '../types'
import { EventView } from './EventDetail'
import { EventFilterForm, EventTable, type EventFilters } from './Events'

const base = (id: string) => `/staff/tenants/${encodeURIComponent(id)}`

/**
 * EventLookup finds an event by its id across tenants (the id a support
 * ticket names) and opens it in its tenant.
 */
export function EventLookup() {
  const [id, setId] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  async function submit(e: FormEvent) {
    e.preventDefault()
    const eventId = id.trim()
    if (!eventId) return
    setBusy(true)
    setError(null)
    try {
      const found = await api.get<StaffEventLookup>('/staff/events/' + encodeURIComponent(eventId))
      navigate(`${base(found.tenant.id)}/events/${encodeURIComponent(found.event.id)}`)
    } catch (err) {
      setError(err instanceof ApiError && err.status === 404 ? new Error(`No event has the id "${eventId}".`) : err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form form-inline" role="search" aria-label="Event lookup" onSubmit={submit}>
      <ErrorMessage error={error} title="Event not found" />
      <Field label="Find an event" hint="Its id, from a support ticket or a receiver's log; any tenant.">
        {(fid, d) => <input id={fid} type="search" placeholder="Event id" aria-describedby={d} value={id} onChange={(e) => setId(e.target.value)} />}
      </Field>
      <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Looking…' : 'Open event'}</button>
    </form>
  )
}

export function StaffTenantsPage() {
  const [q, setQ] = useState('')
  const [applied, setApplied] = useState('')
  const list = usePaged((cursor) => api.get<Page<TenantSummary>>('/staff/tenants' + query({ q: applied, cursor })), [applied])
  function submit(e: FormEvent) {
    e.preventDefault()
    setApplied(q.trim())
  }
  return (
    <section>
      <h1>Tenants</h1>
      <EventLookup />
      <form className="form form-inline" role="search" onSubmit={submit}>
        <Field label="Search tenants" hint="Organisation name, member email or tenant id.">
          {(id, d) => <input id={id} type="search" aria-describedby={d} value={q} onChange={(e) => setQ(e.target.value)} />}
        </Field>
        <button className="btn btn-primary" type="submit">Search</button>
      </form>
      <ErrorMessage error={list.error} title="Search failed" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && <Empty title={applied ? `No tenant matches "${applied}"` : 'No tenants yet'}>Try part of the organisation name or a member's email.</Empty>}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead><tr><th>Organisation</th><th>Owner</th><th>Plan</th><th>Members</th><th>Created</th></tr></thead>
            <tbody>
              {list.items.map((t) => (
                <tr key={t.id}>
                  <td><Link href={`/staff/tenants/${t.id}`}>{t.name}</Link><div className="muted"><code className="id">{t.id}</code></div></td>
                  <td>{t.owner_email || '—'}</td>
                  <td>{t.plan}</td>
                  <td>{t.members}</td>
                  <td>{formatTime(t.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={list} label="Tenants" />
    </section>
  )
}

function useStaffTenant(id: string) {
  const [t, setT] = useState<StaffTenant | null>(null)
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    api.get<StaffTenant>(base(id)).then(setT, setError)
  }, [id])
  return { t, error }
}

export function StaffTenantPage({ id }: { id: string }) {
  const { t, error } = useStaffTenant(id)
  const [filters, setFilters] = useState<EventFilters>({ type: '', status: '', endpoint_id: '', since: '', until: '' })
  const events = usePaged(
    (cursor) => api.get<Page<FerryEvent>>(base(id) + '/events' + query({ ...filters, cursor, limit: 25 })),
    [id, filters.type, filters.status, filters.since, filters.until],
  )
  const audit = usePaged((cursor) => api.get<Page<AuditEntry>>('/staff/audit' + query({ tenant_id: id, cursor, limit: 10 })), [id])
  const start = useCallback((body: ReplayBody) => api.post<ReplayJob>(base(id) + '/replays', body), [id])
  const getJob = useCallback((jobId: string) => api.get<ReplayJob>(`${base(id)}/replays/${encodeURIComponent(jobId)}`), [id])
  return (
    <section>
      <p><Link href="/staff">← Tenants</Link></p>
      <ErrorMessage error={error} title="Could not load the tenant" />
      <h1>{t ? t.name : 'Tenant'}</h1>
      {t && (
        <p className="muted">
          <code>{t.id}</code> · plan {t.plan} · created {formatTime(t.created_at)}
        </p>
      )}
      {t && <TenantOverview t={t} />}
      <div className="card">
        <h2>Events</h2>
        <EventFilterForm onApply={setFilters} />
        <ErrorMessage error={events.error} title="Could not load events" />
        {events.loading && events.items.length === 0 && <Loading />}
        {!events.loading && !events.error && events.items.length === 0 && <Empty title="No events">This tenant has no events matching the filters.</Empty>}
        {events.items.length > 0 && <EventTable events={events.items} href={(eid) => `${base(id)}/events/${eid}`} />}
        <Pager list={events} label="Events" />
      </div>
      <div className="card">
        <h2>Bulk replay for this tenant</h2>
        <BulkReplay endpoints={t?.endpoints ?? []} start={start} get={getJob} needReason storageKey={`ferry.staffReplay.${id}`} />
      </div>
      <div className="card">
        <h2>Recent staff actions on this tenant</h2>
        <AuditTable list={audit} />
      </div>
    </section>
  )
}

export function StaffEventPage({ tenantId, eventId }: { tenantId: string; eventId: string }) {
  const [reason, setReason] = useState('')
  const reasonRef = useRef(reason)
  reasonRef.current = reason
  const load = useCallback(async () => {
    const event = await api.get<StaffEventDetail>(`${base(tenantId)}/events/${eventId}`)
    return { event, attempts: event.attempts ?? [] }
  }, [tenantId, eventId])
  const replay = useCallback(async (t: { deliveryId?: string; endpointId?: string }) => {
    const r = reasonRef.current.trim()
    if (!r) throw new ApiError(422, 'invalid', 'Enter a reason for the replay; it is recorded in the audit log.', 'reason')
    const body: StaffReplayInput = t.deliveryId ? { reason: r, delivery_id: t.deliveryId } : { reason: r, event_id: eventId }
    await api.post<ReplayResult | ReplayJob>(`${base(tenantId)}/replays`, body)
  }, [tenantId, eventId])
  return (
    <EventView
      load={load}
      replay={replay}
      back={{ href: base(tenantId), label: 'Tenant' }}
      replayExtra={
        <div className="field reason">
          <label htmlFor="replay-reason">Reason for replay (audited)</label>
          <input id="replay-reason" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="e.g. ticket #1234: customer's endpoint was down" />
        </div>
      }
    />
  )
}

function AuditTable({ list }: { list: PagedList<AuditEntry> }) {
  return (
    <>
      <ErrorMessage error={list.error} title="Could not load the audit log" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && <Empty title="No staff actions recorded yet">Replays and other staff actions appear here with who did them and why.</Empty>}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead><tr><th>When</th><th>Who</th><th>Action</th><th>Tenant</th><th>Reason</th><th>Detail</th></tr></thead>
            <tbody>
              {list.items.map((a) => (
                <tr key={a.id} data-testid="audit-row">
                  <td>{formatTime(a.created_at)}</td>
                  <td>{a.actor_email || a.staff_id}</td>
                  <td><code>{a.action}</code></td>
                  <td>{a.tenant_id ? <Link href={base(a.tenant_id)}><code className="id">{a.tenant_id.slice(0, 8)}</code></Link> : '—'}</td>
                  <td>{a.reason || '—'}</td>
                  <td>{a.detail ? <details><summary>show</summary><pre className="code">{prettyJSON(a.detail)}</pre></details> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={list} label="Audit log" />
    </>
  )
}

export function StaffAuditPage() {
  const list = usePaged((cursor) => api.get<Page<AuditEntry>>('/staff/audit' + query({ cursor, limit: 50 })), [])
  return (
    <section>
      <div className="page-head">
        <h1>Audit log</h1>
        <button type="button" className="btn" onClick={list.reload}>Refresh</button>
      </div>
      <p className="muted">Every staff action on a tenant: who, what, when and why.</p>
      <AuditTable list={list} />
    </section>
  )
}

/** TenantOverview shows a tenant's endpoints and members to staff (never secrets). */
function TenantOverview({ t }: { t: StaffTenant }) {
  const members = t.members ?? []
  const endpoints = t.endpoints ?? []
  return (
    <div className="grid-2">
      <div className="card">
        <h2>Endpoints</h2>
        {endpoints.length === 0 ? <p className="muted">No endpoints.</p> : (
          <ul className="plain-list">
            {endpoints.map((ep) => (
              <li key={ep.id}>
                <Badge status={ep.enabled ? 'enabled' : 'disabled'} /> <span className="break">{ep.url}</span>
                {ep.failing_since && <div className="muted">failing since {formatTime(ep.failing_since)}</div>}
                {ep.disabled_reason && <div className="muted">{ep.disabled_reason}</div>}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="card">
        <h2>Members</h2>
        {members.length === 0 ? <p className="muted">No members listed.</p> : (
          <ul className="plain-list">
            {members.map((m) => <li key={m.id}>{m.email} <span className="muted">({m.role})</span></li>)}
          </ul>
        )}
      </div>
    </div>
  )
}
