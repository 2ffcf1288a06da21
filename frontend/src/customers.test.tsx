import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SessionContext, type Session } from './session'
import type { Customer, EventType, PortalSession } from './customerTypes'
import type { Endpoint } from './types'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const as = (role: string) => ({ me: { kind: 'user', user_id: 'u1', email: 'o@a.test', role, email_verified: true }, refresh: async () => {}, signOut: async () => {} } as Session)

const acme: Customer = {
  uid: 'acme', name: 'Acme Inc', metadata: { plan: 'gold' }, created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z',
  endpoints: { total: 3, failing: 1, disabled: 1 },
}
const ep = (over: Partial<Endpoint>) => ({ id: 'e1', url: 'https://hooks.acme.test/a', description: '', enabled: true, failing_since: null, event_types: [], kind: 'http', ...over }) as Endpoint
const session: PortalSession = {
  id: 's1', customer: { uid: 'acme', name: 'Acme Inc' }, capabilities: ['view'], read_only: false, endpoint_ids: null,
  external_user: { id: 'u_42', email: 'dana@acme.test' }, created_at: '2026-11-22T10:00:00Z', expires_at: '2999-01-01T00:00:00Z', theme: {},
}
const invoicePaid: EventType = {
  name: 'invoice.paid', group: 'billing', description: 'An invoice was paid', validation: 'off', deprecated: false, deprecated_at: null,
  latest_version: 1, created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z',
}

async function mockApi() {
  const apiMod = await import('./api')
  return vi.spyOn(apiMod.api, 'get').mockImplementation(async (path: string) => {
    if (path.startsWith('/customers/acme')) return acme as never
    if (path.startsWith('/customers')) return { data: [acme], next_cursor: null } as never
    if (path.startsWith('/endpoints')) return { data: [ep({}), ep({ id: 'e2', failing_since: '2026-11-22T09:00:00Z' }), ep({ id: 'e3', enabled: false })], next_cursor: null } as never
    if (path.startsWith('/portal-sessions')) return { data: [session], next_cursor: null } as never
    if (path.startsWith('/event-types')) return { data: [invoicePaid], next_cursor: null } as never
    return { data: [], next_cursor: null } as never
  })
}

describe('customers pages by role', () => {
  it('show viewers the customers and their health, with nothing to change', async () => {
    const get = await mockApi()
    const { CustomersPage } = await import('./pages/Customers')
    render(<SessionContext.Provider value={as('viewer')}><CustomersPage /></SessionContext.Provider>)
    const row = (await screen.findByText('Acme Inc')).closest('tr')!
    await within(row).findByText('3 endpoints · 1 failing · 1 disabled')
    // The list's health comes with the customers: no request per row.
    expect(get.mock.calls.map(([path]) => path).filter((path) => path.startsWith('/endpoints'))).toEqual([])
    expect(screen.queryByRole('button', { name: 'Add customer' })).toBeNull()
    expect(within(row).queryByRole('button')).toBeNull()
  })
  it('give admins create, edit and delete', async () => {
    await mockApi()
    const { CustomersPage } = await import('./pages/Customers')
    render(<SessionContext.Provider value={as('admin')}><CustomersPage /></SessionContext.Provider>)
    await screen.findByText('Acme Inc')
    screen.getByRole('button', { name: 'Add customer' })
    fireEvent.click(screen.getByRole('button', { name: 'Delete Acme Inc' }))
    screen.getByText(/Its endpoints are disabled/)
  })
  it('show a customer\'s health on its page from the API\'s counts, not from the endpoints listed', async () => {
    const get = await mockApi()
    const many: Customer = { ...acme, endpoints: { total: 250, failing: 4, disabled: 0 } }
    const original = get.getMockImplementation()!
    get.mockImplementation(async (path: string) => {
      if (path.startsWith('/customers/acme')) return many as never
      if (path.startsWith('/endpoints')) return { data: [ep({})], next_cursor: 'c2' } as never
      return original(path)
    })
    const { CustomerDetailPage } = await import('./pages/CustomerDetail')
    render(<SessionContext.Provider value={as('viewer')}><CustomerDetailPage uid="acme" /></SessionContext.Provider>)
    await screen.findByText('250 endpoints · 4 failing')
    // The table stops where its page did, and says where the rest are.
    await screen.findByText(/The first 1 of 250/)
    expect(screen.getByRole('link', { name: "All of this customer's endpoints" }).getAttribute('href')).toBe('/endpoints?customer=acme')
  })
  it('hide the portal and revocation buttons from viewers on a customer\'s page', async () => {
    await mockApi()
    const { CustomerDetailPage } = await import('./pages/CustomerDetail')
    render(<SessionContext.Provider value={as('viewer')}><CustomerDetailPage uid="acme" /></SessionContext.Provider>)
    await screen.findByText('dana@acme.test (u_42)')
    expect(screen.queryByRole('button', { name: 'Open portal as this customer' })).toBeNull()
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull()
    cleanup()
    render(<SessionContext.Provider value={as('owner')}><CustomerDetailPage uid="acme" /></SessionContext.Provider>)
    await screen.findByText('dana@acme.test (u_42)')
    screen.getByRole('button', { name: 'Open portal as this customer' })
    screen.getByRole('button', { name: 'Revoke all sessions' })
  })
})

describe('endpoint form type picker', () => {
  it('offers the catalog by group and adds the picked type to the free text', async () => {
    await mockApi()
    const { EndpointForm } = await import('./EndpointForm')
    const { emptyEndpointForm } = await import('./endpointForm')
    const submit = vi.fn(async () => {})
    render(<EndpointForm initial={{ ...emptyEndpointForm, url: 'https://x.test', eventTypes: 'order.*' }} chooseKind submitLabel="Create" onSubmit={submit} />)
    const group = await screen.findByRole('group', { name: 'billing' })
    within(group).getByText('An invoice was paid')
    fireEvent.click(within(group).getByRole('checkbox', { name: /invoice\.paid/ }))
    expect((screen.getByLabelText('Event types') as HTMLInputElement).value).toBe('order.*, invoice.paid')
    fireEvent.change(screen.getByLabelText('Customer'), { target: { value: 'acme' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create' }))
    await vi.waitFor(() => expect(submit).toHaveBeenCalled())
    expect(submit.mock.calls[0]).toEqual([expect.objectContaining({ customer: 'acme', event_types: ['order.*', 'invoice.paid'] })])
  })
})
