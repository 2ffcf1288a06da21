// components.tsx holds the portal's small shared building blocks.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import type { ApiError } from './api'
import { formatCount } from './format'
import type { PagedList } from './paging'

/**
 * useAction runs a page's actions (save, disable, rotate…): each clears the
 * last notice and error, and an action that throws shows its error.
 */
export function useAction(initialNotice = '') {
  const [notice, setNotice] = useState(initialNotice)
  const [error, setError] = useState<unknown>(null)
  async function act(what: () => Promise<void>) {
    setError(null)
    setNotice('')
    try {
      await what()
    } catch (e) {
      setError(e)
    }
  }
  return { notice, setNotice, error, setError, act }
}

/** ErrorMessage shows an API error (or any error) as an alert: the message only, never codes or field names. */
export function ErrorMessage({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null
  const e = error as Partial<ApiError> & { message?: string }
  return (
    <div className="alert alert-error" role="alert">
      {title && <strong>{title}: </strong>}
      <span className="alert-message">{sentence(e.message ?? String(error))}</span>
    </div>
  )
}

/** sentence capitalises a message and ends it with a full stop, for people. */
export function sentence(msg: string): string {
  const m = msg.trim()
  if (!m) return m
  const first = /^url\b/.test(m) ? 'URL' + m.slice(3) : m[0].toUpperCase() + m.slice(1)
  return /[.!?]$/.test(first) ? first : first + '.'
}

/** fieldError returns the error's message when it belongs to one of fields (so a form shows it once, beside that field). */
export function fieldError(error: unknown, fields: string[]): string | undefined {
  const f = (error as { field?: string } | null)?.field
  if (!f || !fields.includes(f)) return undefined
  return sentence((error as Error).message)
}

/** Notice is a polite status message (success or info). */
export function Notice({ children }: { children: ReactNode }) {
  if (!children) return null
  return (
    <div className="alert alert-ok" role="status">
      {children}
    </div>
  )
}

const statusTone: Record<string, string> = {
  succeeded: 'ok', success: 'ok', enabled: 'ok', completed: 'ok', active: 'ok', healthy: 'ok',
  pending: 'info', queued: 'info', running: 'info', idle: 'info',
  retrying: 'warn', retry: 'warn', failing: 'bad', cancelled: 'warn', disabled: 'warn', degraded: 'warn',
  dropped: 'bad', exhausted: 'bad', failed: 'bad', revoked: 'bad', change: 'warn',
  verified: 'ok', duplicate: 'warn', rejected: 'bad', received: 'info', refused: 'bad',
}

/** Badge renders a status word with a colour and the word itself (never colour alone). */
export function Badge({ status }: { status: string }) {
  return <span className={`badge badge-${statusTone[status] ?? 'info'}`}>{status}</span>
}

/** CopyButton copies text to the clipboard and confirms it. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false)
  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      // Clipboard API unavailable (http, old browser): select-and-copy fallback.
      const ta = document.createElement('textarea')
      ta.value = text
      document.body.appendChild(ta)
      ta.select()
      document.execCommand?.('copy')
      ta.remove()
    }
    setDone(true)
    setTimeout(() => setDone(false), 2000)
  }
  return (
    <button type="button" className="btn btn-small" onClick={copy} aria-live="polite">
      {done ? 'Copied' : label}
    </button>
  )
}

/** ConfirmButton asks for a second click before doing something destructive. */
export function ConfirmButton({
  onConfirm, children, confirmLabel, className = 'btn btn-danger btn-small', disabled,
}: { onConfirm: () => void; children: ReactNode; confirmLabel: string; className?: string; disabled?: boolean }) {
  const [asking, setAsking] = useState(false)
  const yes = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (asking) yes.current?.focus()
  }, [asking])
  if (!asking) {
    return (
      <button type="button" className={className} onClick={() => setAsking(true)} disabled={disabled}>
        {children}
      </button>
    )
  }
  return (
    <span className="confirm" role="group" aria-label="Confirm">
      <button ref={yes} type="button" className="btn btn-danger btn-small" onClick={() => { setAsking(false); onConfirm() }}>
        {confirmLabel}
      </button>
      <button type="button" className="btn btn-small" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  )
}

/**
 * ConfirmPanel is an inline confirmation region: a question, what will
 * happen, and the buttons to go ahead or not (Escape cancels too). It
 * takes the focus when it opens, so keyboard and screen-reader users land
 * on the choice, and gives it back to what opened it when cancelled.
 * Without onConfirm it only informs (e.g. nothing matches) and offers
 * Close.
 */
export function ConfirmPanel({
  title, children, confirmLabel, onConfirm, onCancel, busy = false, testId = 'confirm',
}: { title: string; children?: ReactNode; confirmLabel?: string; onConfirm?: () => void; onCancel: () => void; busy?: boolean; testId?: string }) {
  const id = useId()
  const box = useRef<HTMLDivElement>(null)
  const opener = useRef<Element | null>(null)
  useEffect(() => {
    opener.current = document.activeElement
    box.current?.querySelector<HTMLButtonElement>('button')?.focus()
  }, [])
  function cancel() {
    onCancel()
    if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus()
  }
  return (
    <div ref={box} className="confirm-box" role="group" aria-labelledby={id + '-title'} aria-describedby={children ? id + '-text' : undefined} data-testid={testId}
      onKeyDown={(e) => { if (e.key === 'Escape') cancel() }}>
      <p id={id + '-title'}><strong>{title}</strong></p>
      {children && <div id={id + '-text'}>{children}</div>}
      <div className="actions">
        {onConfirm && (
          <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={busy}>{confirmLabel ?? 'Yes'}</button>
        )}
        <button type="button" className="btn" onClick={cancel} disabled={busy}>{onConfirm ? 'Cancel' : 'Close'}</button>
      </div>
    </div>
  )
}

/** Pager steps through a paginated list. */
export function Pager({ list, label }: { list: PagedList<unknown>; label: string }) {
  if (!list.hasPrev && !list.hasNext) return null
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" className="btn btn-small" onClick={list.prev} disabled={!list.hasPrev || list.loading}>
        ← Newer
      </button>
      <span className="muted">Page {list.pageNumber}</span>
      <button type="button" className="btn btn-small" onClick={list.next} disabled={!list.hasNext || list.loading}>
        Older →
      </button>
    </nav>
  )
}

/** Empty explains an empty list and what to do next. */
export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children && <div className="muted">{children}</div>}
    </div>
  )
}

/** ProgressBar is an accessible progress bar; max 0 renders as indeterminate. */
export function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const pct = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0
  return (
    <div className="progress-wrap">
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max || undefined}
        aria-valuenow={max > 0 ? value : undefined}
      >
        <div className="progress-fill" style={{ width: `${pct}%` }} />
      </div>
      <span className="muted">{max > 0 ? `${formatCount(value)} of ${formatCount(max)} (${pct}%)` : `${formatCount(value)} so far`}</span>
    </div>
  )
}

/** Field is a labelled form control with an optional hint and error. */
export function Field({
  label, hint, error, children,
}: { label: string; hint?: ReactNode; error?: string; children: (id: string, describedBy?: string) => ReactNode }) {
  const id = useId()
  const hintId = hint ? id + '-hint' : undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {hint && <small id={hintId} className="muted">{hint}</small>}
      {error && <small className="field-error" role="alert">{error}</small>}
    </div>
  )
}

/** Loading is an accessible "loading" line. */
export function Loading({ what = 'Loading' }: { what?: string }) {
  return <p className="muted" role="status">{what}…</p>
}
