// Events.tsx: search and filter events.
import { useState, type FormEvent } from 'react'
import { api, query, type Page } from '../api'
import { Empty, ErrorMessage, Loading, Pager } from '../components'
import { formatTime, toISOFromLocal } from '../format'
import { usePaged } from '../paging'
import { Link, navigate } from '../router'
import type { FerryEvent } from '../types'

/** EventFilters are the event list's filters (README, API routes). */
export interface EventFilters {
  type: string
  status: string
  since: string
  until: string
}

const noFilters: EventFilters = { type: '', status: '', since: '', until: '' }

/** EventFilterForm edits the filters and applies them on submit. */
export function EventFilterForm({ onApply }: { onApply: (f: EventFilters) => void }) {
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

/** EventTable lists events, each linking to its page. */
export function EventTable({ events, href }: { events: FerryEvent[]; href: (id: string) => string }) {
  return (
    <div className="table-wrap">
      <table>
        <thead><tr><th>Type</th><th>Event id</th><th>Created</th></tr></thead>
        <tbody>
          {events.map((ev) => (
            <tr key={ev.id}>
              <td><Link href={href(ev.id)}>{ev.type}</Link></td>
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
    (cursor) => api.get<Page<FerryEvent>>('/events' + query({ ...filters, cursor, limit: 25 })),
    [filters.type, filters.status, filters.since, filters.until],
  )
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
      <EventFilterForm onApply={setFilters} />
      <ErrorMessage error={list.error} title="Could not load events" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && (
        filtered ? <Empty title="No events match these filters">Clear the filters or widen the time range.</Empty> : (
          <Empty title="No events yet">
            Send one with <code>POST /api/v1/events</code> and an <Link href="/api-keys">API key</Link>, or use "Send test event" on an <Link href="/endpoints">endpoint</Link>.
          </Empty>
        )
      )}
      {list.items.length > 0 && <EventTable events={list.items} href={(id) => `/events/${id}`} />}
      <Pager list={list} label="Events" />
    </section>
  )
}
