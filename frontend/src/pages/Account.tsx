// Account.tsx: the password lifecycle and the staff second factor —
// forgot/reset password and accept-invite (reached from emailed links),
// address verification, changing the password, and TOTP enrolment.
import { useContext, useEffect, useState, type FormEvent, type ReactNode } from 'react'
import { api } from '../api'
import { isTotpCode, normalizeCode, passwordProblem, secretGroups, tokenFromHash } from '../account'
import { CopyButton, ErrorMessage, Field, Loading, Notice } from '../components'
import { Link, navigate } from '../router'
import { SessionContext } from '../session'
import type { NotificationPrefs } from '../types'
import { AuthFrame } from './Auth'

/** useTokenFromLink reads the emailed token once, then drops it from the address bar. */
function useTokenFromLink(): string {
  const [token] = useState(() => tokenFromHash(window.location.hash))
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname)
  }, [])
  return token
}

/** useSubmit runs an async action with busy and error state. */
function useSubmit() {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  async function run(f: () => Promise<void>) {
    setBusy(true)
    setError(null)
    try {
      await f()
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, setError, run }
}

/** NewPasswordFields asks for a new password twice. */
function NewPasswordFields({ password, confirm, onPassword, onConfirm, label = 'New password' }: {
  password: string; confirm: string; onPassword: (v: string) => void; onConfirm: (v: string) => void; label?: string
}) {
  return (
    <>
      <Field label={label} hint="At least 10 characters.">
        {(id, d) => <input id={id} type="password" autoComplete="new-password" required aria-describedby={d} value={password} onChange={(e) => onPassword(e.target.value)} />}
      </Field>
      <Field label="Repeat it">
        {(id) => <input id={id} type="password" autoComplete="new-password" required value={confirm} onChange={(e) => onConfirm(e.target.value)} />}
      </Field>
    </>
  )
}

function MissingToken({ what }: { what: string }) {
  return (
    <div className="alert alert-error" role="alert">
      This page needs the link from your {what} email. Open the link from the email again, or{' '}
      <Link href="/forgot-password">ask for a new one</Link>.
    </div>
  )
}

/** ForgotPasswordPage asks for a reset link by email. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState(false)
  const s = useSubmit()
  function submit(e: FormEvent) {
    e.preventDefault()
    s.run(async () => {
      await api.post('/auth/password-reset', { email })
      setSent(true)
    })
  }
  return (
    <AuthFrame title="Reset your password">
      {sent ? (
        <Notice>If an account uses {email}, we have emailed it a link to choose a new password. The link works once, for an hour.</Notice>
      ) : (
        <form onSubmit={submit} className="form">
          <ErrorMessage error={s.error} title="Could not send the link" />
          <p className="muted">Enter your account's email address and we will send you a link to choose a new password. This works even when sign-in is locked after too many attempts.</p>
          <Field label="Email">{(id) => <input id={id} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
          <button className="btn btn-primary" type="submit" disabled={s.busy}>{s.busy ? 'Sending…' : 'Email me a link'}</button>
        </form>
      )}
      <p className="muted"><Link href="/login">Back to sign-in</Link></p>
    </AuthFrame>
  )
}

/** ResetPasswordPage sets a new password with the emailed token. */
export function ResetPasswordPage() {
  const token = useTokenFromLink()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [done, setDone] = useState(false)
  const s = useSubmit()
  function submit(e: FormEvent) {
    e.preventDefault()
    const problem = passwordProblem(password, confirm)
    if (problem) return s.setError(new Error(problem))
    s.run(async () => {
      await api.post('/auth/password-reset/confirm', { token, new_password: password })
      setDone(true)
    })
  }
  return (
    <AuthFrame title="Choose a new password">
      {!token ? <MissingToken what="password reset" /> : done ? (
        <>
          <Notice>Your password is changed and every session of your account has been signed out.</Notice>
          <button className="btn btn-primary" type="button" onClick={() => navigate('/login')}>Sign in</button>
        </>
      ) : (
        <form onSubmit={submit} className="form">
          <ErrorMessage error={s.error} title="Could not reset the password" />
          <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />
          <button className="btn btn-primary" type="submit" disabled={s.busy}>{s.busy ? 'Saving…' : 'Set password'}</button>
        </form>
      )}
    </AuthFrame>
  )
}

/** AcceptInvitePage lets an invited member choose their own password. */
export function AcceptInvitePage({ onDone }: { onDone: () => Promise<void> }) {
  const token = useTokenFromLink()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const s = useSubmit()
  function submit(e: FormEvent) {
    e.preventDefault()
    const problem = passwordProblem(password, confirm)
    if (problem) return s.setError(new Error(problem))
    s.run(async () => {
      await api.post('/auth/invites/accept', { token, password })
      await onDone()
      navigate('/', true)
    })
  }
  return (
    <AuthFrame title="Join your team on Ferry">
      {!token ? <MissingToken what="invitation" /> : (
        <form onSubmit={submit} className="form">
          <ErrorMessage error={s.error} title="Could not accept the invitation" />
          <p className="muted">Choose the password you will sign in with. Nobody else sees it, not even whoever invited you.</p>
          <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} label="Password" />
          <button className="btn btn-primary" type="submit" disabled={s.busy}>{s.busy ? 'Joining…' : 'Join'}</button>
        </form>
      )}
    </AuthFrame>
  )
}

/**
 * FinishSignupPage creates the account from the emailed sign-up link and
 * signs in. It asks for the password chosen at sign-up: a link in one's
 * inbox may come from a sign-up someone else started with their own
 * password, which must not become one's account.
 */
export function FinishSignupPage({ onDone }: { onDone: () => Promise<void> }) {
  const token = useTokenFromLink()
  const [password, setPassword] = useState('')
  const s = useSubmit()
  function submit(e: FormEvent) {
    e.preventDefault()
    s.run(async () => {
      await api.post('/auth/signup/confirm', { token, password })
      await onDone()
      navigate('/', true)
    })
  }
  return (
    <AuthFrame title="Finish signing up">
      {!token ? <MissingToken what="sign-up" /> : (
        <form onSubmit={submit} className="form">
          <ErrorMessage error={s.error} title="Could not finish signing up" />
          <p className="muted">Enter the password you chose when you signed up. If you did not sign up, ignore the mail: nothing is created.</p>
          <Field label="Password">{(id) => <input id={id} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}</Field>
          <button className="btn btn-primary" type="submit" disabled={s.busy}>{s.busy ? 'Creating…' : 'Create my account'}</button>
        </form>
      )}
      <p className="muted"><Link href="/signup">Sign up again</Link> · <Link href="/login">Sign in</Link></p>
    </AuthFrame>
  )
}

/** VerifyEmailPage confirms the address with the emailed token. */
export function VerifyEmailPage() {
  const token = useTokenFromLink()
  const [state, setState] = useState<'busy' | 'done' | 'failed'>('busy')
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    if (!token) return
    api.post('/auth/verify-email', { token }).then(() => setState('done'), (e) => { setError(e); setState('failed') })
  }, [token])
  return (
    <AuthFrame title="Confirm your email address">
      {!token ? <MissingToken what="verification" /> : state === 'busy' ? <Loading what="Confirming" /> :
        state === 'done' ? <Notice>Your email address is confirmed.</Notice> : <ErrorMessage error={error} title="Could not confirm" />}
      <p className="muted"><Link href="/">Continue to Ferry</Link></p>
    </AuthFrame>
  )
}

/** ChangePasswordForm changes the signed-in user's password; other sessions end. */
export function ChangePasswordForm({ onDone }: { onDone?: () => Promise<void> }) {
  const [current, setCurrent] = useState('')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [notice, setNotice] = useState('')
  const s = useSubmit()
  function submit(e: FormEvent) {
    e.preventDefault()
    setNotice('')
    const problem = passwordProblem(password, confirm)
    if (problem) return s.setError(new Error(problem))
    s.run(async () => {
      await api.post('/me/password', { current_password: current, new_password: password })
      setCurrent('')
      setPassword('')
      setConfirm('')
      setNotice('Password changed. Every other session of your account has been signed out.')
      await onDone?.()
    })
  }
  return (
    <form onSubmit={submit} className="form">
      <ErrorMessage error={s.error} title="Could not change the password" />
      <Notice>{notice}</Notice>
      <Field label="Current password">
        {(id) => <input id={id} type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />}
      </Field>
      <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />
      <button className="btn btn-primary" type="submit" disabled={s.busy}>{s.busy ? 'Saving…' : 'Change password'}</button>
    </form>
  )
}

const notificationChoices: { key: keyof NotificationPrefs; label: string; hint: string }[] = [
  { key: 'endpoint_health', label: 'Endpoint health', hint: 'An endpoint is failing, was disabled, or recovered.' },
  { key: 'quota', label: 'Monthly quota', hint: 'Your organisation used 80 % or 100 % of its monthly events.' },
  { key: 'invoices', label: 'Invoices', hint: 'An invoice was issued (sent to owners only).' },
]

/** NotificationsForm sets which notification emails the signed-in user gets. */
export function NotificationsForm() {
  const [prefs, setPrefs] = useState<NotificationPrefs | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [notice, setNotice] = useState('')
  const s = useSubmit()
  useEffect(() => {
    api.get<NotificationPrefs>('/me/notifications').then(setPrefs, setLoadError)
  }, [])
  if (loadError) return <ErrorMessage error={loadError} title="Could not load your notification settings" />
  if (!prefs) return <Loading />
  function submit(e: FormEvent) {
    e.preventDefault()
    setNotice('')
    s.run(async () => {
      setPrefs(await api.put<NotificationPrefs>('/me/notifications', prefs))
      setNotice('Saved.')
    })
  }
  return (
    <form onSubmit={submit} className="form">
      <ErrorMessage error={s.error} title="Could not save your notification settings" />
      <Notice>{notice}</Notice>
      <p className="muted">Emails to owners and admins about the organisation. Choose which ones you get.</p>
      {notificationChoices.map((c) => (
        <label key={c.key} className="checkbox">
          <input type="checkbox" checked={prefs[c.key]} onChange={(e) => { setNotice(''); setPrefs({ ...prefs, [c.key]: e.target.checked }) }} />{' '}
          <span><strong>{c.label}</strong> <span className="muted">{c.hint}</span></span>
        </label>
      ))}
      <button className="btn btn-primary" type="submit" disabled={s.busy}>{s.busy ? 'Saving…' : 'Save notifications'}</button>
    </form>
  )
}

/**
 * AccountPage is the signed-in "Account" page: change the password and,
 * for tenant users, choose the notification emails; staff enrol an
 * authenticator here.
 */
export function AccountPage({ notifications = false }: { notifications?: boolean }) {
  const session = useContext(SessionContext)
  const unverified = session?.me.email_verified === false
  return (
    <section>
      <h1>Account</h1>
      {unverified && (
        <div className="card">
          <h2>Verify your email address</h2>
          <VerifyAddressForm />
        </div>
      )}
      {session?.me.kind === 'staff' && (
        <div className="card">
          <h2>Two-factor sign-in</h2>
          <StaffTotpSection enrolled={session.me.totp_enabled === true} email={session.me.email} onDone={session.refresh} />
        </div>
      )}
      <div className="card">
        <h2>Change password</h2>
        <ChangePasswordForm />
      </div>
      {notifications && (
        <div className="card">
          <h2>Notifications</h2>
          <NotificationsForm />
        </div>
      )}
    </section>
  )
}

/** VerifyAddressForm mails the member a link that verifies their address (invites need it). */
function VerifyAddressForm() {
  const [sent, setSent] = useState(false)
  const s = useSubmit()
  return (
    <>
      <ErrorMessage error={s.error} title="Could not send the link" />
      <p className="muted">Your address is not verified yet: until it is, you cannot invite members.</p>
      {sent ? <Notice>A link is on its way to your inbox.</Notice> :
        <button className="btn" type="button" disabled={s.busy} onClick={() => s.run(async () => { await api.post('/me/verify-email'); setSent(true) })}>
          Send me a verification link</button>}
    </>
  )
}

/**
 * StaffTotpSection says whether the staff member has an authenticator and,
 * without one, enrols it (sign-in asks for its code from then on). A lost
 * one is removed by an operator, not here: the password alone must not be
 * enough to replace the second factor.
 */
function StaffTotpSection({ enrolled, email, onDone }: { enrolled: boolean; email: string; onDone: () => Promise<void> }) {
  const [justEnrolled, setJustEnrolled] = useState(false)
  if (enrolled) {
    return (
      <div data-testid="totp-state">
        <p><strong>An authenticator is enrolled.</strong> Sign-in asks for the code it shows after your password.</p>
        {justEnrolled && <Notice>Authenticator enrolled. Your other sessions were signed out: they were opened with the password alone.</Notice>}
        <p className="muted">Lost it or changed phones? An operator runs <code>ferry staff reset-totp --email {email}</code>; you then enrol a new one.</p>
      </div>
    )
  }
  return (
    <div data-testid="totp-state">
      <p><strong>No authenticator is enrolled.</strong> Where Ferry requires a second factor (always in production), you must enrol one at sign-in; enrol it now and sign-in asks for its code from then on.</p>
      <TotpEnrolment intro={<p className="muted">Add Ferry to an authenticator app (any RFC 6238 TOTP app), then enter the code it shows.</p>} onDone={async () => { setJustEnrolled(true); await onDone() }} />
    </div>
  )
}

/** TotpEnrolment sets up a staff member's authenticator app. */
export function TotpEnrolment({ onDone, intro }: { onDone: () => Promise<void>; intro?: ReactNode }) {
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauth_url: string } | null>(null)
  const [code, setCode] = useState('')
  const s = useSubmit()
  function start() {
    s.run(async () => setEnrolment(await api.post('/me/totp')))
  }
  function confirm(e: FormEvent) {
    e.preventDefault()
    const c = normalizeCode(code)
    if (!isTotpCode(c)) return s.setError(new Error('Enter the 6 digits your authenticator app shows.'))
    s.run(async () => {
      await api.post('/me/totp/confirm', { code: c })
      await onDone()
    })
  }
  return (
    <div className="form">
      {intro === undefined ? <p>The staff console needs a second factor. Add Ferry to an authenticator app (any RFC 6238 TOTP app), then enter the code it shows.</p> : intro}
      <ErrorMessage error={s.error} title="Authenticator set-up failed" />
      {!enrolment ? (
        <button className="btn btn-primary" type="button" onClick={start} disabled={s.busy}>Set up an authenticator</button>
      ) : (
        <form onSubmit={confirm} className="form">
          <p>Type this key into the app (time-based, 6 digits, every 30 seconds), or open the link on the phone that has the app:</p>
          <div className="secret"><code>{secretGroups(enrolment.secret)}</code><CopyButton text={enrolment.secret} /></div>
          <p><a href={enrolment.otpauth_url}>Open in an authenticator app</a></p>
          <Field label="Code from the app">
            {(id) => <input id={id} inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />}
          </Field>
          <button className="btn btn-primary" type="submit" disabled={s.busy}>{s.busy ? 'Checking…' : 'Confirm'}</button>
        </form>
      )}
    </div>
  )
}

/**
 * RestrictedPage is all a session confined by the server sees: a forced
 * password change, or staff TOTP enrolment.
 */
export function RestrictedPage({ restriction, onDone, onSignOut }: {
  restriction: 'password_change' | 'totp_enrolment'; onDone: () => Promise<void>; onSignOut: () => void
}) {
  let body: ReactNode
  if (restriction === 'password_change') {
    body = (
      <>
        <p>Your password was set by someone else. Choose your own before continuing.</p>
        <ChangePasswordForm onDone={onDone} />
      </>
    )
  } else {
    body = <TotpEnrolment onDone={onDone} />
  }
  return (
    <AuthFrame title={restriction === 'password_change' ? 'Choose your password' : 'Set up two-factor sign-in'}>
      {body}
      <p className="muted"><button type="button" className="btn btn-small" onClick={onSignOut}>Sign out</button></p>
    </AuthFrame>
  )
}
