// Endpoints.tsx (embedded portal): the customer's endpoints with their
// health, pause/resume, and the form that adds one.
import { useEffect, useMemo, useState } from 'react'
import { query, type Page } from '../../api'
import { Empty, ErrorMessage, Loading, Notice, Pager } from '../../components'
import { EndpointForm } from '../../EndpointForm'
import { emptyEndpointForm } from '../../endpointForm'
import { endpointName } from '../../endpointName'
import { HealthCell } from '../../HealthCell'
import { usePaged } from '../../paging'
import { Link, navigate } from '../../router'
import { endpointHealth } from '../../stats'
import type { Endpoint, EndpointCreated, EndpointPatch, Stats } from '../../types'
import { canCreateEndpoint } from '../capabilities'
import { portalCatalog } from '../catalog'
import { usePortal } from '../context'
import { portalEndpointBody } from '../endpointBody'

/** statsLine reads an endpoint's stats as the health line endpointHealth takes. */
export function statsLine(s: Stats) {
  return { ...s, ...s.backlog }
}

export function PortalEndpointsPage() {
  const { client, session, can, href } = usePortal()
  const [creating, setCreating] = useState(false)
  const [notice, setNotice] = useState('')
  const [actionError, setActionError] = useState<unknown>(null)
  const catalog = useMemo(() => portalCatalog(client), [client])
  const list = usePaged((cursor) => client.get<Page<Endpoint>>('/endpoints' + query({ cursor, limit: 25 })), [])
  // Health over 24 h: a customer has few endpoints, so each page asks for
  // each one's stats.
  const [stats, setStats] = useState<Record<string, Stats>>({})
  // Keyed by the ids shown, not by list.items (a new [] on every render
  // while the list loads or fails: an effect on it would never settle).
  const ids = list.items.map((ep) => ep.id).join(',')
  useEffect(() => {
    if (!ids) return
    let live = true
    Promise.all(ids.split(',').map((id) => client.get<Stats>(`/endpoints/${id}/stats` + query({ window: '24h' })).then((s) => [id, s] as const, () => null)))
      .then((all) => live && setStats(Object.fromEntries(all.filter((x) => x !== null))))
    return () => {
      live = false
    }
  }, [client, ids, list.pageNumber, list.loading])
  const manage = can('manage_endpoints')
  const create = canCreateEndpoint(session)

  async function toggle(ep: Endpoint) {
    setActionError(null)
    setNotice('')
    try {
      await client.patch<Endpoint>(`/endpoints/${ep.id}`, { enabled: !ep.enabled } satisfies EndpointPatch)
      setNotice(`${endpointName(ep)} ${ep.enabled ? 'paused' : 'resumed'}.`)
      list.reload()
    } catch (e) {
      setActionError(e)
    }
  }

  return (
    <section>
      <div className="page-head">
        <h1>Endpoints</h1>
        {create && !creating && <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>Add endpoint</button>}
      </div>
      {creating && (
        <div className="card">
          <h2>New endpoint</h2>
          <EndpointForm
            initial={emptyEndpointForm}
            routing={can('manage_routing')}
            catalog={catalog}
            submitLabel="Create endpoint"
            onCancel={() => setCreating(false)}
            onSubmit={async (body) => {
              const ep = await client.post<EndpointCreated>('/endpoints', portalEndpointBody(body, can('manage_routing')))
              navigate(href(`/endpoints/${ep.id}`) + '?created=1')
            }}
          />
        </div>
      )}
      <Notice>{notice}</Notice>
      <ErrorMessage error={actionError} />
      <ErrorMessage error={list.error} title="Could not load endpoints" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && (
        <Empty title="No endpoints yet">
          An endpoint is a URL of yours that receives our webhooks. {create ? 'Use "Add endpoint" to create one.' : ''}
        </Empty>
      )}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table className="stack">
            <thead>
              <tr><th>Endpoint</th><th>Event types</th><th>Health</th><th><span className="visually-hidden">Actions</span></th></tr>
            </thead>
            <tbody>
              {list.items.map((ep) => (
                <tr key={ep.id} data-testid="endpoint-row">
                  <td data-label="Endpoint">
                    <div>
                      <Link className="break" href={href(`/endpoints/${ep.id}`)}>{endpointName(ep)}</Link>
                      {ep.description && ep.description !== endpointName(ep) && <div className="muted">{ep.description}</div>}
                    </div>
                  </td>
                  <td data-label="Event types">{ep.event_types?.length ? <span>{ep.event_types.join(', ')}</span> : <span className="muted">all types</span>}</td>
                  <td data-label="Health">
                    <div>
                      <HealthCell health={endpointHealth(ep, stats[ep.id] ? statsLine(stats[ep.id]) : undefined)} window="24 h" />
                      {!ep.enabled && <div className="muted">{ep.disabled_reason || 'Paused'}</div>}
                    </div>
                  </td>
                  <td className="cell-actions">
                    {manage && (
                      <button type="button" className="btn btn-small" onClick={() => toggle(ep)} aria-label={`${ep.enabled ? 'Pause' : 'Resume'} ${endpointName(ep)}`}>
                        {ep.enabled ? 'Pause' : 'Resume'}
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
