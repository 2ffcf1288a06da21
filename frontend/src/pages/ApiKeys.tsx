// ApiKeys.tsx: create (shown once, with a copy button), list and revoke API keys.
import { useState, type FormEvent } from 'react'
import { api, type Page } from '../api'
import { Badge, ConfirmButton, CopyButton, Empty, ErrorMessage, Field, Loading, Notice, Pager } from '../components'
import { formatTime, relativeTime } from '../format'
import { usePaged } from '../paging'
import { canWrite, useSession } from '../session'
import type { ApiKey, ApiKeyCreated, ApiKeyInput } from '../types'

export function ApiKeysPage() {
  const { me } = useSession()
  const [name, setName] = useState('')
  const [created, setCreated] = useState<ApiKeyCreated | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [notice, setNotice] = useState('')
  const list = usePaged((cursor) => api.get<Page<ApiKey>>('/api-keys' + (cursor ? `?cursor=${encodeURIComponent(cursor)}` : '')), [])

  async function create(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setNotice('')
    try {
      const k = await api.post<ApiKeyCreated>('/api-keys', { name } satisfies ApiKeyInput)
      setCreated(k)
      setName('')
      list.reload()
    } catch (err) {
      setError(err)
    }
  }
  async function revoke(k: ApiKey) {
    setError(null)
    try {
      await api.del(`/api-keys/${k.id}`)
      setNotice(`Key "${k.name}" revoked. Requests using it are now refused.`)
      list.reload()
    } catch (err) {
      setError(err)
    }
  }

  return (
    <section>
      <h1>API keys</h1>
      <p className="muted">Your application sends events with <code>Authorization: Bearer &lt;key&gt;</code>.</p>
      {canWrite(me.role) && (
        <div className="card">
          <h2>Create a key</h2>
          <form className="form form-inline" onSubmit={create}>
            <Field label="Key name" hint='What uses it, e.g. "billing backend".'>
              {(id, d) => <input id={id} required aria-describedby={d} value={name} onChange={(e) => setName(e.target.value)} />}
            </Field>
            <button className="btn btn-primary" type="submit">Create key</button>
          </form>
        </div>
      )}
      <ErrorMessage error={error} />
      <Notice>{notice}</Notice>
      {created?.key && (
        <div className="card card-highlight" role="region" aria-label="New API key">
          <h2>Copy your new key now</h2>
          <p>This is the only time Ferry shows it. Store it in your secrets manager.</p>
          <div className="secret"><code data-testid="new-api-key">{created.key}</code><CopyButton text={created.key} label="Copy key" /></div>
          <button type="button" className="btn btn-small" onClick={() => setCreated(null)}>I have stored it</button>
        </div>
      )}
      <ErrorMessage error={list.error} title="Could not load keys" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && <Empty title="No API keys yet">Create one to start sending events.</Empty>}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th>State</th><th><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {list.items.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td><code>{k.prefix}…</code></td>
                  <td>{formatTime(k.created_at)}</td>
                  <td>{k.last_used_at ? relativeTime(k.last_used_at) : 'never'}</td>
                  <td><Badge status={k.revoked_at ? 'revoked' : 'active'} /></td>
                  <td className="cell-actions">
                    {canWrite(me.role) && !k.revoked_at && <ConfirmButton confirmLabel="Yes, revoke" onConfirm={() => revoke(k)}>Revoke</ConfirmButton>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={list} label="API keys" />
    </section>
  )
}
