// EndpointDetail.tsx: one endpoint: edit, enable/disable, delete, signing
// secret (reveal, rotate), send a test event, and its recent attempts.
import { useEffect, useState } from 'react'
import { api, query, type Page } from '../api'
import { AttemptList, OutcomeSelect } from '../Attempts'
import { Badge, ConfirmButton, CopyButton, Empty, ErrorMessage, Loading, Notice, Pager, useAction } from '../components'
import { EndpointForm } from '../EndpointForm'
import { fromEndpoint } from '../endpointForm'
import { formatCount, formatDuration, formatTime } from '../format'
import { HealthCell } from '../HealthCell'
import { deliveriesText, endpointHealth } from '../stats'
import { usePaged } from '../paging'
import { Link, navigate, useLocation } from '../router'
import { canWrite, useSession } from '../session'
import type { Attempt, ConsumerToken, ConsumerTokenCreated, ConsumerTokenInput, Endpoint, EndpointPatch, EventAccepted, QueueStats, SecretInfo, Stats } from '../types'
import { endpointName, isQueue } from '../endpointName'

/** QueueCard shows a pull queue's stats and, to admins, its consumer tokens. */
function QueueCard({ ep, writer }: { ep: Endpoint; writer: boolean }) {
  const [stats, setStats] = useState<QueueStats | null>(null)
  const [tokens, setTokens] = useState<ConsumerToken[]>([])
  const [created, setCreated] = useState<ConsumerTokenCreated | null>(null)
  const [name, setName] = useState('')
  const [error, setError] = useState<unknown>(null)
  const load = () => {
    api.get<QueueStats>(`/queues/${ep.id}`).then(setStats, setError)
    if (writer) api.get<Page<ConsumerToken>>(`/endpoints/${ep.id}/consumer-tokens`).then((p) => setTokens(p.data), setError)
  }
  useEffect(load, [ep.id, writer])
  return (
    <div className="card">
      <div className="page-head">
        <h2>Queue</h2>
        <button type="button" className="btn btn-small" onClick={load}>Refresh</button>
      </div>
      <p className="muted">Consumers pull this endpoint's events: <code>POST /api/v1/queues/{ep.id}/pull</code>, then ack, nack or reject each receipt.</p>
      <ErrorMessage error={error} />
      {stats ? (
        <dl className="props" data-testid="queue-stats">
          <dt>Waiting</dt><dd>{stats.depth}</dd>
          <dt>In flight</dt><dd>{stats.in_flight}</dd>
          <dt>Oldest waiting</dt><dd>{stats.oldest_age_seconds} s</dd>
          <dt>Dead (dropped or exhausted)</dt><dd>{stats.dead}</dd>
        </dl>
      ) : <Loading />}
      {writer && (
        <>
          <h3>Consumer tokens</h3>
          <p className="muted">A consumer token (<code>fqc_…</code>) may use this queue's routes and nothing else.</p>
          {created && <div className="secret"><code data-testid="consumer-token">{created.token}</code><CopyButton text={created.token} /></div>}
          <ul>
            {tokens.map((t) => (
              <li key={t.id}>
                {t.name} <code>{t.prefix}…</code> {t.revoked_at ? <span className="muted">revoked</span> : (
                  <button type="button" className="btn btn-small" onClick={async () => {
                    try {
                      await api.del(`/endpoints/${ep.id}/consumer-tokens/${t.id}`)
                      load()
                    } catch (e) {
                      setError(e)
                    }
                  }}>Revoke</button>
                )}
              </li>
            ))}
          </ul>
          <form className="inline-field" onSubmit={async (e) => {
            e.preventDefault()
            setError(null)
            try {
              setCreated(await api.post<ConsumerTokenCreated>(`/endpoints/${ep.id}/consumer-tokens`, { name } satisfies ConsumerTokenInput))
              setName('')
              load()
            } catch (err) {
              setError(err)
            }
          }}>
            <label htmlFor="token-name">Name</label>
            <input id="token-name" value={name} onChange={(e) => setName(e.target.value)} required />
            <button type="submit" className="btn btn-small">Create token</button>
          </form>
        </>
      )}
    </div>
  )
}

export function EndpointDetailPage({ id }: { id: string }) {
  const { me } = useSession()
  const { search } = useLocation()
  const [ep, setEp] = useState<Endpoint | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [editing, setEditing] = useState(false)
  const [secret, setSecret] = useState<SecretInfo | null>(null)
  const { notice, setNotice, error, act } = useAction(search.get('created') ? 'Endpoint created. Send a test event to check it.' : '')
  const [outcome, setOutcome] = useState('')
  const [testEvent, setTestEvent] = useState<string | null>(null)
  const writer = canWrite(me.role)

  const [stats, setStats] = useState<Stats | null>(null)
  useEffect(() => {
    api.get<Endpoint>(`/endpoints/${id}`).then(setEp, setLoadError)
  }, [id])
  const attempts = usePaged(
    (cursor) => api.get<Page<Attempt>>(`/endpoints/${id}/attempts` + query({ cursor, outcome, limit: 20 })),
    [id, outcome],
  )

  useEffect(() => {
    api.get<Stats>(`/endpoints/${id}/stats` + query({ window: '24h' })).then(setStats, () => setStats(null))
  }, [id, ep, attempts.items])

  if (loadError) return <section><h1>Endpoint</h1><ErrorMessage error={loadError} title="Could not load the endpoint" /><Link href="/endpoints">Back to endpoints</Link></section>
  if (!ep) return <Loading />
  const queue = isQueue(ep)

  return (
    <section>
      <p><Link href="/endpoints">← Endpoints</Link></p>
      <div className="page-head">
        <h1 className="break">{endpointName(ep)}</h1>
        <Badge status={endpointHealth(ep, stats && { ...stats, ...stats.backlog }).state} />
      </div>
      {ep.disabled_reason && <p className="alert alert-warn">Disabled: {ep.disabled_reason}</p>}
      {ep.filter_errors && (
        <div className="alert alert-error" role="alert">
          <p>
            <strong>Its filter failed on {formatCount(ep.filter_errors.count)} {ep.filter_errors.count === 1 ? 'event' : 'events'}</strong>{' '}
            since it was saved (last {formatTime(ep.filter_errors.last_at)}); those events were not sent here.
            Test for optional fields with <code>has()</code> or <code>in</code>, and try the filter below.
          </p>
          <p>Last error: <code>{ep.filter_errors.last_error}</code></p>
        </div>
      )}
      <Notice>{notice}</Notice>
      <ErrorMessage error={error} />
      {writer && (
        <div className="actions">
          <button type="button" className="btn btn-primary" onClick={() => act(async () => {
            // Sent to this endpoint only, whatever it subscribes to.
            const r = await api.post<EventAccepted>(`/endpoints/${ep.id}/test`)
            setTestEvent(r.id)
            setNotice('Test event sent to this endpoint only.')
            setTimeout(attempts.reload, 1500)
          })}>Send test event</button>
          <button type="button" className="btn" onClick={() => setEditing(!editing)} aria-expanded={editing}>Edit</button>
          <button type="button" className="btn" onClick={() => act(async () => {
            setEp(await api.patch<Endpoint>(`/endpoints/${ep.id}`, { enabled: !ep.enabled } satisfies EndpointPatch))
            setNotice(ep.enabled ? 'Endpoint disabled: no new deliveries will be made to it.' : 'Endpoint enabled.')
          })}>{ep.enabled ? 'Disable' : 'Enable'}</button>
          <ConfirmButton confirmLabel="Yes, delete endpoint" onConfirm={() => act(async () => {
            await api.del(`/endpoints/${ep.id}`)
            navigate('/endpoints')
          })}>Delete</ConfirmButton>
        </div>
      )}
      {testEvent && <p>Test event <Link href={`/events/${testEvent}`}><code>{testEvent}</code></Link> — open it to follow its delivery.</p>}
      {editing && (
        <div className="card">
          <h2>Edit endpoint</h2>
          <EndpointForm initial={fromEndpoint(ep)} endpointId={ep.id} submitLabel="Save changes" onCancel={() => setEditing(false)} onSubmit={async (body) => {
            setEp(await api.patch<Endpoint>(`/endpoints/${ep.id}`, body satisfies EndpointPatch))
            setEditing(false)
            setNotice('Endpoint saved.')
          }} />
        </div>
      )}
      <div className="card">
        <h2>Health (last 24 h)</h2>
        {stats ? (
          <>
            <HealthCell health={endpointHealth(ep, { ...stats, ...stats.backlog })} window="24 h" />
            <dl className="props">
              <dt>Deliveries</dt><dd data-testid="deliveries-summary">{deliveriesText({ ...stats, ...stats.backlog })}</dd>
              <dt>Attempts</dt><dd>{formatCount(stats.attempts)}, {formatCount(stats.attempts_failed)} failed{Object.keys(stats.by_error_class).length > 0 && <> ({Object.entries(stats.by_error_class).map(([k, v]) => `${k.replace(/^http_/, 'HTTP ')}: ${v}`).join(', ')})</>}</dd>
              {!queue && <><dt>Answer time</dt><dd>{stats.response_ms.p50 == null ? '—' : `p50 ${formatDuration(stats.response_ms.p50)}, p95 ${formatDuration(stats.response_ms.p95)}, p99 ${formatDuration(stats.response_ms.p99)}`}</dd></>}
              <dt>Waiting</dt><dd>{stats.backlog.pending} pending, {stats.backlog.retrying} retrying</dd>
            </dl>
          </>
        ) : <Loading />}
      </div>
      <div className="card">
        <h2>Settings</h2>
        <dl className="props">
          <dt>Kind</dt><dd>{queue ? 'Pull queue (consumers pull)' : 'HTTP (Ferry pushes)'}</dd>
          {ep.customer && <><dt>Customer</dt><dd><Link href={'/customers/' + encodeURIComponent(ep.customer)}>{ep.customer}</Link> <span className="muted">(receives only this customer's events)</span></dd></>}
          {!queue && <><dt>Format</dt><dd>{ep.format === 'raw' ? 'raw (the original body and content type)' : 'envelope'}</dd></>}
          <dt>State</dt><dd>{ep.enabled ? 'enabled' : 'disabled'}</dd>
          <dt>Description</dt><dd>{ep.description || '—'}</dd>
          <dt>Event types</dt><dd>{ep.event_types?.length ? ep.event_types.join(', ') : 'All event types'}</dd>
          <dt>Filter</dt><dd>{ep.filter ? <code>{ep.filter}</code> : 'none'}</dd>
          {!queue && (<><dt>Transformation</dt><dd>{ep.transformation ? <pre className="code" data-testid="transformation-source">{ep.transformation}</pre> : 'none'}</dd></>)}
          {/* A queue is pulled: no request of Ferry's waits on a timeout or a rate limit. */}
          {!queue && <><dt>Timeout</dt><dd>{ep.timeout_seconds} s</dd></>}
          {!queue && <><dt>Rate limit</dt><dd>{ep.rate_limit_per_second ? `${ep.rate_limit_per_second}/s` : 'none'}</dd></>}
          <dt>Max in flight</dt><dd>{ep.max_in_flight}{queue && ep.max_in_flight === 1 ? ' (ordered: one message leased at a time)' : ''}</dd>
          <dt>{queue ? 'Custom headers (in each pulled message)' : 'Custom headers'}</dt><dd>{Object.keys(ep.headers ?? {}).length ? Object.entries(ep.headers!).map(([k, v]) => <div key={k}><code>{k}: {v}</code></div>) : 'none'}</dd>
          <dt>Created</dt><dd>{formatTime(ep.created_at)}</dd>
        </dl>
      </div>
      {ep.kind === 'queue' && <QueueCard ep={ep} writer={writer} />}
      {writer && (
        <div className="card">
          <h2>Signing secret</h2>
          <p className="muted">
            Verify the <code>webhook-signature</code> header {queue ? <>of each pulled message (its <code>headers</code>)</> : null} with this secret (Standard Webhooks).
          </p>
          {secret ? (
            <>
              <div className="secret"><code data-testid="secret">{secret.secret}</code><CopyButton text={secret.secret} /></div>
              {secret.previous?.map((p) => (
                <p key={p.secret} className="muted">Previous secret still valid until {formatTime(p.expires_at)}.</p>
              ))}
            </>
          ) : (
            <p><code>whsec_••••••••••••</code></p>
          )}
          <div className="actions">
            {secret ? (
              <button type="button" className="btn" onClick={() => setSecret(null)}>Hide secret</button>
            ) : (
              <button type="button" className="btn" onClick={() => act(async () => setSecret(await api.get<SecretInfo>(`/endpoints/${ep.id}/secret`)))}>Reveal secret</button>
            )}
            <ConfirmButton className="btn btn-small" confirmLabel="Yes, rotate" onConfirm={() => act(async () => {
              setSecret(await api.post<SecretInfo>(`/endpoints/${ep.id}/secret/rotate`))
              setNotice('Secret rotated. The previous secret stays valid for the grace period; deliveries are signed with both.')
            })}>Rotate secret</ConfirmButton>
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
          <Empty title="No attempts yet">Send a test event to see Ferry deliver it here.</Empty>
        )}
        <AttemptList attempts={attempts.items} showEvent />
        <Pager list={attempts} label="Attempts" />
      </div>
    </section>
  )
}
