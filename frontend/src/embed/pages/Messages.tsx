// Messages.tsx (embedded portal): the messages sent to the customer, with
// each delivery's status, filtered by event type and delivery status.
import { useEffect, useState, type FormEvent } from 'react'
import { query, type Page } from '../../api'
import { Empty, ErrorMessage, Loading, Pager } from '../../components'
import { usePaged } from '../../paging'
import type { Endpoint, EventDetail } from '../../types'
import { EventTable } from '../../pages/Events'
import { usePortal } from '../context'

/** MessageFilters are what GET /portal/events filters on. */
export interface MessageFilters {
  type: string
  status: string
}

const none: MessageFilters = { type: '', status: '' }
const statuses = ['pending', 'retrying', 'succeeded', 'dropped', 'exhausted']

function FilterForm({ onApply }: { onApply: (f: MessageFilters) => void }) {
  const [f, setF] = useState(none)
  function submit(e: FormEvent) {
    e.preventDefault()
    onApply({ type: f.type.trim(), status: f.status })
  }
  return (
    <form className="filters" onSubmit={submit} role="search" aria-label="Filter messages">
      <div className="field">
        <label htmlFor="msg-type">Event type</label>
        <input id="msg-type" value={f.type} placeholder="e.g. invoice.paid" onChange={(e) => setF({ ...f, type: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="msg-status">Delivery status</label>
        <select id="msg-status" value={f.status} onChange={(e) => setF({ ...f, status: e.target.value })}>
          <option value="">any</option>
          {statuses.map((s) => <option key={s}>{s}</option>)}
        </select>
      </div>
      <div className="actions">
        <button className="btn btn-primary" type="submit">Search</button>
        <button className="btn" type="reset" onClick={() => { setF(none); onApply(none) }}>Clear</button>
      </div>
    </form>
  )
}

export function PortalMessagesPage() {
  const { client, href } = usePortal()
  const [filters, setFilters] = useState(none)
  const list = usePaged(
    (cursor) => client.get<Page<EventDetail>>('/events' + query({ ...filters, cursor, limit: 25 })),
    [filters.type, filters.status],
  )
  const [endpoints, setEndpoints] = useState<Endpoint[]>([])
  useEffect(() => {
    client.get<Page<Endpoint>>('/endpoints' + query({ limit: 200 })).then((p) => setEndpoints(p.data), () => setEndpoints([]))
  }, [client])
  const filtered = !!(filters.type || filters.status)
  return (
    <section>
      <div className="page-head">
        <h1>Messages</h1>
        <button type="button" className="btn btn-small" onClick={list.reload}>Refresh</button>
      </div>
      <FilterForm onApply={setFilters} />
      <ErrorMessage error={list.error} title="Could not load messages" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && (
        filtered
          ? <Empty title="No messages match these filters">Clear the filters to see every message.</Empty>
          : <Empty title="No messages yet">Messages sent to your endpoints show here.</Empty>
      )}
      {list.items.length > 0 && <EventTable events={list.items} href={(id) => href(`/messages/${id}`)} endpoints={endpoints} />}
      <Pager list={list} label="Messages" />
    </section>
  )
}
