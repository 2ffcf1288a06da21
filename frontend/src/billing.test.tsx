import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BillingPage } from './pages/Billing'
import { SessionContext, type Session } from './session'
import type { BillingOverview, Me, Plan } from './types'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const plan = (name: string, fee: number): Plan => ({
  name, display_name: name === 'pro' ? 'Pro' : 'Free', events_per_month: fee ? 1000000 : 10000, max_endpoints: fee ? 50 : 3,
  retention_days: fee ? 30 : 3, events_per_second: fee ? 200 : 10, hard_cap: !fee, base_fee_minor: fee,
  overage_unit_events: fee ? 10000 : 0, overage_price_minor: fee ? 100 : 0, currency: 'usd', self_serve: true,
  max_sources: fee ? 50 : 3, captured_bytes_per_month: fee ? 10 << 30 : 100 << 20,
})

function overview(extra: Partial<BillingOverview>): BillingOverview {
  return {
    tenant_id: 't', plan: { ...plan('free', 0), custom: false }, usage: { period: '2026-11', period_start: '', period_end: '', events: 1, attempts: 1 },
    endpoints: 0, overage_events: 0, estimated_overage_minor: 0, quota_exhausted: false, plans: [plan('free', 0), plan('pro', 4900)],
    payments_configured: false, payment_method: null, payment_overdue: false,
    ...extra,
  }
}

function renderBilling(o: BillingOverview, onPut: (body: unknown) => Response) {
  const calls: { method: string; path: string; body: unknown }[] = []
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET'
    const path = url.replace('/api/v1', '')
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, path, body })
    if (method === 'PUT') return onPut(body)
    if (path.startsWith('/billing/invoices')) return new Response(JSON.stringify({ data: [], next_cursor: null }))
    return new Response(JSON.stringify(o))
  }))
  const session: Session = { me: { role: 'owner' } as Me, refresh: async () => {}, signOut: async () => {} }
  render(<SessionContext.Provider value={session}><BillingPage /></SessionContext.Provider>)
  return calls
}

describe('BillingPage payment step', () => {
  it('does not offer paid plans when no payment provider is configured', async () => {
    renderBilling(overview({ payments_configured: false }), () => new Response('', { status: 500 }))
    await screen.findByText(/Online payment is not available/)
    expect(screen.queryByRole('button', { name: /Switch to Pro/ })).toBeNull()
  })

  it('shows the payment step before switching to a paid plan', async () => {
    const calls = renderBilling(overview({ payments_configured: true, payment_method: null }),
      () => new Response(JSON.stringify(overview({ plan: { ...plan('pro', 4900), custom: false }, payment_method: { label: 'Test card' } }))))
    fireEvent.click(await screen.findByRole('button', { name: 'Switch to Pro…' }))
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)
    await screen.findByText(/Payment for Pro/)
    expect(screen.getByText(/None on file yet/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and switch to Pro' }))
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ plan: 'pro' }))
    await screen.findByText('Plan changed to pro.')
  })

  it('shows the provider refusal', async () => {
    renderBilling(overview({ payments_configured: true }), () => new Response(JSON.stringify({
      error: { code: 'payment_required', message: 'the payment provider declined the payment method; try another one' } }), { status: 402 }))
    fireEvent.click(await screen.findByRole('button', { name: 'Switch to Pro…' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and switch to Pro' }))
    await screen.findByText(/declined the payment method/)
  })
})

describe('BillingPage limits', () => {
  it('warns at the endpoint limit and near the quota, with one number format', async () => {
    renderBilling(overview({ endpoints: 3, usage: { period: '2026-11', period_start: '', period_end: '', events: 8500, attempts: 12345 } }), () => new Response('', { status: 500 }))
    expect((await screen.findByTestId('endpoint-limit')).textContent).toContain('3 of 3 endpoints')
    expect(screen.getByTestId('quota-near').textContent).toBe("85.0% of this month's 10,000 events used. At the limit new events are refused until next month; upgrade to keep sending.")
    expect(screen.getByText('8,500 of 10,000 included')).toBeTruthy()
    expect(screen.getByText('8,500 of 10,000 (85%)')).toBeTruthy()
    expect(screen.getByText('12,345')).toBeTruthy()
    expect(screen.getByTestId('attempts-note').textContent).toMatch(/every few minutes/)
  })

  it('says nothing below the limits', async () => {
    renderBilling(overview({ endpoints: 2 }), () => new Response('', { status: 500 }))
    await screen.findByText('1 of 10,000 included')
    expect(screen.queryByTestId('endpoint-limit')).toBeNull()
    expect(screen.queryByTestId('quota-near')).toBeNull()
  })
})
