// endpointForm.ts converts between an endpoint and its form's text fields.
import type { Endpoint, EndpointInput, RoutingTestInput } from './types'

/** EndpointFormValues are the endpoint form's raw text inputs. */
export interface EndpointFormValues {
  /** kind is "http" (Ferry pushes to url) or "queue" (consumers pull). */
  kind: 'http' | 'queue'
  url: string
  description: string
  eventTypes: string
  timeoutSeconds: string
  rateLimit: string
  maxInFlight: string
  headers: string
  filter: string
  /** format is "envelope" (the JSON envelope) or "raw" (a source's original body). */
  format: 'envelope' | 'raw'
  /** transformation is JavaScript defining handler(webhook); http only. */
  transformation: string
  /** signatureTimestamp is "event" (every attempt signed with the event's time) or "attempt" (each with its own). */
  signatureTimestamp: 'event' | 'attempt'
  /** customer is the uid of the customer a new endpoint belongs to (empty: the tenant's own); only sent on creation. */
  customer?: string
}

export const emptyEndpointForm: EndpointFormValues = {
  kind: 'http', url: '', description: '', eventTypes: '', timeoutSeconds: '10', rateLimit: '', maxInFlight: '16', headers: '', filter: '', format: 'envelope', transformation: '', signatureTimestamp: 'event',
}

/** parseEventTypes splits "a.b, c.d\ne.f" into unique, trimmed types. */
export function parseEventTypes(s: string): string[] {
  return [...new Set(s.split(/[\s,]+/).map((t) => t.trim()).filter(Boolean))]
}

/** parseHeaders reads "Name: value" lines; it throws on a line without a colon. */
export function parseHeaders(s: string): Record<string, string> {
  const out: Record<string, string> = {}
  s.split('\n').forEach((line, i) => {
    if (!line.trim()) return
    const at = line.indexOf(':')
    if (at <= 0) throw new FormError('headers', `Header line ${i + 1} must look like "Name: value".`)
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim()
  })
  return out
}

/** FormError is a client-side validation error for one field. */
export class FormError extends Error {
  readonly field: string
  constructor(field: string, message: string) {
    super(message)
    this.field = field
  }
}

function optionalInt(field: string, label: string, s: string): number | null {
  if (!s.trim()) return null
  const n = Number(s)
  if (!Number.isInteger(n)) throw new FormError(field, `${label} must be a whole number.`)
  return n
}

/** toEndpointBody builds the JSON body of POST/PATCH /api/v1/endpoints; a
 * queue endpoint has no URL, and no timeout or rate limit (the form hides
 * them: nothing of Ferry's waits on a pulled message). */
export function toEndpointBody(v: EndpointFormValues): EndpointInput {
  return {
    ...(v.kind === 'queue' ? { kind: 'queue' as const } : {
      url: v.url.trim(), format: v.format,
      timeout_seconds: optionalInt('timeout_seconds', 'Timeout', v.timeoutSeconds) ?? 10,
      rate_limit_per_second: optionalInt('rate_limit_per_second', 'Rate limit', v.rateLimit),
    }),
    description: v.description.trim(),
    event_types: parseEventTypes(v.eventTypes),
    max_in_flight: optionalInt('max_in_flight', 'Max in flight', v.maxInFlight) ?? 16,
    headers: parseHeaders(v.headers),
    signature_timestamp: v.signatureTimestamp,
    filter: v.filter.trim(),
    // Only surrounding blank space goes: error positions count lines.
    ...(v.kind === 'queue' ? {} : { transformation: v.transformation.trim() === '' ? '' : v.transformation.trimEnd() }),
    ...(v.customer?.trim() ? { customer: v.customer.trim() } : {}),
  }
}

/** fromEndpoint fills the form from an existing endpoint. */
export function fromEndpoint(ep: Endpoint): EndpointFormValues {
  return {
    kind: ep.kind === 'queue' ? 'queue' : 'http',
    url: ep.url,
    description: ep.description ?? '',
    eventTypes: (ep.event_types ?? []).join(', '),
    timeoutSeconds: String(ep.timeout_seconds ?? 10),
    rateLimit: ep.rate_limit_per_second == null ? '' : String(ep.rate_limit_per_second),
    maxInFlight: String(ep.max_in_flight ?? 16),
    headers: Object.entries(ep.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join('\n'),
    filter: ep.filter ?? '',
    format: ep.format === 'raw' ? 'raw' : 'envelope',
    transformation: ep.transformation ?? '',
    signatureTimestamp: ep.signature_timestamp === 'attempt' ? 'attempt' : 'event',
  }
}

/** toRoutingTestBody builds the body of POST /endpoints/{id}/test-routing
 * from the test panel's sample event and the filter and transformation
 * being edited (undefined: the saved one); it throws a FormError when the
 * sample data is not JSON. */
export function toRoutingTestBody(type: string, data: string, filter: string, transformation?: string): RoutingTestInput {
  let parsed: unknown
  try {
    parsed = JSON.parse(data)
  } catch {
    throw new FormError('event.data', 'Sample data must be JSON, e.g. {"amount": 1500}.')
  }
  return {
    event: { type: type.trim(), data: parsed }, filter: filter.trim(),
    ...(transformation === undefined ? {} : { transformation: transformation.trim() === '' ? '' : transformation.trimEnd() }),
  }
}
