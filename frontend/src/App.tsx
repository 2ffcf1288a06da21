// App.tsx is the portal's shell: it loads the session, routes to pages,
// and shows the tenant or staff navigation.
import { Logo } from './Logo'
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { api, ApiError, onUnauthorized } from './api'
import { Link, matchPath, navigate, useLocation } from './router'
import { SessionContext, type Session } from './session'
import type { Me } from './types'
import { Loading, ErrorMessage } from './components'
import { LoginPage, SignupPage } from './pages/Auth'
import { AcceptInvitePage, AccountPage, FinishSignupPage, ForgotPasswordPage, ResetPasswordPage, RestrictedPage, VerifyEmailPage } from './pages/Account'
import { isPublicPath } from './account'
import { DashboardPage } from './pages/Dashboard'
import { EndpointsPage } from './pages/Endpoints'
import { EndpointDetailPage } from './pages/EndpointDetail'
import { EventsPage } from './pages/Events'
import { EventDetailPage } from './pages/EventDetail'
import { ReplaysPage } from './pages/Replays'
import { SourcesPage } from './pages/Sources'
import { SourceDetailPage } from './pages/SourceDetail'
import { SourceRequestPage } from './pages/SourceRequest'
import { ApiKeysPage } from './pages/ApiKeys'
import { MembersPage } from './pages/Members'
import { BillingPage } from './pages/Billing'
import { StaffTenantsPage, StaffTenantPage, StaffEventPage, StaffEndpointPage } from './pages/Staff'
import { StaffAuditPage } from './pages/StaffAudit'
import { CustomersPage } from './pages/Customers'
import { CustomerDetailPage } from './pages/CustomerDetail'
import { PortalSettingsPage } from './pages/PortalSettings'
import { EventTypesPage } from './pages/EventTypes'
import { EventTypeDetailPage } from './pages/EventTypeDetail'

type Route = { pattern: string; label?: string; render: (p: Record<string, string>) => ReactNode }

const tenantRoutes: Route[] = [
  { pattern: '/', label: 'Dashboard', render: () => <DashboardPage /> },
  { pattern: '/endpoints', label: 'Endpoints', render: () => <EndpointsPage /> },
  { pattern: '/endpoints/:id', render: (p) => <EndpointDetailPage id={p.id} /> },
  { pattern: '/events', label: 'Events', render: () => <EventsPage /> },
  { pattern: '/events/:id', render: (p) => <EventDetailPage id={p.id} /> },
  { pattern: '/sources', label: 'Sources', render: () => <SourcesPage /> },
  { pattern: '/sources/:id', render: (p) => <SourceDetailPage id={p.id} /> },
  { pattern: '/sources/:id/requests/:rid', render: (p) => <SourceRequestPage sourceId={p.id} requestId={p.rid} /> },
  { pattern: '/replays', label: 'Replay', render: () => <ReplaysPage /> },
  { pattern: '/customers', label: 'Customers', render: () => <CustomersPage /> },
  { pattern: '/customers/:uid', render: (p) => <CustomerDetailPage uid={p.uid} /> },
  { pattern: '/portal-settings', render: () => <PortalSettingsPage /> },
  { pattern: '/event-types', label: 'Event types', render: () => <EventTypesPage /> },
  { pattern: '/event-types/:name', render: (p) => <EventTypeDetailPage name={p.name} /> },
  { pattern: '/api-keys', label: 'API keys', render: () => <ApiKeysPage /> },
  { pattern: '/members', label: 'Members', render: () => <MembersPage /> },
  { pattern: '/billing', label: 'Billing', render: () => <BillingPage /> },
  { pattern: '/account', render: () => <AccountPage notifications /> },
]

const staffRoutes: Route[] = [
  { pattern: '/staff', label: 'Tenants', render: () => <StaffTenantsPage /> },
  { pattern: '/staff/tenants/:id', render: (p) => <StaffTenantPage id={p.id} /> },
  { pattern: '/staff/tenants/:id/events/:eventId', render: (p) => <StaffEventPage tenantId={p.id} eventId={p.eventId} /> },
  { pattern: '/staff/tenants/:id/endpoints/:endpointId', render: (p) => <StaffEndpointPage tenantId={p.id} endpointId={p.endpointId} /> },
  { pattern: '/staff/audit', label: 'Audit log', render: () => <StaffAuditPage /> },
  { pattern: '/staff/account', render: () => <AccountPage /> },
]

function resolve(routes: Route[], path: string): ReactNode | null {
  for (const r of routes) {
    const m = matchPath(r.pattern, path)
    if (m) return r.render(m)
  }
  return null
}

export function App() {
  const { path } = useLocation()
  const [me, setMe] = useState<Me | null>(null)
  const [state, setState] = useState<'loading' | 'in' | 'out' | 'error'>('loading')
  const [error, setError] = useState<unknown>(null)

  const refresh = useCallback(async () => {
    try {
      const m = await api.get<Me>('/me')
      setMe(m)
      setState('in')
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) {
        setMe(null)
        setState('out')
      } else {
        setError(e)
        setState('error')
      }
    }
  }, [])

  useEffect(() => {
    refresh()
    return onUnauthorized(() => {
      setMe(null)
      setState('out')
    })
  }, [refresh])

  const signOut = useCallback(async () => {
    try {
      await api.post('/auth/logout')
    } finally {
      setMe(null)
      setState('out')
      navigate('/login')
    }
  }, [])

  const isStaff = me?.role === 'staff'

  // Billing is its own module: show its page only when this Ferry serves
  // the billing routes (a 404 "no such route" hides it).
  const [billing, setBilling] = useState(true)
  useEffect(() => {
    if (state !== 'in' || isStaff) return
    api.get('/billing').then(
      () => setBilling(true),
      (e) => setBilling(!(e instanceof ApiError && e.status === 404)),
    )
  }, [state, isStaff])
  // Pages reached from emailed links work signed in or out.
  const linkPage = path === '/reset-password' || path === '/accept-invite' || path === '/verify-email' || path === '/finish-signup'
  useEffect(() => {
    if (linkPage) return
    if (state === 'in' && isPublicPath(path)) navigate(isStaff ? '/staff' : '/', true)
    else if (state === 'in' && isStaff && !path.startsWith('/staff')) navigate('/staff', true)
    if (state === 'out' && !isPublicPath(path)) navigate('/login', true)
  }, [state, path, isStaff, linkPage])

  if (state === 'loading') return <main className="center"><Loading what="Loading Ferry" /></main>
  if (state === 'error') {
    return (
      <main className="center">
        <ErrorMessage error={error} title="Ferry could not load" />
        <button className="btn" onClick={() => { setState('loading'); refresh() }}>Try again</button>
      </main>
    )
  }
  if (path === '/reset-password') return <ResetPasswordPage />
  if (path === '/accept-invite') return <AcceptInvitePage onDone={refresh} />
  if (path === '/verify-email') return <VerifyEmailPage />
  if (path === '/finish-signup') return <FinishSignupPage onDone={refresh} />
  if (state === 'out' || !me) {
    if (path === '/signup') return <SignupPage />
    if (path === '/forgot-password') return <ForgotPasswordPage />
    return <LoginPage onDone={refresh} />
  }
  if (me.restriction) return <RestrictedPage restriction={me.restriction} onDone={refresh} onSignOut={signOut} />

  const session: Session = { me, refresh, signOut }
  const routes = isStaff ? staffRoutes : tenantRoutes.filter((r) => billing || r.pattern !== '/billing')
  const page = resolve(routes, path) ?? <NotFound />
  return (
    <SessionContext.Provider value={session}>
      <a className="skip-link" href="#main">Skip to content</a>
      <Shell routes={routes} path={path} me={me} onSignOut={signOut}>
        {page}
      </Shell>
    </SessionContext.Provider>
  )
}

function Shell({ routes, path, me, onSignOut, children }: { routes: Route[]; path: string; me: Me; onSignOut: () => void; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const active = (pattern: string) => (pattern === '/' || pattern === '/staff' ? path === pattern || (pattern === '/staff' && path.startsWith('/staff/tenants')) : path.startsWith(pattern))
  const current = routes.find((r) => r.label && active(r.pattern))?.label
  // On navigation: close the phone menu, name the page in the title, and
  // move focus to the content so keyboard and screen-reader users land there.
  const first = useRef(true)
  useEffect(() => {
    setOpen(false)
    document.title = `${current ?? 'Ferry'} · Ferry${me.role === 'staff' ? ' staff console' : ''}`
    if (first.current) first.current = false
    else document.getElementById('main')?.focus({ preventScroll: true })
  }, [path, current, me.role])
  return (
    <div className="shell">
      <header className="topbar">
        <Link href={me.role === 'staff' ? '/staff' : '/'} className="brand">
          <Logo /> Ferry{me.role === 'staff' && <span className="staff-tag">staff console</span>}
        </Link>
        <button type="button" className="btn btn-small menu-toggle" aria-expanded={open} aria-controls="mainnav" onClick={() => setOpen(!open)}>
          Menu
        </button>
        <nav id="mainnav" className={open ? 'nav open' : 'nav'} aria-label="Main">
          {routes.filter((r) => r.label).map((r) => (
            <Link key={r.pattern} href={r.pattern} aria-current={active(r.pattern) ? 'page' : undefined}>
              {r.label}
            </Link>
          ))}
        </nav>
        <div className="who">
          <span className="muted" title={me.email}>
            {me.tenant ? `${me.tenant.name} · ` : ''}{me.email} ({me.role})
          </span>
          <Link href={me.role === 'staff' ? '/staff/account' : '/account'} className="btn btn-small">Account</Link>
          <button type="button" className="btn btn-small" onClick={onSignOut}>Sign out</button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>{children}</main>
    </div>
  )
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>This page does not exist. <Link href="/">Go to the dashboard</Link>.</p>
    </section>
  )
}
