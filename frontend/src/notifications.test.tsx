import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from './api'

beforeEach(() => {
  window.scrollTo = vi.fn() as typeof window.scrollTo // jsdom has none; navigate() scrolls
})

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

describe('Account > Notifications', () => {
  it('loads the preferences and saves every one of them', async () => {
    const apiMod = await import('./api')
    vi.spyOn(apiMod.api, 'get').mockResolvedValue({ endpoint_health: true, quota: true, invoices: true } as never)
    const put = vi.spyOn(apiMod.api, 'put').mockImplementation(async (_path: string, body?: unknown) => body as never)
    const { AccountPage } = await import('./pages/Account')
    render(<AccountPage notifications />)
    fireEvent.click(await screen.findByRole('checkbox', { name: /Monthly quota/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Save notifications' }))
    await waitFor(() => expect(put).toHaveBeenCalledWith('/me/notifications', { endpoint_health: true, quota: false, invoices: true }))
    await screen.findByText('Saved.')
  })
  it('is not shown where there are no notifications (staff)', async () => {
    const { AccountPage } = await import('./pages/Account')
    render(<AccountPage />)
    expect(screen.queryByText('Notifications')).toBeNull()
  })
})

describe('staff event lookup', () => {
  it('opens the event in its tenant', async () => {
    const apiMod = await import('./api')
    const get = vi.spyOn(apiMod.api, 'get').mockResolvedValue({ tenant: { id: 't1' }, event: { id: 'e1' } } as never)
    const { EventLookup } = await import('./pages/Staff')
    render(<EventLookup />)
    fireEvent.change(screen.getByPlaceholderText('Event id'), { target: { value: ' e1 ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Open event' }))
    await waitFor(() => expect(window.location.pathname).toBe('/staff/tenants/t1/events/e1'))
    expect(get).toHaveBeenCalledWith('/staff/events/e1')
  })
  it('says plainly when no event has the id', async () => {
    const apiMod = await import('./api')
    vi.spyOn(apiMod.api, 'get').mockRejectedValue(new ApiError(404, 'not_found', 'event not found'))
    const { EventLookup } = await import('./pages/Staff')
    render(<EventLookup />)
    fireEvent.change(screen.getByPlaceholderText('Event id'), { target: { value: 'nope' } })
    fireEvent.click(screen.getByRole('button', { name: 'Open event' }))
    expect((await screen.findByRole('alert')).textContent).toContain('No event has the id "nope".')
  })
})
