import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from './api'
import { SourceForm } from './SourceForm'
import { emptySourceForm } from './sourceForm'

afterEach(cleanup)

describe('SourceForm', () => {
  it('shows only the fields the chosen scheme needs', () => {
    render(<SourceForm initial={emptySourceForm} submitLabel="Create source" onSubmit={vi.fn()} />)
    expect(screen.getByLabelText('Signing secret')).toBeTruthy()
    expect(screen.queryByLabelText('Username')).toBeNull()
    fireEvent.change(screen.getByLabelText('Sender'), { target: { value: 'basic_auth' } })
    expect(screen.queryByLabelText('Signing secret')).toBeNull()
    expect(screen.getByLabelText('Username')).toBeTruthy()
    expect(screen.getByLabelText('Password')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Sender'), { target: { value: 'hmac_sha256' } })
    expect(screen.getByLabelText('Signature header')).toBeTruthy()
    expect(screen.getByLabelText('Signature written as')).toBeTruthy()
    expect(screen.getByText(/signs the body with HMAC-SHA256/)).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Sender'), { target: { value: 'none' } })
    expect(screen.queryByLabelText('Signing secret')).toBeNull()
    expect(screen.queryByLabelText('Status')).toBeNull()
    fireEvent.click(screen.getByRole('checkbox'))
    expect(screen.getByLabelText('Status')).toBeTruthy()
  })

  it('shows an API field error once, beside its field, in words', async () => {
    const onSubmit = vi.fn().mockRejectedValue(new ApiError(422, 'invalid', 'dedupe.header must be a valid HTTP header name', 'dedupe.header'))
    render(<SourceForm initial={{ ...emptySourceForm, name: 'GitHub', secret: 's' }} submitLabel="Create source" onSubmit={onSubmit} />)
    fireEvent.click(screen.getByRole('button', { name: 'Create source' }))
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1))
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toBe('The header must be a valid HTTP header name.')
    expect(alert.closest('.field')?.querySelector('label')?.textContent).toBe('Duplicate key header')
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'GitHub', verification: { type: 'github', secret: 's' }, event_type: { header: 'X-GitHub-Event' }, dedupe: { header: 'X-GitHub-Delivery' },
    })
  })

  it('shows other errors in the alert', async () => {
    const onSubmit = vi.fn().mockRejectedValue(new ApiError(402, 'quota', 'your plan allows 3 sources'))
    render(<SourceForm initial={{ ...emptySourceForm, name: 'x', secret: 's' }} submitLabel="Create source" onSubmit={onSubmit} />)
    fireEvent.click(screen.getByRole('button', { name: 'Create source' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Could not save the source: Your plan allows 3 sources.'))
  })
})
