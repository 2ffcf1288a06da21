// Events.tsx: search and filter events.
import { useEffect, useState, type FormEvent } from 'react'
import { api, query, type Page } from '../api'
import { Badge, Empty, ErrorMessage, Loading, Pager } from '../components'
import { formatTime, toISOFromLocal } from '../format'
import { usePaged } from '../paging'
import { Link, navigate } from '../router'
import { endpointName, endpointShortName, shortId, type NamedEndpoint } from '../endpointName'
import type { Delivery, Endpoint, EventDetail, FerryEvent } from '../types'

/** EventFilters are the event list's filters (docs/api.md). */
export interface EventFilters {
  type: string
  status: string
  endpoint_id: string
  since: string
  until: string
}

const noFilters: EventFilters = { type: '', status: '', endpoint_id: '', since: '', until: '' }

/** EventFilterForm edits the filters and applies them on submit; with endpoints it offers an endpoint filter. */
export function EventFilterForm({ onApply, endpoints }: { onApply: (f: EventFilters) => void; endpoints?: Endpoint[] }) {
  const [f, setF] = useState(noFilters)
  function submit(e: FormEvent) {
    e.preventDefault()
    onApply({ ...f, since: toISOFromLocal(f.since), until: toISOFromLocal(f.until) })
  }
  return (
    <form className="filters" onSubmit={submit} role="search" aria-label="Filter events">
      <div className="field">
        <label htmlFor="ev-type">Event type</label>
        <input id="ev-type" value={f.type} placeholder="e.g. invoice.paid" onChange={(e) => setF({ ...f, type: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="ev-status">Delivery status</label>
        <select id="ev-status" value={f.status} onChange={(e) => setF({ ...f, status: e.target.value })}>
          <option value="">any</option>
          {['pending', 'retrying', 'succeeded', 'dropped', 'exhausted'].map((s) => <option key={s}>{s}</option>)}
        </select>
      </div>
      {endpoints && endpoints.length > 0 && (
        <div className="field">
          <label htmlFor="ev-endpoint">Endpoint</label>
          <select id="ev-endpoint" value={f.endpoint_id} onChange={(e) => setF({ ...f, endpoint_id: e.target.value })}>
            <option value="">any</option>
            {endpoints.map((ep) => <option key={ep.id} value={ep.id}>{endpointName(ep)}</option>)}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor="ev-since">Since</label>
        <input id="ev-since" type="datetime-local" value={f.since} onChange={(e) => setF({ ...f, since: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="ev-until">Until</label>
        <input id="ev-until" type="datetime-local" value={f.until} onChange={(e) => setF({ ...f, until: e.target.value })} />
      </div>
      <div className="actions">
        <button className="btn btn-primary" type="submit">Search</button>
        <button className="btn" type="reset" onClick={() => { setF(noFilters); onApply(noFilters) }}>Clear</button>
      </div>
    </form>
  )
}

/** EndpointNames names a delivery's endpoint: short on screen, full in the tooltip. */
export interface EndpointNames {
  short: string
  full: string
}

/** endpointNamer names endpoints by id from a list; an id not in it (a deleted endpoint) by its start. */
export function endpointNamer(endpoints: NamedEndpoint[] | undefined): (id: string) => EndpointNames {
  const byId = new Map((endpoints ?? []).map((ep) => [ep.id, ep]))
  return (id) => {
    const ep = byId.get(id)
    if (!ep) return { short: `endpoint ${shortId(id)}`, full: `endpoint ${id} (deleted or not listed)` }
    return { short: endpointShortName(ep), full: endpointName(ep) }
  }
}

/** DeliveryBadges shows each delivery's status with the name of its endpoint, and its attempts in the tooltip and to screen readers. */
export function DeliveryBadges({ deliveries, names }: { deliveries: Pick<Delivery, 'id' | 'endpoint_id' | 'status' | 'attempt_count'>[]; names: (id: string) => EndpointNames }) {
  if (deliveries.length === 0) return <span className="muted">no endpoint subscribed</span>
  return (
    <span className="badges">
      {deliveries.map((d) => {
        const n = names(d.endpoint_id)
        return (
          <span key={d.id} className="delivery-badge" data-testid="delivery-badge" title={`${n.full}: ${d.status} after ${attemptsText(d.attempt_count)}`}>
            <Badge status={d.status} /> <span className="delivery-badge-name">{n.short}</span>
            <span className="visually-hidden">{n.full === n.short ? '' : ` (${n.full})`}, after {attemptsText(d.attempt_count)}</span>
          </span>
        )
      })}
    </span>
  )
}

/** attemptsText renders an attempt count: "1 attempt", "3 attempts". */
export function attemptsText(n: number): string {
  return n === 1 ? '1 attempt' : `${n} attempts`
}

/**
 * EventTable lists events, each linking to its page, with their deliveries
 * when the list carries them; showCustomer adds whose each event is (the
 * tenant's pages; empty for the tenant's own).
 */
export function EventTable({ events, href, endpoints, showCustomer = false }: { events: (FerryEvent & { deliveries?: EventDetail['deliveries'] })[]; href: (id: string) => string; endpoints?: Endpoint[]; showCustomer?: boolean }) {
  const withDeliveries = events.some((ev) => ev.deliveries)
  const names = endpointNamer(endpoints)
  return (
    <div className="table-wrap">
      <table>
        <thead><tr><th>Type</th>{showCustomer && <th>Customer</th>}{withDeliveries && <th>Deliveries</th>}<th>Event id</th><th>Created</th></tr></thead>
        <tbody>
          {events.map((ev) => (
            <tr key={ev.id}>
              <td><Link href={href(ev.id)}>{ev.type}</Link></td>
              {showCustomer && <td data-testid="event-customer">{ev.customer ? <Link href={`/customers/${encodeURIComponent(ev.customer)}`}><code>{ev.customer}</code></Link> : null}</td>}
              {withDeliveries && <td><DeliveryBadges deliveries={ev.deliveries ?? []} names={names} /></td>}
              <td><code className="id">{ev.id}</code></td>
              <td>{formatTime(ev.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

export function EventsPage() {
  const [filters, setFilters] = useState(noFilters)
  const [jump, setJump] = useState('')
  const list = usePaged(
    (cursor) => api.get<Page<EventDetail>>('/events' + query({ ...filters, cursor, limit: 25 })),
    [filters.type, filters.status, filters.endpoint_id, filters.since, filters.until],
  )
  const [endpoints, setEndpoints] = useState<Endpoint[]>([])
  useEffect(() => {
    api.get<Page<Endpoint>>('/endpoints' + query({ limit: 200 })).then((p) => setEndpoints(p.data), () => setEndpoints([]))
  }, [])
  const filtered = Object.values(filters).some(Boolean)
  return (
    <section>
      <div className="page-head">
        <h1>Events</h1>
        <form className="inline-field" role="search" aria-label="Open an event by id" onSubmit={(e) => {
          e.preventDefault()
          const id = jump.trim()
          if (id) navigate(`/events/${encodeURIComponent(id)}`)
        }}>
          <label htmlFor="event-id">Event id</label>
          <input id="event-id" value={jump} onChange={(e) => setJump(e.target.value)} placeholder="UUID from webhook-id" />
          <button type="submit" className="btn btn-small">Open</button>
        </form>
        <button type="button" className="btn btn-small" onClick={list.reload}>Refresh</button>
      </div>
      <EventFilterForm onApply={setFilters} endpoints={endpoints} />
      <ErrorMessage error={list.error} title="Could not load events" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && (
        filtered ? <Empty title="No events match these filters">Clear the filters or widen the time range.</Empty> : (
          <Empty title="No events yet">
            Send one with <code>POST /api/v1/events</code> and an <Link href="/api-keys">API key</Link>, or use "Send test event" on an <Link href="/endpoints">endpoint</Link>.
          </Empty>
        )
      )}
      {list.items.length > 0 && <EventTable events={list.items} href={(id) => `/events/${id}`} endpoints={endpoints} showCustomer />}
      <Pager list={list} label="Events" />
    </section>
  )
}
