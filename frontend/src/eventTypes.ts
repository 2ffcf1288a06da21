// eventTypes.ts holds the pure logic of the event-type catalog pages and
// of the endpoint form's type picker: grouping, matching a subscription's
// patterns, and the JSON fields of the create and version forms.
import { FormError, parseEventTypes } from './endpointForm'
import type { EventType, EventTypeInput, ValidationMode } from './customerTypes'

/** ungrouped is the heading of types without a group. */
export const ungrouped = 'Other'

/** TypeGroup is one group of the catalog, its types sorted by name. */
export interface TypeGroup {
  group: string
  types: EventType[]
}

/**
 * groupEventTypes groups types by their group, groups sorted by name with
 * the ungrouped ones last; inside a group current types come before
 * deprecated ones, each by name. A non-empty filter keeps the types whose
 * name, group or description contains it (case-insensitively).
 */
export function groupEventTypes(types: EventType[], filter = ''): TypeGroup[] {
  const f = filter.trim().toLowerCase()
  const byGroup = new Map<string, EventType[]>()
  for (const t of types) {
    if (f && ![t.name, t.group, t.description].some((s) => (s ?? '').toLowerCase().includes(f))) continue
    const g = t.group?.trim() || ungrouped
    byGroup.set(g, [...(byGroup.get(g) ?? []), t])
  }
  const groups = [...byGroup.entries()].map(([group, ts]) => ({
    group,
    types: ts.sort((a, b) => Number(a.deprecated) - Number(b.deprecated) || a.name.localeCompare(b.name)),
  }))
  return groups.sort((a, b) => (a.group === ungrouped ? 1 : 0) - (b.group === ungrouped ? 1 : 0) || a.group.localeCompare(b.group))
}

/** matchesPattern reports whether a subscription pattern (a type, "prefix*" or "*") covers name, as delivery matches them. */
export function matchesPattern(pattern: string, name: string): boolean {
  if (pattern === '*') return true
  if (pattern.endsWith('*')) return name.startsWith(pattern.slice(0, -1))
  return pattern === name
}

/** coveredBy returns the wildcard of the list that covers name, if any (so the picker can say "via invoice.*"). */
export function coveredBy(list: string, name: string): string | undefined {
  return parseEventTypes(list).find((p) => p.endsWith('*') && matchesPattern(p, name))
}

/** hasType reports whether the comma-separated list names name exactly. */
export function hasType(list: string, name: string): boolean {
  return parseEventTypes(list).includes(name)
}

/** toggleType adds name to the comma-separated list, or removes it when there; other entries (wildcards, free text) stay as they are. */
export function toggleType(list: string, name: string): string {
  const types = parseEventTypes(list)
  return (types.includes(name) ? types.filter((t) => t !== name) : [...types, name]).join(', ')
}

/** parseSchema reads the schema field: empty is none; otherwise a JSON object (or true/false). */
export function parseSchema(text: string, field = 'schema'): unknown | undefined {
  if (!text.trim()) return undefined
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch (e) {
    throw new FormError(field, `The schema is not JSON: ${(e as Error).message}`)
  }
  if (typeof v !== 'boolean' && (typeof v !== 'object' || v === null || Array.isArray(v))) {
    throw new FormError(field, 'A JSON Schema is a JSON object, e.g. {"type": "object"}.')
  }
  return v
}

/** parseExamples reads the examples field: empty is none; otherwise a JSON array of payloads. */
export function parseExamples(text: string, field = 'examples'): unknown[] | undefined {
  if (!text.trim()) return undefined
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch (e) {
    throw new FormError(field, `The examples are not JSON: ${(e as Error).message}`)
  }
  if (!Array.isArray(v)) throw new FormError(field, 'Examples are a JSON array of payloads, e.g. [{"amount": 4200}].')
  return v
}

/** EventTypeFormValues are the create form's raw inputs. */
export interface EventTypeFormValues {
  name: string
  group: string
  description: string
  validation: ValidationMode
  schema: string
  examples: string
}

export const emptyEventTypeForm: EventTypeFormValues = { name: '', group: '', description: '', validation: 'off', schema: '', examples: '' }

/** toEventTypeBody builds the body of POST /event-types; it throws a FormError for a field that is not JSON, or a mode that needs a schema. */
export function toEventTypeBody(v: EventTypeFormValues): EventTypeInput {
  const schema = parseSchema(v.schema)
  const examples = parseExamples(v.examples)
  if (examples && schema === undefined) throw new FormError('examples', 'Examples need a schema to match.')
  if (v.validation !== 'off' && schema === undefined) throw new FormError('validation', `"${v.validation}" checks events against a schema: add one, or choose off.`)
  return {
    name: v.name.trim(),
    group: v.group.trim(),
    description: v.description.trim(),
    validation: v.validation,
    ...(schema === undefined ? {} : { schema }),
    ...(examples === undefined ? {} : { examples }),
  }
}

/** eventTypeHref is the portal page of an event type (a name holding "/" is escaped). */
export function eventTypeHref(name: string): string {
  return '/event-types/' + encodeURIComponent(name)
}

/** eventTypePath is the API path of an event type. */
export function eventTypePath(name: string): string {
  return '/event-types/' + encodeURIComponent(name)
}

/** validationModes describe each mode for people. */
export const validationModes: { value: ValidationMode; label: string }[] = [
  { value: 'off', label: 'Off: accept every event, check nothing' },
  { value: 'warn', label: 'Warn: accept, and report data that does not match' },
  { value: 'reject', label: 'Reject: refuse data that does not match (422)' },
]
