// Auth.tsx: sign-in (with the staff authenticator code when asked) and
// sign-up forms.
import { Logo } from '../Logo'
import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../api'
import { normalizeCode } from '../account'
import { ErrorMessage, Field, Notice } from '../components'
import { Link } from '../router'
import type { LoginInput, Me, SignupAccepted, SignupInput } from '../types'

/** AuthFrame is the centred card of the signed-out pages. */
export function AuthFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="auth">
      <div className="card auth-card">
        <p className="brand-big"><Logo size={28} /> Ferry</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  )
}

export function LoginPage({ onDone }: { onDone: () => Promise<void> }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  // Staff with an authenticator are asked for its code after the password.
  const [needCode, setNeedCode] = useState(false)
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const body: LoginInput = { email, password }
      if (needCode) body.totp_code = normalizeCode(code)
      await api.post<Me>('/auth/login', body)
      await onDone()
    } catch (err) {
      if (err instanceof ApiError && err.field === 'totp_code') {
        // The first ask is not an error: it is the second step.
        if (!needCode) setError(null)
        else setError(err)
        setNeedCode(true)
        setCode('')
      } else {
        setError(err)
      }
    } finally {
      setBusy(false)
    }
  }
  return (
    <AuthFrame title="Sign in">
      <form onSubmit={submit} className="form">
        <ErrorMessage error={error} title="Sign-in failed" />
        <Field label="Email">{(id) => <input id={id} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
        <Field label="Password">{(id) => <input id={id} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}</Field>
        {needCode && (
          <Field label="Authenticator code" hint="The 6-digit code your authenticator app shows for Ferry.">
            {(id, d) => <input id={id} inputMode="numeric" autoComplete="one-time-code" required autoFocus aria-describedby={d} value={code} onChange={(e) => setCode(e.target.value)} />}
          </Field>
        )}
        <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <p className="muted"><Link href="/forgot-password">Forgot your password?</Link></p>
      <p className="muted">New to Ferry? <Link href="/signup">Create an account</Link></p>
    </AuthFrame>
  )
}

/**
 * SignupPage starts a sign-up: Ferry mails the address a link that
 * finishes it (FinishSignupPage). The answer is the same whether or not
 * the address already has an account, so the page never says which.
 */
export function SignupPage() {
  const [organization, setOrganization] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [sentTo, setSentTo] = useState('')
  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const r = await api.post<SignupAccepted>('/auth/signup', { organization, email, password } satisfies SignupInput)
      setSentTo(r.email)
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  if (sentTo) {
    return (
      <AuthFrame title="Check your inbox">
        <Notice>We sent a link to <strong>{sentTo}</strong>. Follow it to finish creating your account; it works for 2 days.</Notice>
        <p className="muted">No mail? Check your spam folder, or send the form again.</p>
        <button className="btn" type="button" onClick={() => setSentTo('')}>Sign up again</button>
      </AuthFrame>
    )
  }
  return (
    <AuthFrame title="Create your account">
      <form onSubmit={submit} className="form">
        <ErrorMessage error={error} title="Sign-up failed" />
        <Field label="Organisation name">{(id) => <input id={id} autoComplete="organization" required value={organization} onChange={(e) => setOrganization(e.target.value)} />}</Field>
        <Field label="Email">{(id) => <input id={id} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
        <Field label="Password" hint="At least 10 characters.">
          {(id, d) => <input id={id} type="password" autoComplete="new-password" required aria-describedby={d} value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Creating…' : 'Create account'}</button>
      </form>
      <p className="muted">Already have an account? <Link href="/login">Sign in</Link></p>
    </AuthFrame>
  )
}
