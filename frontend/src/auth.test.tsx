import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LoginPage } from './pages/Auth'
import { ResetPasswordPage } from './pages/Account'

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
