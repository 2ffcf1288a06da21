// Endpoint.tsx (embedded portal): one of the customer's endpoints: edit,
// pause/resume, delete, the signing secret (reveal, rotate), a test event,
// its health and its recent attempts; each action only when the session
// may use it.
import { useEffect, useId, useMemo, useState } from 'react'
import { query, type Page } from '../../api'
import { AttemptList, OutcomeSelect } from '../../Attempts'
import { Badge, ConfirmButton, CopyButton, Empty, ErrorMessage, Loading, Notice, Pager, useAction } from '../../components'
import { EndpointForm } from '../../EndpointForm'
import { fromEndpoint } from '../../endpointForm'
import { endpointName } from '../../endpointName'
import { formatCount, formatDuration, formatTime } from '../../format'
import { HealthCell } from '../../HealthCell'
import { usePaged } from '../../paging'
import { Link, navigate, useLocation } from '../../router'
import { deliveriesText, endpointHealth } from '../../stats'
import type { EventType } from '../../customerTypes'
import type { Attempt, Endpoint, EndpointPatch, EventAccepted, SecretInfo, Stats } from '../../types'
import { portalCatalog, TEST_TYPE, testEventBody } from '../catalog'
import { usePortal } from '../context'
import { portalEndpointBody } from '../endpointBody'
import { statsLine } from './Endpoints'

export function PortalEndpointPage({ id }: { id: string }) {
  const { client, can, href } = usePortal()
  const { search } = useLocation()
  const [ep, setEp] = useState<Endpoint | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [editing, setEditing] = useState(false)
  const [secret, setSecret] = useState<SecretInfo | null>(null)
  const { notice, setNotice, error, act } = useAction(search.get('created') ? 'Endpoint created.' : '')
  const [outcome, setOutcome] = useState('')
  const [testEvent, setTestEvent] = useState<string | null>(null)
  const [stats, setStats] = useState<Stats | null>(null)
  const path = `/endpoints/${encodeURIComponent(id)}`
  const catalog = useMemo(() => portalCatalog(client), [client])
  // The catalog's types, for the test event's type (ferry.test when none).
  const [types, setTypes] = useState<EventType[]>([])
  const [testType, setTestType] = useState(TEST_TYPE)
  const testTypeId = useId()
  const sendTest = can('send_test')
  useEffect(() => {
    if (!sendTest) return
    let live = true
    catalog.list().then((t) => live && setTypes(t), () => live && setTypes([]))
    return () => {
      live = false
    }
  }, [catalog, sendTest])

  useEffect(() => {
    client.get<Endpoint>(path).then(setEp, setLoadError)
  }, [client, path])
  const attempts = usePaged(
    (cursor) => client.get<Page<Attempt>>(`${path}/attempts` + query({ cursor, outcome, limit: 20 })),
    [path, outcome],
  )
  // Fresh stats when the endpoint changes or the attempts were (re)loaded;
  // not keyed by attempts.items, a new [] on every render while loading.
  useEffect(() => {
    if (attempts.loading) return
    client.get<Stats>(`${path}/stats` + query({ window: '24h' })).then(setStats, () => setStats(null))
  }, [client, path, ep, attempts.loading])

  const back = <p><Link href={href('/')}>← Endpoints</Link></p>
  if (loadError) return <section>{back}<h1>Endpoint</h1><ErrorMessage error={loadError} title="Could not load the endpoint" /></section>
  if (!ep) return <Loading />
  const manage = can('manage_endpoints')
  const routing = can('manage_routing')

  return (
    <section>
      {back}
      <div className="page-head">
        <h1 className="break">{endpointName(ep)}</h1>
        <Badge status={endpointHealth(ep, stats && statsLine(stats)).state} />
      </div>
      {!ep.enabled && <p className="alert alert-warn">Paused{ep.disabled_reason ? `: ${ep.disabled_reason}` : ''}. No new deliveries are made to it.</p>}
      <Notice>{notice}</Notice>
      <ErrorMessage error={error} />
      <div className="actions">
        {sendTest && types.length > 0 && (
          <span className="inline-field">
            <label htmlFor={testTypeId}>Test event type</label>
            <select id={testTypeId} value={testType} onChange={(e) => setTestType(e.target.value)}>
              <option value={TEST_TYPE}>{TEST_TYPE} (built-in test)</option>
              {types.filter((t) => t.name !== TEST_TYPE).map((t) => (
                <option key={t.name} value={t.name}>{t.name}{t.description ? ` — ${t.description}` : ''}</option>
              ))}
            </select>
          </span>
        )}
        {sendTest && (
          <button type="button" className="btn btn-primary" onClick={() => act(async () => {
            const r = await client.post<EventAccepted>(`${path}/test`, testEventBody(testType))
            setTestEvent(r.id)
            setNotice(testType === TEST_TYPE ? 'Test event sent to this endpoint.' : `An example ${testType} event was sent to this endpoint.`)
            setTimeout(attempts.reload, 1500)
          })}>Send test event</button>
        )}
        {manage && (
          <>
            <button type="button" className="btn" onClick={() => setEditing(!editing)} aria-expanded={editing}>Edit</button>
            <button type="button" className="btn" onClick={() => act(async () => {
              setEp(await client.patch<Endpoint>(path, { enabled: !ep.enabled } satisfies EndpointPatch))
              setNotice(ep.enabled ? 'Endpoint paused: no new deliveries will be made to it.' : 'Endpoint resumed.')
            })}>{ep.enabled ? 'Pause' : 'Resume'}</button>
            <ConfirmButton confirmLabel="Yes, delete endpoint" onConfirm={() => act(async () => {
              await client.del(path)
              navigate(href('/'))
            })}>Delete</ConfirmButton>
          </>
        )}
        {can('replay') && <Link className="btn" href={href('/recover') + '?' + new URLSearchParams({ endpoint: ep.id })}>Recover failed messages</Link>}
      </div>
      {testEvent && <p data-testid="test-event">Test event <Link href={href(`/messages/${testEvent}`)}><code>{testEvent}</code></Link> — open it to follow its delivery.</p>}
      {editing && (
        <div className="card">
          <h2>Edit endpoint</h2>
          <EndpointForm initial={fromEndpoint(ep)} routing={routing} catalog={catalog} submitLabel="Save changes" onCancel={() => setEditing(false)} onSubmit={async (body) => {
            setEp(await client.patch<Endpoint>(path, portalEndpointBody(body, routing) satisfies EndpointPatch))
            setEditing(false)
            setNotice('Endpoint saved.')
          }} />
        </div>
      )}
      <div className="card">
        <h2>Health (last 24 h)</h2>
        {stats ? (
          <>
            <HealthCell health={endpointHealth(ep, statsLine(stats))} window="24 h" />
            <dl className="props">
              <dt>Deliveries</dt><dd data-testid="deliveries-summary">{deliveriesText(statsLine(stats))}</dd>
              <dt>Attempts</dt><dd>{formatCount(stats.attempts)}, {formatCount(stats.attempts_failed)} failed</dd>
              <dt>Answer time</dt><dd>{stats.response_ms.p50 == null ? '—' : `p50 ${formatDuration(stats.response_ms.p50)}, p95 ${formatDuration(stats.response_ms.p95)}`}</dd>
              <dt>Waiting</dt><dd>{stats.backlog.pending} pending, {stats.backlog.retrying} retrying</dd>
            </dl>
          </>
        ) : <Loading />}
      </div>
      <div className="card">
        <h2>Settings</h2>
        <dl className="props">
          <dt>URL</dt><dd className="break">{ep.url}</dd>
          <dt>State</dt><dd>{ep.enabled ? 'active' : 'paused'}</dd>
          <dt>Description</dt><dd>{ep.description || '—'}</dd>
          <dt>Event types</dt><dd>{ep.event_types?.length ? ep.event_types.join(', ') : 'All event types'}</dd>
          {(routing || ep.filter) && <><dt>Filter</dt><dd>{ep.filter ? <code>{ep.filter}</code> : 'none'}</dd></>}
          {(routing || ep.transformation) && <><dt>Transformation</dt><dd>{ep.transformation ? <pre className="code">{ep.transformation}</pre> : 'none'}</dd></>}
          <dt>Timeout</dt><dd>{ep.timeout_seconds} s</dd>
          <dt>Custom headers</dt><dd>{Object.keys(ep.headers ?? {}).length ? Object.entries(ep.headers!).map(([k, v]) => <div key={k}><code>{k}: {v}</code></div>) : 'none'}</dd>
          <dt>Created</dt><dd>{formatTime(ep.created_at)}</dd>
        </dl>
      </div>
      {(can('view_secret') || can('rotate_secret')) && (
        <div className="card">
          <h2>Signing secret</h2>
          <p className="muted">Verify the <code>webhook-signature</code> header of each request with this secret (Standard Webhooks).</p>
          {secret ? (
            <>
              <div className="secret"><code data-testid="secret">{secret.secret}</code><CopyButton text={secret.secret} /></div>
              {secret.previous?.map((p) => <p key={p.secret} className="muted">The previous secret stays valid until {formatTime(p.expires_at)}.</p>)}
            </>
          ) : <p><code>whsec_••••••••••••</code></p>}
          <div className="actions">
            {can('view_secret') && (secret
              ? <button type="button" className="btn" onClick={() => setSecret(null)}>Hide secret</button>
              : <button type="button" className="btn" onClick={() => act(async () => setSecret(await client.get<SecretInfo>(`${path}/secret`)))}>Reveal secret</button>)}
            {can('rotate_secret') && (
              <ConfirmButton className="btn btn-small" confirmLabel="Yes, rotate" onConfirm={() => act(async () => {
                const rotated = await client.post<SecretInfo>(`${path}/secret/rotate`)
                // Only a session that may see secrets is shown the new one.
                setSecret(can('view_secret') ? rotated : null)
                setNotice('Secret rotated. The previous secret keeps signing for 24 hours, beside the new one.')
              })}>Rotate secret</ConfirmButton>
            )}
          </div>
        </div>
      )}
      <div className="card">
        <div className="page-head">
          <h2>Recent attempts</h2>
          <div className="inline-field">
            <OutcomeSelect id="outcome-filter" value={outcome} onChange={setOutcome} anyLabel="all" />
            <button type="button" className="btn btn-small" onClick={attempts.reload}>Refresh</button>
          </div>
        </div>
        <ErrorMessage error={attempts.error} title="Could not load attempts" />
        {attempts.loading && attempts.items.length === 0 && <Loading />}
        {!attempts.loading && attempts.items.length === 0 && !attempts.error && (
          <Empty title="No attempts yet">{can('send_test') ? 'Send a test event to see it delivered here.' : 'Deliveries to this endpoint show here.'}</Empty>
        )}
        <AttemptList attempts={attempts.items} showEvent eventHref={(eid) => href(`/messages/${eid}`)} />
        <Pager list={attempts} label="Attempts" />
      </div>
    </section>
  )
}
