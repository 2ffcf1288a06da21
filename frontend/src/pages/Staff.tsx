// Staff.tsx: the support staff console: event lookup by id, tenant
// search, a tenant's usage and health, events and deliveries, an
// endpoint's attempt log, replay with a reason (audited), and the audit log.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { api, ApiError, query, type Page } from '../api'
import { AttemptList, OutcomeSelect } from '../Attempts'
import { BulkReplay } from '../BulkReplay'
import { Badge, Empty, ErrorMessage, Field, Loading, Pager, ProgressBar } from '../components'
import { formatAge, formatCount, formatPercent, formatTime, relativeTime } from '../format'
import { usePaged } from '../paging'
import type { ReplayBody } from '../replayJob'
import { Link, navigate } from '../router'
import { rateOf } from '../stats'
import { endpointName } from '../endpointName'
import type { Attempt, AuditEntry, EventDetail, ReplayJob, ReplayPreview, ReplayResult, StaffEventDetail, StaffEventLookup, StaffReplayInput, StaffTenant, StaffTenantHealth, TenantSummary } from '../types'
import { EventView } from './EventDetail'
import { EventFilterForm, EventTable, type EventFilters } from './Events'
import { AuditTable } from './StaffAudit'

const base = (id: string) => `/staff/tenants/${encodeURIComponent(id)}`

/** staffEndpointHref is the staff console's page of an endpoint: its attempt log. */
export const staffEndpointHref = (tenantId: string, endpointId: string) => `${base(tenantId)}/endpoints/${encodeURIComponent(endpointId)}`

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
    (cursor) => api.get<Page<EventDetail>>(base(id) + '/events' + query({ ...filters, cursor, limit: 25 })),
    [id, filters.type, filters.status, filters.endpoint_id, filters.since, filters.until],
  )
  const writes = usePaged((cursor) => api.get<Page<AuditEntry>>('/staff/audit' + query({ tenant_id: id, kind: 'write', cursor, limit: 10 })), [id])
  const start = useCallback((body: ReplayBody) => api.post<ReplayJob>(base(id) + '/replays', body), [id])
  const getJob = useCallback((jobId: string) => api.get<ReplayJob>(`${base(id)}/replays/${encodeURIComponent(jobId)}`), [id])
  const preview = useCallback((body: ReplayBody) => api.post<ReplayPreview>(base(id) + '/replays/preview', body), [id])
  const endpoints = t?.endpoints ?? []
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
      {!t && !error && <Loading />}
      {t && <TenantHealth tenantId={t.id} h={t.health} />}
      {t && <TenantOverview t={t} />}
      <div className="card">
        <h2>Events</h2>
        <EventFilterForm onApply={setFilters} endpoints={endpoints} />
        <ErrorMessage error={events.error} title="Could not load events" />
        {events.loading && events.items.length === 0 && <Loading />}
        {!events.loading && !events.error && events.items.length === 0 && <Empty title="No events">This tenant has no events matching the filters.</Empty>}
        {events.items.length > 0 && <EventTable events={events.items} href={(eid) => `${base(id)}/events/${eid}`} endpoints={endpoints} />}
        <Pager list={events} label="Events" />
      </div>
      <div className="card">
        <h2>Bulk replay for this tenant</h2>
        <BulkReplay endpoints={endpoints} start={start} get={getJob} preview={preview} needReason storageKey={`ferry.staffReplay.${id}`} />
      </div>
      <div className="card">
        <div className="page-head">
          <h2>Staff changes to this tenant</h2>
          <Link className="btn btn-small" href={'/staff/audit' + query({ tenant_id: id, kind: 'all' })}>Full audit log of this tenant</Link>
        </div>
        <p className="muted">Replays, restriction lifts and other actions that changed something; views are in the full log.</p>
        <AuditTable list={writes} emptyTitle="No staff changes to this tenant yet" />
      </div>
    </section>
  )
}

/**
 * TenantHealth shows, from the server's figures, a tenant's plan, usage
 * this period against its quota, endpoints, the success rate of the last
 * 24 h, the backlog and any restriction.
 */
export function TenantHealth({ tenantId, h }: { tenantId: string; h: StaffTenantHealth }) {
  const plan = h.plan.display_name || h.plan.name
  const quota = h.plan.events_per_month
  const finished = h.succeeded_24h + h.failed_24h
  const restrictions: string[] = []
  if (h.payment_overdue) restrictions.push('Payment overdue: new events and replays are refused (402) until paid or lifted.')
  if (h.quota_exhausted) restrictions.push(`Monthly quota used up: new events are refused (429) until ${formatTime(h.usage.period_end)}.`)
  return (
    <div className="card" aria-label="Usage and health" data-testid="tenant-health">
      <h2>Usage and health</h2>
      <div className="stats">
        <div className="stat">
          <span className="stat-label">Plan</span>
          <span className="stat-value" data-testid="health-plan">{plan}</span>
          <small className="muted">{h.plan.custom ? 'custom terms · ' : ''}{formatCount(h.plan.events_per_second)} events/s · {formatCount(h.plan.retention_days)}-day logs</small>
        </div>
        <div className="stat">
          <span className="stat-label">Events ({h.usage.period})</span>
          <span className="stat-value" data-testid="health-events">{formatCount(h.usage.events)}</span>
          <small className="muted">of {formatCount(quota)} {h.plan.hard_cap ? '(hard cap)' : 'included'}</small>
        </div>
        <div className="stat">
          <span className="stat-label">Attempts ({h.usage.period})</span>
          <span className="stat-value" data-testid="health-attempts">{formatCount(h.usage.attempts)}</span>
          <small className="muted">counted every few minutes; not billed</small>
        </div>
        <div className="stat">
          <span className="stat-label">Endpoints</span>
          <span className="stat-value" data-testid="health-endpoints">{formatCount(h.endpoints.total)} of {formatCount(h.plan.max_endpoints)}</span>
          <small className="muted">{formatCount(h.endpoints.enabled)} enabled · {formatCount(h.endpoints.disabled)} disabled · {formatCount(h.endpoints.failing)} failing</small>
        </div>
        <div className="stat">
          <span className="stat-label">Success rate (24 h)</span>
          <span className="stat-value" data-testid="health-success">{formatPercent(rateOf(h.success_rate_24h))}</span>
          <small className="muted">{finished === 0 ? 'no delivery has finished yet' : `${formatCount(h.succeeded_24h)} of ${formatCount(finished)} deliveries finished`}</small>
        </div>
        <div className="stat">
          <span className="stat-label">Backlog now</span>
          <span className="stat-value" data-testid="health-backlog">{formatCount(h.backlog.pending + h.backlog.retrying)}</span>
          <small className="muted">{formatCount(h.backlog.pending)} pending · {formatCount(h.backlog.retrying)} retrying · oldest {formatAge(h.backlog.oldest_age_seconds)}</small>
        </div>
      </div>
      <ProgressBar value={h.usage.events} max={quota} label="Events this period against the quota" />
      {restrictions.length === 0
        ? <p className="muted" data-testid="health-restriction">Not restricted: the tenant can send events.</p>
        : restrictions.map((r) => <p key={r} className="alert alert-warn" data-testid="health-restriction">{r}</p>)}
      {h.payment_overdue && <LiftRestriction tenantId={tenantId} />}
    </div>
  )
}

/** LiftRestriction lets staff lift an overdue-invoice restriction, with a reason (audited). */
function LiftRestriction({ tenantId }: { tenantId: string }) {
  const [reason, setReason] = useState('')
  const [error, setError] = useState<unknown>(null)
  const [done, setDone] = useState(false)
  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      await api.post(`${base(tenantId)}/billing/lift-restriction`, { reason })
      setDone(true)
    } catch (err) {
      setError(err)
    }
  }
  if (done) return <p className="alert alert-ok" role="status">Restriction lifted; reload to see the tenant's state.</p>
  return (
    <form className="form form-inline" onSubmit={submit} aria-label="Lift the payment restriction">
      <ErrorMessage error={error} title="Could not lift the restriction" />
      <Field label="Reason for lifting (audited)">
        {(fid) => <input id={fid} required value={reason} onChange={(e) => setReason(e.target.value)} />}
      </Field>
      <button type="submit" className="btn">Lift restriction</button>
    </form>
  )
}

/** StaffEndpointPage is an endpoint's attempt log, as staff see it. */
export function StaffEndpointPage({ tenantId, endpointId }: { tenantId: string; endpointId: string }) {
  const { t, error } = useStaffTenant(tenantId)
  const [outcome, setOutcome] = useState('')
  const attempts = usePaged(
    (cursor) => api.get<Page<Attempt>>(`${staffEndpointHref(tenantId, endpointId)}/attempts` + query({ outcome, cursor, limit: 25 })),
    [tenantId, endpointId, outcome],
  )
  const ep = t?.endpoints?.find((e) => e.id === endpointId)
  return (
    <section>
      <p><Link href={base(tenantId)}>← {t?.name ?? 'Tenant'}</Link></p>
      <ErrorMessage error={error} title="Could not load the tenant" />
      <h1 className="break">{ep ? endpointName(ep) : 'Endpoint'}</h1>
      {ep && (
        <p className="muted">
          <Badge status={!ep.enabled ? 'disabled' : ep.failing_since ? 'failing' : 'enabled'} />{' '}
          <code>{ep.id}</code>
          {ep.failing_since && <> · failing since {relativeTime(ep.failing_since)}</>}
          {ep.disabled_reason && <> · {ep.disabled_reason}</>}
        </p>
      )}
      <div className="card">
        <div className="page-head">
          <h2>Attempt log</h2>
          <div className="field inline-field">
            <OutcomeSelect id="staff-outcome" value={outcome} onChange={setOutcome} anyLabel="any" />
          </div>
        </div>
        <ErrorMessage error={attempts.error} title="Could not load attempts" />
        {attempts.loading && attempts.items.length === 0 && <Loading />}
        {!attempts.loading && !attempts.error && attempts.items.length === 0 && <Empty title="No attempts">No attempt to this endpoint within the tenant's log retention{outcome ? ` with outcome ${outcome}` : ''}.</Empty>}
        <AttemptList attempts={attempts.items} showEvent eventHref={(eid) => `${base(tenantId)}/events/${eid}`} />
        <Pager list={attempts} label="Attempts" />
      </div>
    </section>
  )
}

export function StaffEventPage({ tenantId, eventId }: { tenantId: string; eventId: string }) {
  const [reason, setReason] = useState('')
  const reasonRef = useRef(reason)
  reasonRef.current = reason
  const [urls, setUrls] = useState<Record<string, string>>({})
  const load = useCallback(async () => {
    const event = await api.get<StaffEventDetail>(`${base(tenantId)}/events/${eventId}`)
    setUrls(Object.fromEntries((event.endpoints ?? []).map((e) => [e.id, endpointName(e)])))
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
      endpointName={(eid) => urls[eid] ?? 'deleted endpoint'}
      endpointHref={(eid) => (urls[eid] ? staffEndpointHref(tenantId, eid) : undefined)}
      back={{ href: base(tenantId), label: 'Tenant' }}
      replayProblem={() => (reasonRef.current.trim() ? undefined : 'Enter a reason for the replay first; it is recorded in the audit log.')}
      replayNote="Your reason is recorded in the audit log."
      replayExtra={
        <div className="field reason">
          <label htmlFor="replay-reason">Reason for replay (audited)</label>
          <input id="replay-reason" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="e.g. ticket #1234: customer's endpoint was down" />
        </div>
      }
    />
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
                <Badge status={!ep.enabled ? 'disabled' : ep.failing_since ? 'failing' : 'enabled'} />{' '}
                <Link className="break" href={staffEndpointHref(t.id, ep.id)}>{endpointName(ep)}</Link>
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
