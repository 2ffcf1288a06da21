import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LoginPage } from './pages/Auth'
import { AccountPage, ResetPasswordPage } from './pages/Account'
import { SessionContext, type Session } from './session'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  window.history.replaceState(null, '', '/')
})

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status })
}

describe('LoginPage', () => {
  it('asks staff for the authenticator code after the password, then sends it', async () => {
    const fetchMock = vi.fn()
      .mockResolvedValueOnce(json(401, { error: { code: 'unauthorized', message: 'enter the code from your authenticator app', field: 'totp_code' } }))
      .mockResolvedValueOnce(json(200, { kind: 'staff' }))
    vi.stubGlobal('fetch', fetchMock)
    const onDone = vi.fn(async () => {})
    render(<LoginPage onDone={onDone} />)
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@ferry.example' } })
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'staff password' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    const code = await screen.findByLabelText('Authenticator code')
    expect(screen.queryByRole('alert')).toBeNull() // the ask is a step, not an error
    fireEvent.change(code, { target: { value: '123 456' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(onDone).toHaveBeenCalledOnce())
    const [, init] = fetchMock.mock.calls[1] as [string, RequestInit]
    expect(JSON.parse(String(init.body))).toEqual({ email: 'sam@ferry.example', password: 'staff password', totp_code: '123456' })
  })
})

describe('ResetPasswordPage', () => {
  it('takes the token from the link fragment, checks the repeat, and hides the token from the address bar', async () => {
    window.history.replaceState(null, '', '/reset-password#token=tok_123')
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }))
    vi.stubGlobal('fetch', fetchMock)
    render(<ResetPasswordPage />)
    await waitFor(() => expect(window.location.hash).toBe(''))
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a new password' } })
    fireEvent.change(screen.getByLabelText('Repeat it'), { target: { value: 'a new passw0rd' } })
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/do not match/)
    expect(fetchMock).not.toHaveBeenCalled()
    fireEvent.change(screen.getByLabelText('Repeat it'), { target: { value: 'a new password' } })
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }))
    await screen.findByText(/every session of your account has been signed out/)
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/v1/auth/password-reset/confirm')
    expect(JSON.parse(String(init.body))).toEqual({ token: 'tok_123', new_password: 'a new password' })
  })
})

describe('AccountPage for staff', () => {
  function staffSession(totp: boolean, refresh: () => Promise<void> = async () => {}) {
    return { me: { kind: 'staff', user_id: 's1', email: 'sam@ferry.example', role: 'staff', email_verified: true, totp_enabled: totp }, refresh, signOut: async () => {} } as Session
  }

  it('enrols an authenticator when none is, and then says one is', async () => {
    const fetchMock = vi.fn(async (url: string) => {
      if (url === '/api/v1/me/totp') return json(201, { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Ferry:sam@ferry.example?secret=JBSWY3DPEHPK3PXP' })
      return new Response(null, { status: 204 })
    })
    vi.stubGlobal('fetch', fetchMock)
    let session = staffSession(false)
    const refresh = vi.fn(async () => {
      session = staffSession(true, refresh)
      view.rerender(<SessionContext.Provider value={session}><AccountPage /></SessionContext.Provider>)
    })
    session = staffSession(false, refresh)
    const view = render(<SessionContext.Provider value={session}><AccountPage /></SessionContext.Provider>)
    screen.getByRole('heading', { name: 'Two-factor sign-in' })
    expect(screen.getByTestId('totp-state').textContent).toContain('No authenticator is enrolled.')
    fireEvent.click(screen.getByRole('button', { name: 'Set up an authenticator' }))
    await screen.findByText('JBSW Y3DP EHPK 3PXP')
    fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '123 456' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(refresh).toHaveBeenCalledOnce())
    const [url, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit]
    expect(url).toBe('/api/v1/me/totp/confirm')
    expect(JSON.parse(String(init.body))).toEqual({ code: '123456' })
    expect(screen.getByTestId('totp-state').textContent).toContain('An authenticator is enrolled.')
    screen.getByText(/Authenticator enrolled\. Your other sessions were signed out/)
  })

  it('says an authenticator is enrolled and how a lost one is reset, offering no second enrolment', () => {
    render(<SessionContext.Provider value={staffSession(true)}><AccountPage /></SessionContext.Provider>)
    expect(screen.getByTestId('totp-state').textContent).toContain('An authenticator is enrolled.')
    expect(screen.getByTestId('totp-state').textContent).toContain('ferry staff reset-totp --email sam@ferry.example')
    expect(screen.queryByRole('button', { name: 'Set up an authenticator' })).toBeNull()
  })

  it('is not shown to tenant members', () => {
    const member = { me: { kind: 'user', user_id: 'u1', email: 'o@a.test', role: 'owner', email_verified: true }, refresh: async () => {}, signOut: async () => {} } as Session
    render(<SessionContext.Provider value={member}><AccountPage /></SessionContext.Provider>)
    expect(screen.queryByRole('heading', { name: 'Two-factor sign-in' })).toBeNull()
  })
})
