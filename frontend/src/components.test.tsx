import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from './api'
import { BulkReplay } from './BulkReplay'
import { ConfirmButton, ErrorMessage, ProgressBar } from './components'
import { DeliveryChart } from './Chart'
import { RoutingTest } from './RoutingTest'
import { CodeEditor } from './CodeEditor'
import { EndpointForm } from './EndpointForm'
import { emptyEndpointForm } from './endpointForm'
import { attemptSummary } from './Attempts'
import type { ReplayJob } from './types'

afterEach(() => {
  cleanup()
  sessionStorage.clear()
})

describe('ErrorMessage', () => {
  it('shows the API message as an alert, without field jargon', () => {
    render(<ErrorMessage error={new ApiError(422, 'invalid', 'url must use https', 'url')} title="Could not save" />)
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('Could not save')
    expect(alert.textContent).toContain('URL must use https.')
    expect(alert.textContent).not.toContain('field')
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
    expect(screen.getByText('3 of 12 (25%)')).toBeTruthy()
  })
})

describe('DeliveryChart', () => {
  it('draws a bar per hour with an accessible summary', () => {
    const hours = [0, 1, 2].map((i) => ({ start: Date.UTC(2026, 10, 22, i), succeeded: i, failed: 1 }))
    const { container } = render(<DeliveryChart buckets={hours} title="Attempts per hour" />)
    const img = screen.getByRole('img')
    expect(img.getAttribute('aria-label')).toBe('Attempts per hour: 6 deliveries, 3 failed')
    expect(container.querySelectorAll('rect').length).toBeGreaterThanOrEqual(3)
  })
})

describe('BulkReplay', () => {
  const job: ReplayJob = {
    id: 'job-1', state: 'running', total: 10, done: 4, actor: 'fry_live_ab12cd', created_at: '2026-11-23T10:00:00Z', updated_at: '2026-11-23T10:00:01Z',
    started_at: '2026-11-23T10:00:01Z', finished_at: null, filter: { endpoint_id: 'e1', event_type: '', since: null, until: null, status: 'exhausted' },
  }

  it('starts nothing until confirmed, then sends the filters and reason, polls the job and offers cancel', async () => {
    const start = vi.fn(async () => ({ id: 'job-1' }))
    const get = vi.fn(async () => job)
    const cancel = vi.fn(async () => ({}))
    render(<BulkReplay endpoints={[{ id: 'e1', url: 'https://a.test/h' } as never]} start={start} get={get} cancel={cancel} needReason storageKey="k" />)
    fireEvent.change(screen.getByLabelText('Endpoint'), { target: { value: 'e1' } })
    fireEvent.change(screen.getByLabelText('Delivery status'), { target: { value: 'exhausted' } })
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'ticket 7' } })
    fireEvent.click(screen.getByRole('button', { name: 'Start bulk replay' }))
    const confirm = await screen.findByRole('group', { name: 'Start this bulk replay?' })
    expect(confirm.textContent).toContain('status exhausted, to https://a.test/h')
    expect(confirm.textContent).toContain('Your reason is recorded in the audit log.')
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Yes, start the replay' }))
    expect(start).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Yes, start the replay' }))
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
    fireEvent.change(screen.getByLabelText('Delivery status'), { target: { value: 'any' } })
    fireEvent.click(screen.getByRole('button', { name: 'Start bulk replay' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, start the replay' }))
    expect((await screen.findByRole('alert')).textContent?.toLowerCase()).toContain('your role does not allow this action')
    expect(start).toHaveBeenCalledWith({})
    // Refused: the form can be tried again.
    expect((screen.getByRole('button', { name: 'Start bulk replay' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('starts with no status chosen and counts the matching deliveries once one is', async () => {
    const start = vi.fn(async () => ({ id: 'job-2' }))
    const preview = vi.fn(async () => ({ matched: 1234, until: '2026-11-23T10:00:00Z' }))
    render(<BulkReplay endpoints={[{ id: 'e1', url: 'https://a.test/h' } as never]} start={start} preview={preview} storageKey="k3" />)
    expect((screen.getByLabelText('Delivery status') as HTMLSelectElement).value).toBe('')
    expect(screen.getByTestId('replay-preview').textContent).toBe('Choose a delivery status to see how many deliveries match.')
    expect(preview).not.toHaveBeenCalled()
    fireEvent.change(screen.getByLabelText('Endpoint'), { target: { value: 'e1' } })
    fireEvent.change(screen.getByLabelText('Delivery status'), { target: { value: 'dropped' } })
    await waitFor(() => expect(screen.getByTestId('replay-preview').textContent).toBe('1,234 deliveries match; starting replays them.'))
    expect(preview).toHaveBeenLastCalledWith({ endpoint_id: 'e1', status: 'dropped' })
  })

  it('confirms with a fresh count, starts one job per confirmation, and none while it runs', async () => {
    let matched = 1234
    const preview = vi.fn(async () => ({ matched, until: '2026-11-23T10:05:00.000Z' }))
    let resolveStart!: (v: { id: string }) => void
    const start = vi.fn(() => new Promise<{ id: string }>((r) => { resolveStart = r }))
    let state: ReplayJob['state'] = 'running'
    let openGet!: () => void
    const gate = new Promise<void>((r) => { openGet = r })
    const get = vi.fn(async () => {
      await gate
      return { ...job, state, done: state === 'completed' ? 10 : 4 }
    })
    render(<BulkReplay endpoints={[]} start={start} get={get} preview={preview} storageKey="k4" />)
    fireEvent.change(screen.getByLabelText('Delivery status'), { target: { value: 'exhausted' } })
    await waitFor(() => expect(screen.getByTestId('replay-preview').textContent).toContain('1,234'))

    // More deliveries have failed for good since that count.
    matched = 5
    const startButton = () => screen.getByRole('button', { name: /Start bulk replay|Counting…|Starting…/ }) as HTMLButtonElement
    fireEvent.click(startButton())
    const confirm = await screen.findByRole('group', { name: 'Replay 5 deliveries?' })
    expect(confirm.textContent).toContain('the 5 deliveries that match now (status exhausted, to every endpoint)')
    expect(preview).toHaveBeenLastCalledWith({ status: 'exhausted' })
    expect(startButton().disabled).toBe(true)

    // Two presses of "Yes" before anything re-renders: one job.
    const yes = screen.getByRole('button', { name: 'Yes, replay 5 deliveries' })
    fireEvent.click(yes)
    fireEvent.click(yes)
    expect(start).toHaveBeenCalledTimes(1)
    // The job replays what was counted: the range ends where the count did.
    expect(start).toHaveBeenCalledWith({ status: 'exhausted', until: '2026-11-23T10:05:00.000Z' })
    expect(startButton().textContent).toBe('Starting…')
    expect(startButton().disabled).toBe(true)

    // Started, its state not read yet: no second job, whatever is pressed.
    resolveStart({ id: 'job-1' })
    await screen.findByText('Bulk replay started.')
    expect(startButton().disabled).toBe(true)
    expect(screen.getByTestId('replay-running')).toBeTruthy()
    fireEvent.submit(screen.getByRole('form', { name: 'Bulk replay' }))
    expect(screen.queryByRole('group')).toBeNull()
    // Running: still none.
    openGet()
    await screen.findByRole('progressbar', { name: 'Replay progress' })
    expect(startButton().disabled).toBe(true)
    fireEvent.submit(screen.getByRole('form', { name: 'Bulk replay' }))
    expect(screen.queryByRole('group')).toBeNull()
    expect(start).toHaveBeenCalledTimes(1)

    // Once it has finished, another can be asked for (and confirmed again).
    state = 'completed'
    await waitFor(() => expect(startButton().disabled).toBe(false), { timeout: 3000 })
    fireEvent.click(startButton())
    await screen.findByRole('group', { name: 'Replay 5 deliveries?' })
    expect(start).toHaveBeenCalledTimes(1)
  })

  it('drops an open confirmation when the filters change, and says when nothing matches', async () => {
    let matched = 3
    const preview = vi.fn(async () => ({ matched, until: '2026-11-23T10:05:00.000Z' }))
    const start = vi.fn(async () => ({ id: 'job-5' }))
    render(<BulkReplay endpoints={[]} start={start} preview={preview} storageKey="k5" />)
    fireEvent.change(screen.getByLabelText('Delivery status'), { target: { value: 'dropped' } })
    fireEvent.click(screen.getByRole('button', { name: 'Start bulk replay' }))
    await screen.findByRole('group', { name: 'Replay 3 deliveries?' })
    fireEvent.change(screen.getByLabelText('Delivery status'), { target: { value: 'succeeded' } })
    expect(screen.queryByRole('group')).toBeNull()

    matched = 0
    fireEvent.click(screen.getByRole('button', { name: 'Start bulk replay' }))
    const none = await screen.findByRole('group', { name: 'Nothing to replay' })
    expect(none.textContent).toContain('No delivery matches these filters now')
    expect(screen.queryByRole('button', { name: /^Yes/ })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('group')).toBeNull()

    // Cancel and Escape start nothing either.
    matched = 2
    fireEvent.click(screen.getByRole('button', { name: 'Start bulk replay' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }))
    fireEvent.click(screen.getByRole('button', { name: 'Start bulk replay' }))
    fireEvent.keyDown(await screen.findByRole('group', { name: 'Replay 2 deliveries?' }), { key: 'Escape' })
    expect(screen.queryByRole('group')).toBeNull()
    expect(start).not.toHaveBeenCalled()
  })
})

describe('field errors', () => {
  it('appear once, beside the field, without jargon', async () => {
    const { EndpointForm } = await import('./EndpointForm')
    const { emptyEndpointForm } = await import('./endpointForm')
    const onSubmit = vi.fn(async () => {
      throw new ApiError(422, 'invalid', 'url must use https', 'url')
    })
    render(<EndpointForm initial={{ ...emptyEndpointForm, url: 'http://x.test' }} submitLabel="Create" onSubmit={onSubmit} />)
    fireEvent.click(screen.getByRole('button', { name: 'Create' }))
    const alerts = await screen.findAllByRole('alert')
    expect(alerts).toHaveLength(1)
    expect(alerts[0].textContent).toBe('URL must use https.')
    expect(document.body.textContent).not.toContain('field:')
  })
})

describe('attempt rows', () => {
  it('hint that they open, show their event and never read "0 ms"', async () => {
    const { AttemptList } = await import('./Attempts')
    const a = {
      id: 'a1', delivery_id: 'd1', event_id: '0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b', endpoint_id: 'e1', attempt_number: 1, trigger: 'initial',
      started_at: new Date().toISOString(), duration_ms: 0, request_headers: {}, response_status: 200, response_headers: null, response_body: '',
      outcome: 'success', next_attempt_at: null, response_headers_truncated: false, response_body_truncated: false,
    } as never
    render(<AttemptList attempts={[a]} showEvent />)
    const summary = document.querySelector('summary')!
    expect(summary.textContent).toContain('Details')
    expect(summary.textContent).toContain('0196a6c2')
    expect(summary.textContent).toContain('< 1 ms')
    expect(summary.textContent).not.toContain('0 ms')
  })
})

describe('events list', () => {
  it('names the endpoint of every delivery badge: description, URL host and path, queue name, or a deleted one', async () => {
    const { EventTable } = await import('./pages/Events')
    const ev = {
      id: 'ev1', type: 'order.paid', data: {}, created_at: '2026-11-22T10:00:00.000Z',
      deliveries: [
        { id: 'd1', endpoint_id: 'e1', status: 'succeeded', attempt_count: 1 },
        { id: 'd2', endpoint_id: 'e2', status: 'retrying', attempt_count: 3 },
        { id: 'd3', endpoint_id: 'q1', status: 'pending', attempt_count: 0 },
        { id: 'd4', endpoint_id: 'q2abcdef-0000', status: 'succeeded', attempt_count: 1 },
        { id: 'd5', endpoint_id: 'gone1234-5678', status: 'dropped', attempt_count: 2 },
      ],
    } as never
    const endpoints = [
      { id: 'e1', kind: 'http', url: 'https://a.test/h?token=[redacted]', description: '' },
      { id: 'e2', kind: 'http', url: 'https://b.test/in', description: 'orders' },
      { id: 'q1', kind: 'queue', url: '', description: 'billing worker' },
      { id: 'q2abcdef-0000', kind: 'queue', url: '', description: '' },
    ] as never
    render(<EventTable events={[ev]} href={(id) => `/events/${id}`} endpoints={endpoints} />)
    const badges = screen.getAllByTestId('delivery-badge')
    const visible = (el: HTMLElement) => el.querySelector('.delivery-badge-name')?.textContent
    expect(badges.map(visible)).toEqual(['a.test/h', 'orders', 'billing worker', 'Pull queue q2abcdef', 'endpoint gone1234'])
    expect(badges.map((b) => b.title)).toEqual([
      'https://a.test/h?token=[redacted]: succeeded after 1 attempt',
      'https://b.test/in: retrying after 3 attempts',
      'billing worker: pending after 0 attempts',
      'Pull queue q2abcdef: succeeded after 1 attempt',
      'endpoint gone1234-5678 (deleted or not listed): dropped after 2 attempts',
    ])
    // Screen readers hear the status, the endpoint and the attempts.
    expect(badges[1].textContent).toBe('retrying orders (https://b.test/in), after 3 attempts')
    expect(badges[2].textContent).toBe('pending billing worker, after 0 attempts')
  })
})

describe('dashboard', () => {
  afterEach(() => vi.restoreAllMocks())
  it('with no endpoints says so, and does not call them healthy', async () => {
    const apiMod = await import('./api')
    vi.spyOn(apiMod.api, 'get').mockImplementation(async (path: string) => {
      if (path.startsWith('/endpoints')) return { data: [], next_cursor: null } as never
      return {
        window: '24h', from: '2026-11-22T10:00:00Z', attempts: 0, attempts_failed: 0, succeeded: 0, failed: 0, success_rate: null, by_error_class: {},
        response_ms: { p50: null, p95: null, p99: null }, backlog: { pending: 0, retrying: 0, oldest_age_seconds: 0, next_retry_at: null },
        last_success_at: null, series: [], endpoints: [],
      } as never
    })
    const { DashboardPage } = await import('./pages/Dashboard')
    render(<DashboardPage />)
    await screen.findByText('No endpoints yet')
    expect(document.body.textContent).not.toMatch(/healthy/i)
  })
  it('shows the server figures for the chosen window', async () => {
    const apiMod = await import('./api')
    const get = vi.spyOn(apiMod.api, 'get').mockImplementation(async (path: string) => {
      if (path.startsWith('/endpoints')) return { data: [{ id: 'e1', url: 'https://a.test/h', enabled: true, failing_since: '2026-11-22T10:00:00Z' }], next_cursor: null } as never
      return {
        window: '7d', from: '2026-11-15T10:00:00Z', attempts: 9, attempts_failed: 5, succeeded: 3, failed: 1, success_rate: 0.75, by_error_class: { http_500: 5 },
        response_ms: { p50: 20, p95: 300, p99: 750 }, backlog: { pending: 1, retrying: 2, oldest_age_seconds: 120, next_retry_at: null },
        last_success_at: null, series: [{ hour: '2026-11-22T10:00:00Z', succeeded: 3, failed: 1 }],
        endpoints: [{ endpoint_id: 'e1', attempts: 9, succeeded: 3, failed: 1, success_rate: 0.75, last_success_at: null, pending: 1, retrying: 2, next_retry_at: null }],
      } as never
    })
    const { DashboardPage } = await import('./pages/Dashboard')
    render(<DashboardPage />)
    fireEvent.click(await screen.findByRole('button', { name: '7 d' }))
    await waitFor(() => expect(get).toHaveBeenCalledWith('/stats?window=7d'))
    expect((await screen.findByTestId('stat-success')).textContent).toBe('75.0%')
    expect(screen.getByTestId('stat-p95').textContent).toBe('300 ms')
    expect(screen.getByTestId('stat-backlog').textContent).toBe('3')
    expect(screen.getByText('failing')).toBeTruthy()
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
    expect(status.textContent).toContain('Filter error')
    expect(status.textContent).toContain('no such key: amount')
  })

  it('sends the transformation being edited and shows the transformed body and headers', async () => {
    const runTest = vi.fn(async () => ({ matched: true, payload: { text: 'Invoice paid' }, headers: { 'X-Slack-Channel': '#billing' }, cancelled: false }))
    render(<RoutingTest endpointId="e1" filter="" transformation="function handler(w) { return w }" runTest={runTest} />)
    fireEvent.click(screen.getByRole('button', { name: 'Test with this filter and transformation' }))
    await waitFor(() => expect(runTest).toHaveBeenCalledWith('e1', {
      event: { type: 'order.created', data: { amount: 1500, currency: 'EUR' } }, filter: '', transformation: 'function handler(w) { return w }',
    }))
    expect((await screen.findByTestId('test-payload')).textContent).toContain('"text": "Invoice paid"')
    expect(screen.getByTestId('test-headers').textContent).toBe('X-Slack-Channel: #billing')
  })

  it('says when the transformation cancels or fails the delivery', async () => {
    const cancelled = vi.fn(async () => ({ matched: true, payload: null, headers: {}, cancelled: true }))
    render(<RoutingTest endpointId="e1" filter="" transformation="x" runTest={cancelled} />)
    fireEvent.click(screen.getByRole('button', { name: /Test with this filter/ }))
    expect((await screen.findByRole('status')).textContent).toContain('Cancelled by the transformation')
    cleanup()
    const failed = vi.fn(async () => ({ matched: true, payload: null, headers: {}, cancelled: false, error: 'Error: no invoice at handler (transformation.js:2:9(3))' }))
    render(<RoutingTest endpointId="e1" filter="" transformation="x" runTest={failed} />)
    fireEvent.click(screen.getByRole('button', { name: /Test with this filter/ }))
    const status = await screen.findByRole('status')
    expect(status.textContent).toContain('Transformation failed')
    expect(screen.getByTestId('transformation-error').textContent).toContain('transformation.js:2:9')
    expect(screen.queryByTestId('test-payload')).toBeNull()
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

describe('CodeEditor', () => {
  it('numbers every line, at least as many as its rows', () => {
    const onChange = vi.fn()
    render(<CodeEditor id="t" value={'a\nb\nc\nd\ne'} rows={3} onChange={onChange} />)
    expect(screen.getByTestId('code-gutter').textContent).toBe('12345')
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'x' } })
    expect(onChange).toHaveBeenCalledWith('x')
    cleanup()
    render(<CodeEditor id="t" value="" rows={3} onChange={onChange} />)
    expect(screen.getByTestId('code-gutter').textContent).toBe('123')
  })
})

describe('attemptSummary', () => {
  it('names attempts the transformation stopped', () => {
    expect(attemptSummary({ response_status: null, error_class: 'transformation_error', error_message: 'Error: boom' })).toBe('Transformation failed (no request made): Error: boom')
    expect(attemptSummary({ response_status: null, error_class: 'transformation_cancelled', error_message: 'cancelled' })).toBe('Cancelled by the transformation (no request made)')
    expect(attemptSummary({ response_status: null, error_class: 'timeout', error_message: 'deadline' })).toBe('timeout: deadline')
  })
})

describe('EndpointForm', () => {
  it('asks a queue only for what applies to it: no URL, format, timeout, rate limit or transformation', async () => {
    const onSubmit = vi.fn(async () => undefined)
    render(<EndpointForm initial={emptyEndpointForm} chooseKind submitLabel="Create endpoint" onSubmit={onSubmit} />)
    for (const label of ['URL', 'Format', 'Timeout (seconds)', 'Rate limit (per second)', 'Transformation (JavaScript)']) expect(screen.getByLabelText(label)).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'queue' } })
    for (const label of ['URL', 'Format', 'Timeout (seconds)', 'Rate limit (per second)', 'Transformation (JavaScript)']) expect(screen.queryByLabelText(label)).toBeNull()
    expect(screen.getByLabelText('Max in flight')).toBeTruthy()
    expect(screen.getByLabelText('Custom headers')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'billing worker' } })
    fireEvent.click(screen.getByRole('button', { name: 'Create endpoint' }))
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce())
    expect(onSubmit.mock.calls[0]).toEqual([{ kind: 'queue', description: 'billing worker', event_types: [], max_in_flight: 16, headers: {}, signature_timestamp: 'event', filter: '' }])
  })
})
