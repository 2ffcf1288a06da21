import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EventView } from './pages/EventDetail'
import type { EventDetail } from './types'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

const event = {
  id: '3f2a0000-0000-4000-8000-000000000001', type: 'invoice.paid', data: { n: 1 }, created_at: '2026-11-22T10:00:00Z', idempotency_key: null,
  deliveries: [
    { id: 'd1', endpoint_id: 'e1', status: 'succeeded', attempt_count: 1, next_attempt_at: null },
    { id: 'd2', endpoint_id: 'q1', status: 'exhausted', attempt_count: 8, next_attempt_at: null },
  ],
} as unknown as EventDetail

const names: Record<string, string> = { e1: 'https://a.test/h', q1: 'Pull queue 9f8e7d6c' }

function setup(extra: Partial<Parameters<typeof EventView>[0]> = {}) {
  let finish!: () => void
  const replay = vi.fn(() => new Promise<void>((r) => { finish = r }))
  render(
    <EventView
      load={async () => ({ event, attempts: [] })}
      replay={replay}
      endpointName={(id) => names[id]}
      back={{ href: '/events', label: 'Events' }}
      {...extra}
    />,
  )
  return { replay, finish: () => finish() }
}

describe('event replay', () => {
  it('asks before replaying the whole event, naming every endpoint, and sends it once', async () => {
    const { replay, finish } = setup()
    fireEvent.click(await screen.findByRole('button', { name: 'Replay to all endpoints' }))
    const confirm = screen.getByRole('group', { name: 'Replay this event to all 2 endpoints?' })
    expect(confirm.textContent).toContain('invoice.paid again to https://a.test/h, Pull queue 9f8e7d6c')
    expect(confirm.textContent).toContain('same webhook-id (3f2a0000-0000-4000-8000-000000000001)')
    expect(replay).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Yes, replay to all endpoints' }))
    expect(replay).toHaveBeenCalledTimes(1)
    expect(replay).toHaveBeenCalledWith({})
    // In flight: no replay button starts another.
    expect((screen.getByRole('button', { name: 'Replaying…' }) as HTMLButtonElement).disabled).toBe(true)
    for (const b of screen.getAllByRole('button', { name: /^Replay delivery to / })) expect((b as HTMLButtonElement).disabled).toBe(true)
    finish()
    await screen.findByText('Event replay queued for every endpoint.')
    expect((screen.getByRole('button', { name: 'Replay to all endpoints' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('asks before replaying one delivery, and cancelling sends nothing', async () => {
    const { replay, finish } = setup()
    fireEvent.click(await screen.findByRole('button', { name: 'Replay delivery to Pull queue 9f8e7d6c' }))
    const confirm = screen.getByRole('group', { name: 'Replay this delivery to Pull queue 9f8e7d6c?' })
    expect(confirm.textContent).toContain('exhausted after 8 attempts')
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('group')).toBeNull()
    expect(replay).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Replay delivery to Pull queue 9f8e7d6c' }))
    fireEvent.click(screen.getByRole('button', { name: 'Yes, replay this delivery' }))
    expect(replay).toHaveBeenCalledTimes(1)
    expect(replay).toHaveBeenCalledWith({ deliveryId: 'd2', endpointId: 'q1' })
    finish()
    await screen.findByText('Delivery replay queued.')
  })

  it('says what is missing (the staff reason) before asking', async () => {
    const { replay } = setup({ replayProblem: () => 'Enter a reason for the replay first.', replayNote: 'Your reason is recorded in the audit log.' })
    fireEvent.click(await screen.findByRole('button', { name: 'Replay to all endpoints' }))
    expect(screen.queryByRole('group')).toBeNull()
    expect(screen.getByRole('alert').textContent).toContain('Enter a reason for the replay first.')
    expect(replay).not.toHaveBeenCalled()
  })
})
