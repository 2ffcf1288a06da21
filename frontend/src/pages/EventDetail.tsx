// EventDetail.tsx: an event's payload, its deliveries and every attempt,
// with replay of the whole event or of one delivery, each confirmed first.
import { useCallback, useEffect, useRef, useState } from 'react'
import { api, query, type Page } from '../api'
import { AttemptList } from '../Attempts'
import { Badge, ConfirmPanel, ErrorMessage, Loading, Notice } from '../components'
import { formatTime, prettyJSON, relativeTime } from '../format'
import { Link } from '../router'
import { canWrite, useSession } from '../session'
import { endpointName, shortId } from '../endpointName'
import type { Attempt, Endpoint, EventDetail, ReplayEventInput, ReplayResult } from '../types'

/** EventViewProps plug tenant or staff routes into the shared event view. */
export interface EventViewProps {
  load: () => Promise<{ event: EventDetail; attempts: Attempt[] }>
  endpointName?: (id: string) => string | undefined
  endpointHref?: (id: string) => string | undefined
  /** replay a whole event (endpointId undefined) or one delivery; absent = no replay allowed. */
  replay?: (target: { deliveryId?: string; endpointId?: string }) => Promise<void>
  back: { href: string; label: string }
  /** extra controls shown above replay buttons (e.g. the staff reason box) */
  replayExtra?: React.ReactNode
  /** replayProblem says why a replay cannot be asked for yet (e.g. no reason given), checked before confirming. */
  replayProblem?: () => string | undefined
  /** replayNote is added to the confirmation (e.g. that the reason is audited). */
  replayNote?: string
}

/** ReplayTarget is what a replay re-sends: the whole event, or one delivery. */
type ReplayTarget = { deliveryId?: string; endpointId?: string }

const active = (s: string) => s === 'pending' || s === 'retrying'

export function EventView({ load, endpointName: nameOf, endpointHref, replay, back, replayExtra, replayProblem, replayNote }: EventViewProps) {
  const [data, setData] = useState<{ event: EventDetail; attempts: Attempt[] } | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [actionError, setActionError] = useState<unknown>(null)
  const [notice, setNotice] = useState('')
  const timer = useRef<number | undefined>(undefined)

  const refresh = useCallback(async () => {
    try {
      setData(await load())
      setError(null)
    } catch (e) {
      setError(e)
    }
  }, [load])

  useEffect(() => {
    refresh()
  }, [refresh])

  // Poll while a delivery is under way, and for a while after a replay
  // until its attempt shows up, so outcomes appear by themselves.
  const [awaitReplay, setAwaitReplay] = useState<{ until: number; attempts: number } | null>(null)
  const waitingForReplay = !!awaitReplay && !!data && data.attempts.length <= awaitReplay.attempts && Date.now() < awaitReplay.until
  const busy = !!data?.event.deliveries?.some((d) => active(d.status)) || waitingForReplay
  useEffect(() => {
    if (!busy) return
    timer.current = window.setInterval(refresh, 1500)
    return () => window.clearInterval(timer.current)
  }, [busy, refresh])

  // A replay is asked for, confirmed, then sent once: replaying holds
  // every replay button until the request is answered.
  const [asking, setAsking] = useState<ReplayTarget | null>(null)
  const [replaying, setReplaying] = useState(false)
  const sending = useRef(false)

  function ask(target: ReplayTarget) {
    setActionError(null)
    setNotice('')
    const problem = replayProblem?.()
    if (problem) {
      setAsking(null)
      setActionError(new Error(problem))
      return
    }
    setAsking(target)
  }

  async function doReplay(target: ReplayTarget) {
    if (!replay || sending.current) return
    sending.current = true
    setAsking(null)
    setReplaying(true)
    try {
      await replay(target)
      setAwaitReplay({ until: Date.now() + 30_000, attempts: data?.attempts.length ?? 0 })
      setNotice(target.deliveryId ? 'Delivery replay queued.' : 'Event replay queued for every endpoint.')
      setTimeout(refresh, 800)
    } catch (e) {
      setActionError(e)
    } finally {
      sending.current = false
      setReplaying(false)
    }
  }

  if (error && !data) return <section><p><Link href={back.href}>← {back.label}</Link></p><ErrorMessage error={error} title="Could not load the event" /></section>
  if (!data) return <Loading />
  const { event, attempts } = data
  const deliveries = event.deliveries ?? []
  const nameFor = (id: string) => nameOf?.(id) ?? `endpoint ${shortId(id)}`
  const sameId = <>Receivers get it with the same <code>webhook-id</code> ({event.id}), so they can tell it is a repeat.{replayNote ? ' ' + replayNote : ''}</>
  return (
    <section>
      <p><Link href={back.href}>← {back.label}</Link></p>
      <div className="page-head">
        <h1>{event.type}</h1>
        <button type="button" className="btn" onClick={refresh}>Refresh</button>
      </div>
      <p className="muted">
        <code>{event.id}</code> · created {formatTime(event.created_at)}
        {event.idempotency_key && <> · idempotency key <code>{event.idempotency_key}</code></>}
      </p>
      <Notice>{notice}</Notice>
      <ErrorMessage error={actionError} title="Replay failed" />
      <div className="card">
        <h2>Payload</h2>
        <pre className="code" data-testid="payload">{prettyJSON(event.data)}</pre>
      </div>
      <div className="card">
        <div className="page-head">
          <h2>Deliveries</h2>
          {replay && deliveries.length > 0 && (
            <button type="button" className="btn" onClick={() => ask({})} disabled={replaying || !!asking}>{replaying && !asking ? 'Replaying…' : 'Replay to all endpoints'}</button>
          )}
        </div>
        {replayExtra}
        {asking && !asking.deliveryId && (
          <ConfirmPanel
            title={`Replay this event to ${deliveries.length === 1 ? 'its endpoint' : `all ${deliveries.length} endpoints`}?`}
            confirmLabel="Yes, replay to all endpoints"
            onConfirm={() => doReplay({})}
            onCancel={() => setAsking(null)}
            busy={replaying}
            testId="replay-confirm"
          >
            <p>Ferry sends <strong>{event.type}</strong> again to {deliveries.map((d) => nameFor(d.endpoint_id)).join(', ')}. {sameId}</p>
          </ConfirmPanel>
        )}
        {deliveries.length === 0 && <p className="muted">No endpoint was subscribed to this event type when it arrived, so nothing was delivered.</p>}
        {deliveries.map((d) => {
          const mine = attempts.filter((a) => a.delivery_id === d.id).sort((a, b) => b.attempt_number - a.attempt_number || b.started_at.localeCompare(a.started_at))
          const name = nameFor(d.endpoint_id)
          const href = endpointHref?.(d.endpoint_id)
          return (
            <article key={d.id} className="delivery" data-testid="delivery" aria-label={`Delivery to ${name}`}>
              <header className="delivery-head">
                <div>
                  <Badge status={d.status} /> <strong className="break">{href ? <Link href={href}>{name}</Link> : name}</strong>
                  <div className="muted">
                    {d.attempt_count} attempt{d.attempt_count === 1 ? '' : 's'}
                    {d.next_attempt_at && active(d.status) && <> · next attempt {relativeTime(d.next_attempt_at)}</>}
                  </div>
                </div>
                {replay && (
                  <button type="button" className="btn btn-small" onClick={() => ask({ deliveryId: d.id, endpointId: d.endpoint_id })} disabled={replaying || !!asking}
                    aria-label={`Replay delivery to ${name}`}>Replay</button>
                )}
              </header>
              {asking?.deliveryId === d.id && (
                <ConfirmPanel
                  title={`Replay this delivery to ${name}?`}
                  confirmLabel="Yes, replay this delivery"
                  onConfirm={() => doReplay({ deliveryId: d.id, endpointId: d.endpoint_id })}
                  onCancel={() => setAsking(null)}
                  busy={replaying}
                  testId="replay-confirm"
                >
                  <p>Ferry sends <strong>{event.type}</strong> to {name} once more (this delivery is {d.status} after {d.attempt_count === 1 ? '1 attempt' : `${d.attempt_count} attempts`}). {sameId}</p>
                </ConfirmPanel>
              )}
              {mine.length === 0 ? <p className="muted">No attempt yet.</p> : <AttemptList attempts={mine} />}
            </article>
          )
        })}
      </div>
    </section>
  )
}

export function EventDetailPage({ id }: { id: string }) {
  const { me } = useSession()
  const [endpoints, setEndpoints] = useState<Record<string, Endpoint>>({})
  useEffect(() => {
    api.get<Page<Endpoint>>('/endpoints' + query({ limit: 200 })).then(
      (p) => setEndpoints(Object.fromEntries(p.data.map((e) => [e.id, e]))),
      () => undefined,
    )
  }, [])
  const load = useCallback(async () => {
    const [event, attempts] = await Promise.all([
      api.get<EventDetail>(`/events/${id}`),
      api.get<Page<Attempt>>(`/events/${id}/attempts`),
    ])
    return { event, attempts: attempts.data }
  }, [id])
  const replay = useCallback(async (t: { deliveryId?: string; endpointId?: string }) => {
    // One delivery, or the whole event to every subscribed endpoint.
    if (t.deliveryId) await api.post<ReplayResult>(`/deliveries/${encodeURIComponent(t.deliveryId)}/replay`)
    else await api.post<ReplayResult>(`/events/${id}/replay`, (t.endpointId ? { endpoint_id: t.endpointId } : {}) satisfies ReplayEventInput)
  }, [id])
  return (
    <EventView
      load={load}
      replay={canWrite(me.role) ? replay : undefined}
      endpointName={(eid) => (endpoints[eid] ? endpointName(endpoints[eid]) : undefined)}
      endpointHref={(eid) => `/endpoints/${eid}`}
      back={{ href: '/events', label: 'Events' }}
    />
  )
}
