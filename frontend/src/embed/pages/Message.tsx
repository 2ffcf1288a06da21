// Message.tsx (embedded portal): one message, its deliveries to the
// customer's endpoints and every attempt; replay (the whole message, or
// to one endpoint) when the session may.
import { useCallback, useEffect, useState } from 'react'
import { query, type Page } from '../../api'
import { endpointName } from '../../endpointName'
import { EventView } from '../../pages/EventDetail'
import type { Attempt, Endpoint, EventDetail, ReplayEventInput, ReplayResult } from '../../types'
import { usePortal } from '../context'

export function PortalMessagePage({ id }: { id: string }) {
  const { client, can, href } = usePortal()
  const [endpoints, setEndpoints] = useState<Record<string, Endpoint>>({})
  useEffect(() => {
    client.get<Page<Endpoint>>('/endpoints' + query({ limit: 200 })).then(
      (p) => setEndpoints(Object.fromEntries(p.data.map((e) => [e.id, e]))),
      () => undefined,
    )
  }, [client])
  const path = `/events/${encodeURIComponent(id)}`
  const load = useCallback(async () => {
    const [event, attempts] = await Promise.all([
      client.get<EventDetail>(path),
      client.get<Page<Attempt>>(`${path}/attempts`),
    ])
    return { event, attempts: attempts.data }
  }, [client, path])
  // The portal replays a message to every endpoint of the customer's it
  // went to, or to one of them (its delivery).
  const replay = useCallback(async (t: { deliveryId?: string; endpointId?: string }) => {
    await client.post<ReplayResult>(`${path}/replay`, (t.deliveryId && t.endpointId ? { endpoint_id: t.endpointId } : {}) satisfies ReplayEventInput)
  }, [client, path])
  return (
    <EventView
      load={load}
      replay={can('replay') ? replay : undefined}
      endpointName={(eid) => (endpoints[eid] ? endpointName(endpoints[eid]) : undefined)}
      endpointHref={(eid) => (endpoints[eid] ? href(`/endpoints/${eid}`) : undefined)}
      back={{ href: href('/messages'), label: 'Messages' }}
    />
  )
}
