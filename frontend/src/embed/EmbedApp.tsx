// EmbedApp.tsx is the embedded customer portal's shell: it exchanges the
// launch code for a session, applies its theme, tells the host page its
// height, routes to the pages under /embed/{session_id}, and shows that
// the session ended when it does.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { ErrorMessage, Loading } from '../components'
import { Link, matchPath, useLocation } from '../router'
import type { EndReason, PortalClient } from './client'
import { PortalContext, portalOf, type Portal } from './context'
import { embedBase, keepOrigin } from './launch'
import { watchHeight, type ParentChannel } from './parent'
import { applyTheme, logoUrl } from './theme'
import type { PortalSession } from './types'
import { PortalEndpointsPage } from './pages/Endpoints'
import { PortalEndpointPage } from './pages/Endpoint'
import { PortalMessagesPage } from './pages/Messages'
import { PortalMessagePage } from './pages/Message'
import { PortalRecoverPage } from './pages/Recover'
import './embed.css'

type State =
  | { kind: 'starting' }
  | { kind: 'ready'; session: PortalSession }
  | { kind: 'ended'; reason: EndReason }
  | { kind: 'error'; error: unknown }

type Route = { pattern: string; label?: string; show?: (p: Portal) => boolean; render: (params: Record<string, string>) => ReactNode }

const routes: Route[] = [
  { pattern: '/', label: 'Endpoints', render: () => <PortalEndpointsPage /> },
  { pattern: '/endpoints/:id', render: (p) => <PortalEndpointPage id={p.id} /> },
  { pattern: '/messages', label: 'Messages', render: () => <PortalMessagesPage /> },
  { pattern: '/messages/:id', render: (p) => <PortalMessagePage id={p.id} /> },
  { pattern: '/recover', label: 'Recover', show: (p) => p.can('replay'), render: () => <PortalRecoverPage /> },
]

/** endedText says why the session ended and what happens next. */
export function endedText(reason: EndReason, framed: boolean): string {
  const why: Record<EndReason, string> = {
    invalid_link: 'This link has already been used or has expired.',
    no_code: 'This page has to be opened from a new link.',
    expired: 'The session expired.',
    unauthorized: 'The session was ended.',
  }
  return `${why[reason]} ${framed ? 'A new session is being requested…' : 'Open the webhooks page again to continue.'}`
}

export function EmbedApp({ client, channel, code }: { client: PortalClient; channel: ParentChannel; code: string }) {
  const [state, setState] = useState<State>(() => (client.ended ? { kind: 'ended', reason: client.ended } : { kind: 'starting' }))
  // The code is single-use: one exchange per attempt, even when React runs
  // the effect twice (StrictMode keeps refs across its re-run).
  const boot = useRef<Promise<PortalSession> | null>(null)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    let live = true
    const off = client.onEnded((reason) => live && setState({ kind: 'ended', reason }))
    if (client.ended) setState({ kind: 'ended', reason: client.ended })
    if (!boot.current) boot.current = client.exchange(code)
    boot.current.then(
      (session) => {
        if (!live || client.ended) return
        applyTheme(session.theme)
        setState({ kind: 'ready', session })
      },
      (error) => live && !client.ended && setState({ kind: 'error', error }),
    )
    return () => {
      live = false
      off()
    }
  }, [client, code, attempt])

  const wrap = useRef<HTMLDivElement>(null)
  useEffect(() => (wrap.current ? watchHeight(wrap.current, channel) : undefined), [channel])

  let body: ReactNode
  if (state.kind === 'starting') body = <main className="center"><Loading what="Opening your webhooks" /></main>
  else if (state.kind === 'ended') {
    body = (
      <main className="center" data-testid="session-ended">
        <h1>Your session has ended</h1>
        <p>{endedText(state.reason, channel.framed)}</p>
      </main>
    )
  } else if (state.kind === 'error') {
    body = (
      <main className="center">
        <ErrorMessage error={state.error} title="Could not open your webhooks" />
        <button className="btn" type="button" onClick={() => { boot.current = null; setState({ kind: 'starting' }); setAttempt((n) => n + 1) }}>Try again</button>
      </main>
    )
  } else body = <Ready client={client} session={state.session} origin={channel.framed ? channel.origin : null} />
  return <div ref={wrap} className="embed">{body}</div>
}

function Ready({ client, session, origin }: { client: PortalClient; session: PortalSession; origin: string | null }) {
  const base = embedBase(client.sessionId)
  const portal = useMemo(() => portalOf(client, session, base), [client, session, base])
  const { path } = useLocation()
  const rel = path.startsWith(base) ? path.slice(base.length) || '/' : '/'
  const visible = routes.filter((r) => !r.show || r.show(portal))
  let page: ReactNode = null
  for (const r of visible) {
    const m = matchPath(r.pattern, rel)
    if (m) {
      page = r.render(m)
      break
    }
  }
  const active = (pattern: string) => (pattern === '/' ? rel === '/' || rel.startsWith('/endpoints') : rel.startsWith(pattern))
  const current = visible.find((r) => r.label && active(r.pattern))?.label
  useEffect(() => {
    document.title = `${current ?? 'Webhooks'} · ${session.customer.name || 'Webhooks'}`
  }, [current, session.customer.name])
  // The portal's links drop the query; put the host's origin back into the
  // address so a reload of the frame can still tell the host page.
  const here = path + window.location.search
  useEffect(() => {
    const search = keepOrigin(window.location.search, origin)
    if (search !== null) window.history.replaceState(window.history.state, '', window.location.pathname + search)
  }, [here, origin])
  const logo = logoUrl(session.theme)
  return (
    <PortalContext.Provider value={portal}>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="embed-bar">
        <span className="embed-brand">
          {logo && <img src={logo} alt="" className="embed-logo" onError={(e) => { e.currentTarget.hidden = true }} />}
          <span>Webhooks</span>
        </span>
        <nav className="embed-nav" aria-label="Main">
          {visible.filter((r) => r.label).map((r) => (
            <Link key={r.pattern} href={portal.href(r.pattern)} aria-current={active(r.pattern) ? 'page' : undefined}>{r.label}</Link>
          ))}
        </nav>
        <span className="embed-who muted" title={session.external_user.email ?? session.external_user.id}>
          {session.customer.name}{session.read_only ? ' · read only' : ''}
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        {page ?? (
          <section>
            <h1>Page not found</h1>
            <p><Link href={portal.href('/')}>Go to your endpoints</Link>.</p>
          </section>
        )}
      </main>
    </PortalContext.Provider>
  )
}
