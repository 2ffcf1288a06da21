// Members.tsx: the tenant's users and their roles; owners/admins invite,
// change roles and remove members.
import { useState, type FormEvent } from 'react'
import { api, type Page } from '../api'
import { ConfirmButton, Empty, ErrorMessage, Field, Loading, Notice, Pager } from '../components'
import { formatTime } from '../format'
import { usePaged } from '../paging'
import { useSession } from '../session'
import type { Member, MemberInput, MemberPatch, Role } from '../types'

const roles: readonly Role[] = ['viewer', 'admin', 'owner']

export function MembersPage() {
  const { me } = useSession()
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('viewer')
  const [invited, setInvited] = useState<Member | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [notice, setNotice] = useState('')
  const list = usePaged((cursor) => api.get<Page<Member>>('/members' + (cursor ? `?cursor=${encodeURIComponent(cursor)}` : '')), [])
  const writer = me.role === 'owner'

  async function run(f: () => Promise<void>) {
    setError(null)
    setNotice('')
    try {
      await f()
      list.reload()
    } catch (err) {
      setError(err)
    }
  }
  function invite(e: FormEvent) {
    e.preventDefault()
    run(async () => {
      const m = await api.post<Member>('/members', { email, role } satisfies MemberInput)
      setInvited(m)
      setEmail('')
    })
  }

  return (
    <section>
      <h1>Members</h1>
      {writer && (
        <div className="card">
          <h2>Invite a member</h2>
          <form className="form form-inline" onSubmit={invite}>
            <Field label="Email">{(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
            <Field label="Role">
              {(id) => <select id={id} value={role} onChange={(e) => setRole(e.target.value as Role)}>{roles.map((r) => <option key={r}>{r}</option>)}</select>}
            </Field>
            <button className="btn btn-primary" type="submit">Invite</button>
          </form>
          <p className="muted">Viewers see everything; admins also change endpoints, keys and replay; owners also manage members and billing.</p>
        </div>
      )}
      <ErrorMessage error={error} />
      <Notice>{notice}</Notice>
      {invited && (
        <div className="card card-highlight" role="region" aria-label="New member">
          <h2>{invited.email} was invited as {invited.role}</h2>
          <p>We emailed them a link to join. They choose their own password; the link works for 7 days.</p>
          <button type="button" className="btn btn-small" onClick={() => setInvited(null)}>Done</button>
        </div>
      )}
      <ErrorMessage error={list.error} title="Could not load members" />
      {list.loading && list.items.length === 0 && <Loading />}
      {!list.loading && !list.error && list.items.length === 0 && <Empty title="No members">Invite your team above.</Empty>}
      {list.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead><tr><th>Email</th><th>Role</th><th>Joined</th><th><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {list.items.map((m) => (
                <tr key={m.id}>
                  <td>
                    {m.email}{m.id === me.user_id && <span className="muted"> (you)</span>}
                    {m.invited && <> <span className="badge badge-info">invited</span></>}
                  </td>
                  <td>
                    {writer && m.id !== me.user_id ? (
                      <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => run(async () => {
                        await api.patch(`/members/${m.id}`, { role: e.target.value as Role } satisfies MemberPatch)
                        setNotice(`${m.email} is now ${e.target.value}.`)
                      })}>
                        {roles.map((r) => <option key={r}>{r}</option>)}
                      </select>
                    ) : m.role}
                  </td>
                  <td>{formatTime(m.created_at)}</td>
                  <td className="cell-actions">
                    {writer && m.invited && (
                      <button type="button" className="btn btn-small" onClick={() => run(async () => {
                        await api.post(`/members/${m.id}/invite`)
                        setNotice(`A new invitation link was emailed to ${m.email}; earlier links no longer work.`)
                      })}>Resend invite</button>
                    )}{' '}
                    {writer && m.id !== me.user_id && (
                      <ConfirmButton confirmLabel="Yes, remove" onConfirm={() => run(async () => {
                        await api.del(`/members/${m.id}`)
                        setNotice(`${m.email} removed.`)
                      })}>Remove</ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={list} label="Members" />
    </section>
  )
}
