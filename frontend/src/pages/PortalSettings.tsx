// PortalSettings.tsx: who may frame the customer portal (allowed origins)
// and the tenant's theme (GET/PUT /portal-settings), and the snippet that
// embeds the portal in the tenant's product.
import { useEffect, useState, type FormEvent } from 'react'
import { api, ApiError } from '../api'
import { CopyButton, ErrorMessage, Field, fieldError, Loading, Notice } from '../components'
import type { PortalSettings, PortalSettingsInput } from '../customerTypes'
import { colourProblem, embedSnippet, logoProblem, normalizeOrigins, originHint } from '../portalSettings'
import { Link } from '../router'
import { canWrite, useSession } from '../session'

const formFields = ['allowed_origins', 'theme.logo_url', 'theme.primary_color']

export function PortalSettingsPage() {
  const { me } = useSession()
  const writer = canWrite(me.role)
  const [loaded, setLoaded] = useState<PortalSettings | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [origins, setOrigins] = useState<string[]>([])
  const [logo, setLogo] = useState('')
  const [colour, setColour] = useState('')
  const [dark, setDark] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [notice, setNotice] = useState('')

  function fill(s: PortalSettings) {
    setLoaded(s)
    setOrigins(s.allowed_origins?.length ? s.allowed_origins : [])
    setLogo(s.theme?.logo_url ?? '')
    setColour(s.theme?.primary_color ?? '')
    setDark(!!s.theme?.dark)
  }
  useEffect(() => {
    api.get<PortalSettings>('/portal-settings').then(fill, setLoadError)
  }, [])

  const fieldErr = (f: string) => ((error as ApiError | null)?.field === f ? fieldError(error, formFields) : undefined)
  const alertError = fieldError(error, formFields) ? null : error
  const snippet = embedSnippet(window.location.origin)

  async function save(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setNotice('')
    setBusy(true)
    try {
      const body: PortalSettingsInput = {
        allowed_origins: normalizeOrigins(origins),
        theme: { logo_url: logo.trim(), primary_color: colour.trim(), dark },
      }
      fill(await api.put<PortalSettings>('/portal-settings', body))
      setNotice('Portal settings saved.')
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  if (loadError) return <section><h1>Portal settings</h1><ErrorMessage error={loadError} title="Could not load the portal settings" /></section>
  if (!loaded) return <Loading what="Loading the portal settings" />
  const colourHint = colourProblem(colour)
  const logoHint = logoProblem(logo)
  return (
    <section>
      <p><Link href="/customers">← Customers</Link></p>
      <h1>Portal settings</h1>
      <p className="muted">Your customers manage their endpoints in a portal you embed in your product. These settings apply to every customer's portal; a session may override the theme.</p>
      <form className="form" onSubmit={save}>
        <ErrorMessage error={alertError} title="Could not save the portal settings" />
        <fieldset className="fieldset" disabled={!writer}>
          <legend>Allowed origins</legend>
          <p className="muted" id="origins-hint">
            The pages that may show the portal in an iframe: the scheme and host of your product, e.g. <code>https://app.example.com</code> (no path).
            Only <code>https://</code> origins are accepted in production; <code>http://</code> (e.g. <code>http://localhost:3000</code>) works only
            with a development Ferry. With none, the portal can be opened but framed by no page.
          </p>
          {origins.length === 0 && <p className="muted">No origin yet.</p>}
          {origins.map((o, i) => {
            const hint = o.trim() ? originHint(o) : null
            return (
              <div key={i} className="origin-row">
                <div className="field">
                  <label htmlFor={`origin-${i}`}>Origin {i + 1}</label>
                  <input id={`origin-${i}`} type="url" value={o} placeholder="https://app.example.com" aria-describedby={hint ? `origin-${i}-hint` : 'origins-hint'}
                    onChange={(e) => setOrigins(origins.map((x, j) => (j === i ? e.target.value : x)))} />
                  {hint && <small id={`origin-${i}-hint`} className={hint.level === 'error' ? 'field-error' : 'origin-warn'}>{hint.message}</small>}
                </div>
                {writer && (
                  <button type="button" className="btn btn-small" aria-label={`Remove origin ${i + 1}`} onClick={() => setOrigins(origins.filter((_, j) => j !== i))}>Remove</button>
                )}
              </div>
            )
          })}
          {fieldErr('allowed_origins') && <small className="field-error" role="alert">{fieldErr('allowed_origins')}</small>}
          {writer && origins.length < 20 && (
            <div><button type="button" className="btn btn-small" onClick={() => setOrigins([...origins, ''])}>Add origin</button></div>
          )}
        </fieldset>
        <fieldset className="fieldset" disabled={!writer}>
          <legend>Theme</legend>
          <Field label="Logo URL" hint="Optional. An https:// URL (or a data: URL) of your logo, shown at the top of the portal." error={fieldErr('theme.logo_url') ?? logoHint}>
            {(id, d) => <input id={id} type="url" aria-describedby={d} value={logo} onChange={(e) => setLogo(e.target.value)} placeholder="https://" />}
          </Field>
          <Field label="Primary colour" error={fieldErr('theme.primary_color') ?? colourHint}
            hint={<>Optional. #rgb or #rrggbb, e.g. #1d4ed8: buttons and links.{' '}
              {colour.trim() && !colourHint && <span className="swatch" style={{ background: colour.trim() }} data-testid="colour-swatch" aria-hidden="true" />}</>}>
            {(id, d) => <input id={id} aria-describedby={d} value={colour} onChange={(e) => setColour(e.target.value)} placeholder="#1d4ed8" spellCheck={false} />}
          </Field>
          <label className="checkbox">
            <input type="checkbox" checked={dark} onChange={(e) => setDark(e.target.checked)} />
            <span>Dark: a dark background, for a product with a dark theme</span>
          </label>
        </fieldset>
        {writer ? (
          <div className="actions">
            <button className="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Saving…' : 'Save portal settings'}</button>
          </div>
        ) : <p className="muted">Only owners and admins change these settings.</p>}
      </form>
      <Notice>{notice}</Notice>

      <div className="card">
        <h2>Embed the portal</h2>
        <p>
          Your backend mints a session for the signed-in customer with your API key
          (<code>POST /api/v1/customers/&#123;uid&#125;/portal-sessions</code>) and returns its <code>url</code>; this snippet, in a page
          at one of the allowed origins, mounts the portal and asks for a new URL whenever the session ends.
        </p>
        <pre className="code" data-testid="embed-snippet">{snippet}</pre>
        <CopyButton text={snippet} label="Copy snippet" />
      </div>
    </section>
  )
}
