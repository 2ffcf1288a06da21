// StaffAudit.tsx: the staff audit log. Changes (replays, restriction
// lifts) are what support usually looks for, so the log opens on them;
// views are one switch away. Filters: tenant, actor, action, time range.
import { useState, type FormEvent } from 'react'
import { api, query, type Page } from '../api'
import { Badge, Empty, ErrorMessage, Loading, Pager } from '../components'
import { formatTime, prettyJSON, toISOFromLocal } from '../format'
import { usePaged, type PagedList } from '../paging'
import { Link, navigate, useLocation } from '../router'
import type { AuditEntry } from '../types'

/** auditActions are the actions staff can filter on, with what each means. */
export const auditActions: readonly { value: string; label: string; write: boolean }[] = [
  { value: 'replay', label: 'replay (event, delivery or bulk)', write: true },
  { value: 'billing.lift_restriction', label: 'lift payment restriction', write: true },
  { value: 'tenant.view', label: 'view tenant', write: false },
  { value: 'tenants.search', label: 'search tenants', write: false },
  { value: 'events.list', label: 'list events', write: false },
  { value: 'event.view', label: 'view event', write: false },
  { value: 'endpoint.attempts', label: 'view endpoint attempts', write: false },
  { value: 'replay.view', label: 'view replay progress', write: false },
  { value: 'replay.preview', label: 'count replay matches', write: false },
  { value: 'billing.view', label: 'view billing', write: false },
]

/** AuditKind is which entries the log shows: changes, views, or both. */
export type AuditKind = 'write' | 'read' | 'all'

/** AuditFilters are the audit log's filters, as in the page's URL. */
export interface AuditFilters {
  kind: AuditKind
  tenant_id: string
  actor: string
  action: string
  since: string
  until: string
}

/** auditFiltersFrom reads the filters from a URL query; changes only unless it says otherwise. */
export function auditFiltersFrom(q: URLSearchParams): AuditFilters {
  const k = q.get('kind')
  return {
    kind: k === 'read' || k === 'all' ? k : 'write',
    tenant_id: q.get('tenant_id') ?? '',
    actor: q.get('actor') ?? '',
    action: q.get('action') ?? '',
    since: q.get('since') ?? '',
    until: q.get('until') ?? '',
  }
}

/** auditQuery turns filters into the API's query ("all" sends no kind). */
export function auditQuery(f: AuditFilters): Record<string, string> {
  return { kind: f.kind === 'all' ? '' : f.kind, tenant_id: f.tenant_id, actor: f.actor, action: f.action, since: f.since, until: f.until }
}

/** AuditTable lists audit entries: changes marked, tenants named in full. */
export function AuditTable({ list, emptyTitle = 'No staff actions match' }: { list: PagedList<AuditEntry>; emptyTitle?: string }) {
  return (
    <>
      <ErrorMessage error={list.error} title="Could not load the audit log" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && <Empty title={emptyTitle}>Replays and other staff actions appear here with who did them and why.</Empty>}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table className="stack">
            <thead><tr><th>When</th><th>Who</th><th>Action</th><th>Tenant</th><th>Reason</th><th>Detail</th></tr></thead>
            <tbody>
              {list.items.map((a) => (
                <tr key={a.id} data-testid="audit-row" className={a.write ? 'audit-write' : undefined}>
                  <td data-label="When">{formatTime(a.created_at)}</td>
                  <td data-label="Who">{a.actor_email || a.staff_id}</td>
                  <td data-label="Action">{a.write ? <Badge status="change" /> : <span className="muted">view</span>} <code>{a.action}</code></td>
                  <td data-label="Tenant">
                    {a.tenant_id ? (
                      <>
                        <Link href={`/staff/tenants/${encodeURIComponent(a.tenant_id)}`}>{a.tenant_name || 'deleted tenant'}</Link>
                        <div className="muted"><code className="id">{a.tenant_id}</code></div>
                      </>
                    ) : '—'}
                  </td>
                  <td data-label="Reason">{a.reason || '—'}</td>
                  <td data-label="Detail">{a.detail ? <details><summary>show</summary><pre className="code">{prettyJSON(a.detail)}</pre></details> : '—'}</td>
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

/** toLocalInput shows an RFC 3339 time in a datetime-local input. */
function toLocalInput(iso: string): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

export function StaffAuditPage() {
  const { search } = useLocation()
  const applied = auditFiltersFrom(search)
  const [f, setF] = useState<AuditFilters>({ ...applied, since: toLocalInput(applied.since), until: toLocalInput(applied.until) })
  const key = JSON.stringify(applied)
  const list = usePaged((cursor) => api.get<Page<AuditEntry>>('/staff/audit' + query({ ...auditQuery(applied), cursor, limit: 50 })), [key])

  // Filters live in the URL, so a filtered log can be linked and reloaded.
  function apply(next: AuditFilters) {
    const out: AuditFilters = { ...next, tenant_id: next.tenant_id.trim(), actor: next.actor.trim(), since: toISOFromLocal(next.since), until: toISOFromLocal(next.until) }
    const q = query({ ...out, kind: out.kind === 'write' ? '' : out.kind })
    navigate('/staff/audit' + q, true)
  }
  function submit(e: FormEvent) {
    e.preventDefault()
    apply(f)
  }
  function setKind(kind: AuditKind) {
    setF({ ...f, kind })
    apply({ ...f, kind })
  }
  return (
    <section>
      <div className="page-head">
        <h1>Audit log</h1>
        <button type="button" className="btn" onClick={list.reload}>Refresh</button>
      </div>
      <p className="muted">Every staff action on a tenant: who, what, when and why. Changes come first; views are kept too.</p>
      <div className="segmented" role="group" aria-label="Entries">
        <button type="button" aria-pressed={applied.kind === 'write'} onClick={() => setKind('write')}>Changes</button>
        <button type="button" aria-pressed={applied.kind === 'read'} onClick={() => setKind('read')}>Views</button>
        <button type="button" aria-pressed={applied.kind === 'all'} onClick={() => setKind('all')}>All</button>
      </div>
      <form className="filters" onSubmit={submit} role="search" aria-label="Filter the audit log">
        <div className="field">
          <label htmlFor="audit-tenant">Tenant id</label>
          <input id="audit-tenant" value={f.tenant_id} placeholder="UUID" onChange={(e) => setF({ ...f, tenant_id: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="audit-actor">Staff member</label>
          <input id="audit-actor" value={f.actor} placeholder="part of an email" onChange={(e) => setF({ ...f, actor: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <select id="audit-action" value={f.action} onChange={(e) => setF({ ...f, action: e.target.value })}>
            <option value="">any</option>
            {auditActions.map((a) => <option key={a.value} value={a.value}>{a.label}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-since">Since</label>
          <input id="audit-since" type="datetime-local" value={f.since} onChange={(e) => setF({ ...f, since: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="audit-until">Until</label>
          <input id="audit-until" type="datetime-local" value={f.until} onChange={(e) => setF({ ...f, until: e.target.value })} />
        </div>
        <div className="actions">
          <button className="btn btn-primary" type="submit">Filter</button>
          <button className="btn" type="button" onClick={() => {
            const cleared: AuditFilters = { kind: f.kind, tenant_id: '', actor: '', action: '', since: '', until: '' }
            setF(cleared)
            apply(cleared)
          }}>Clear</button>
        </div>
      </form>
      <AuditTable list={list} emptyTitle={applied.kind === 'write' ? 'No staff changes match' : 'No staff actions match'} />
    </section>
  )
}
