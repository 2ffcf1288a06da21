// TypePicker.tsx offers the event-type catalog where an endpoint's event
// types are entered: the catalog's types grouped by group, with their
// descriptions, each a checkbox that adds or removes the exact name from
// the free-text list (wildcards and other names stay), and the latest
// schema and example of a type on demand. The tenant's pages read the
// catalog from the tenant API; the embedded portal passes its own catalog
// (the portal API, with its bearer token).
import { useEffect, useId, useState } from 'react'
import { api, query, type Page } from './api'
import { ErrorMessage, Loading } from './components'
import type { EventType } from './customerTypes'
import { coveredBy, eventTypePath, groupEventTypes, hasType, toggleType } from './eventTypes'
import { prettyJSON } from './format'

/** Getter reads a JSON document from an API path (api.get, or the portal client's get). */
export type Getter = <T>(path: string) => Promise<T>

/** EventTypeCatalog is where the picker reads the catalog: its types, and one type with its versions. */
export interface EventTypeCatalog {
  list: () => Promise<EventType[]>
  get: (name: string) => Promise<EventType>
}

/** catalogOf reads the catalog through get, from /event-types (under the tenant API or the portal API). */
export function catalogOf(get: Getter): EventTypeCatalog {
  return { list: () => loadEventTypes(get), get: (name) => get<EventType>(eventTypePath(name)) }
}

/** tenantCatalog is the tenant's catalog, through the tenant API. */
export const tenantCatalog: EventTypeCatalog = catalogOf((path) => api.get(path))

/** loadEventTypes reads the whole catalog (at most 1,000 types, five pages). */
export async function loadEventTypes(get: Getter = (path) => api.get(path)): Promise<EventType[]> {
  const out: EventType[] = []
  let cursor = ''
  for (let i = 0; i < 5; i++) {
    const p = await get<Page<EventType> | null>('/event-types' + query({ cursor, limit: 200 }))
    out.push(...(p?.data ?? []))
    if (!p?.next_cursor) break
    cursor = p.next_cursor
  }
  return out
}

/** TypeSchema shows the latest version's schema and first example of one type. */
function TypeSchema({ name, catalog }: { name: string; catalog: EventTypeCatalog }) {
  const [t, setT] = useState<EventType | null>(null)
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    catalog.get(name).then(setT, setError)
  }, [name, catalog])
  if (error) return <ErrorMessage error={error} title="Could not load the schema" />
  if (!t) return <Loading what="Loading the schema" />
  const latest = t.versions?.[0]
  if (!latest) return <p className="muted">No schema yet: any data is accepted.</p>
  return (
    <div data-testid="type-schema">
      <h4>Schema (version {latest.version})</h4>
      <pre className="code">{prettyJSON(latest.schema)}</pre>
      {latest.examples?.length > 0 && (
        <>
          <h4>Example</h4>
          <pre className="code">{prettyJSON(latest.examples[0])}</pre>
        </>
      )}
    </div>
  )
}

/**
 * TypePicker edits value, the comma-separated event types of an endpoint
 * form. catalog is where the types come from (the tenant's, through the
 * tenant API, unless given; keep it stable across renders).
 */
export function TypePicker({ value, onChange, catalog = tenantCatalog }: { value: string; onChange: (v: string) => void; catalog?: EventTypeCatalog }) {
  const [types, setTypes] = useState<EventType[] | null>(null)
  const [failed, setFailed] = useState(false)
  const [filter, setFilter] = useState('')
  const [shown, setShown] = useState('')
  const filterId = useId()
  useEffect(() => {
    let live = true
    catalog.list().then((t) => live && setTypes(t), () => live && setFailed(true))
    return () => {
      live = false
    }
  }, [catalog])
  // The catalog is a help: without it (or when empty) the free-text field is enough.
  if (failed || !types || types.length === 0) return null
  const groups = groupEventTypes(types, filter)
  return (
    <details className="type-picker" open>
      <summary>Choose from your event types ({types.length})</summary>
      {types.length > 8 && (
        <div className="field">
          <label htmlFor={filterId}>Find a type</label>
          <input id={filterId} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </div>
      )}
      {groups.length === 0 && <p className="muted">No type matches "{filter}".</p>}
      {groups.map((g) => (
        <fieldset key={g.group} className="fieldset type-group">
          <legend>{g.group}</legend>
          {g.types.map((t) => {
            const via = coveredBy(value, t.name)
            return (
              <div key={t.name} className="type-option">
                <label className="checkbox">
                  <input type="checkbox" checked={hasType(value, t.name)} onChange={() => onChange(toggleType(value, t.name))} />
                  <span>
                    <code>{t.name}</code>
                    {t.deprecated && <> <span className="badge badge-warn">deprecated</span></>}
                    {via && <small className="muted"> (already received through {via})</small>}
                    {t.description && <small className="muted type-description">{t.description}</small>}
                  </span>
                </label>
                {t.latest_version > 0 && (
                  <button type="button" className="btn btn-small" aria-expanded={shown === t.name} aria-label={`${shown === t.name ? 'Hide' : 'Show'} the schema of ${t.name}`}
                    onClick={() => setShown(shown === t.name ? '' : t.name)}>
                    {shown === t.name ? 'Hide schema' : 'Schema'}
                  </button>
                )}
                {shown === t.name && <TypeSchema name={t.name} catalog={catalog} />}
              </div>
            )
          })}
        </fieldset>
      ))}
    </details>
  )
}
