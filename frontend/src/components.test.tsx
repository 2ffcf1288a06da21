import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from './api'
import { BulkReplay } from './BulkReplay'
import { ConfirmButton, ErrorMessage, ProgressBar } from './components'
import { DeliveryChart } from './Chart'
import { RoutingTest } from './RoutingTest'
import type { ReplayJob } from './types'

afterEach(() => {
  cleanup()
  sessionStorage.clear()
})

describe('ErrorMessage', () => {
  it('shows the API message and field as an alert', () => {
    render(<ErrorMessage error={new ApiError(422, 'invalid', 'url must use https', 'url')} title="Could not save" />)
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('Could not save')
    expect(alert.textContent).toContain('url must use https')
    expect(alert.textContent).toContain('url')
  })
  it('renders nothing without an error', () => {
    const { container } = render(<ErrorMessage error={null} />)
    expect(container.innerHTML).toBe('')
  })
})

describe('ConfirmButton', () => {
  it('asks before acting, and can be cancelled', () => {
    const onConfirm = vi.fn()
    render(<ConfirmButton confirmLabel="Yes, revoke" onConfirm={onConfirm}>Revoke</ConfirmButton>)
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }))
    expect(onConfirm).not.toHaveBeenCalled()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Yes, revoke' }))
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(onConfirm).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }))
    fireEvent.click(screen.getByRole('button', { name: 'Yes, revoke' }))
    expect(onConfirm).toHaveBeenCalledOnce()
  })
})

describe('ProgressBar', () => {
  it('exposes progress to assistive technology', () => {
    render(<ProgressBar value={3} max={12} label="Replay progress" />)
    const bar = screen.getByRole('progressbar', { name: 'Replay progress' })
    expect(bar.getAttribute('aria-valuenow')).toBe('3')
    expect(bar.getAttribute('aria-valuemax')).toBe('12')
    expect(screen.getByText('3 / 12 (25%)')).toBeTruthy()
  })
})

describe('DeliveryChart', () => {
  it('draws a bar per hour with an accessible summary', () => {
    const hours = [0, 1, 2].map((i) => ({ start: Date.UTC(2026, 10, 22, i), succeeded: i, failed: 1 }))
    const { container } = render(<DeliveryChart buckets={hours} title="Attempts per hour" />)
    const img = screen.getByRole('img')
    expect(img.getAttribute('aria-label')).toBe('Attempts per hour: 6 attempts, 3 failed')
    expect(container.querySelectorAll('rect').length).toBeGreaterThanOrEqual(3)
  })
})

describe('BulkReplay', () => {
  it('sends the filters and reason, then polls the job and offers cancel', async () => {
    const start = vi.fn(async () => ({ id: 'job-1' }))
    const job: ReplayJob = {
      id: 'job-1', state: 'running', total: 10, done: 4, actor: 'fry_live_ab12cd', created_at: '2026-11-23T10:00:00Z', updated_at: '2026-11-23T10:00:01Z',
      started_at: '2026-11-23T10:00:01Z', finished_at: null, filter: { endpoint_id: 'e1', event_type: '', since: null, until: null, status: 'exhausted' },
    }
    const get = vi.fn(async () => job)
    const cancel = vi.fn(async () => ({}))
    render(<BulkReplay endpoints={[{ id: 'e1', url: 'https://a.test/h' } as never]} start={start} get={get} cancel={cancel} needReason storageKey="k" />)
    fireEvent.change(screen.getByLabelText('Endpoint'), { target: { value: 'e1' } })
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'ticket 7' } })
    fireEvent.click(screen.getByRole('button', { name: 'Start bulk replay' }))
    await waitFor(() => expect(start).toHaveBeenCalledWith({ endpoint_id: 'e1', status: 'exhausted', reason: 'ticket 7' }))
    const bar = await screen.findByRole('progressbar', { name: 'Replay progress' })
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('4'))
    fireEvent.click(screen.getByRole('button', { name: 'Cancel replay' }))
    await waitFor(() => expect(cancel).toHaveBeenCalledWith('job-1'))
  })

  it('shows the API error message when the replay is refused', async () => {
    const start = vi.fn(async () => {
      throw new ApiError(403, 'forbidden', 'your role does not allow this action')
    })
    render(<BulkReplay endpoints={[]} start={start} storageKey="k2" />)
    fireEvent.click(screen.getByRole('button', { name: 'Start bulk replay' }))
    expect((await screen.findByRole('alert')).textContent).toContain('your role does not allow this action')
  })
})

describe('RoutingTest', () => {
  it('sends the sample event with the filter being edited and shows the verdict', async () => {
    const runTest = vi.fn(async () => ({ matched: false, filter_error: 'no such key: amount', payload: {}, headers: {}, cancelled: false }))
    render(<RoutingTest endpointId="e1" filter="event.data.amount > 1000" runTest={runTest} />)
    fireEvent.change(screen.getByLabelText('Sample event data (JSON)'), { target: { value: '{"total": 5}' } })
    fireEvent.click(screen.getByRole('button', { name: 'Test with this filter' }))
    await waitFor(() => expect(runTest).toHaveBeenCalledWith('e1', { event: { type: 'order.created', data: { total: 5 } }, filter: 'event.data.amount > 1000' }))
    const status = await screen.findByRole('status')
    expect(status.textContent).toContain('Not matched')
    expect(status.textContent).toContain('no such key: amount')
  })

  it('refuses sample data that is not JSON without calling the API', async () => {
    const runTest = vi.fn()
    render(<RoutingTest endpointId="e1" filter="" runTest={runTest} />)
    fireEvent.change(screen.getByLabelText('Sample event data (JSON)'), { target: { value: '{nope' } })
    fireEvent.click(screen.getByRole('button', { name: 'Test with this filter' }))
    expect((await screen.findByRole('alert')).textContent).toContain('must be JSON')
    expect(runTest).not.toHaveBeenCalled()
  })
})
