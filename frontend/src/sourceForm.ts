// sourceForm.ts converts between an inbound source and its form's text
// fields: which fields each verification scheme needs, the request body
// of POST/PATCH /api/v1/sources, and the API's field errors in words.
import { FormError } from './endpointForm'
import type { Source, SourceInput, SourcePatch, SourceRequestDetail, SourceScheme } from './types'

/** SchemeInfo describes a verification scheme for the form. */
export interface SchemeInfo {
  scheme: SourceScheme
  label: string
  /** help is one line: what is checked and where the provider shows its secret. */
  help: string
  /** fields the scheme needs beyond the name (secret, hmac's header/encoding/prefix, basic auth's username/password). */
  fields: SchemeField[]
  /** eventType and dedupe are what the provider usually needs, offered when the scheme is chosen. */
  eventType?: { mode: EventTypeMode; value: string }
  dedupe?: { mode: DedupeMode; value: string }
}

/** SchemeField is one scheme-specific form field. */
export type SchemeField = 'secret' | 'header' | 'encoding' | 'prefix' | 'username' | 'password'

export const schemes: SchemeInfo[] = [
  {
    scheme: 'github', label: 'GitHub', fields: ['secret'],
    help: 'Checks X-Hub-Signature-256. The secret is the one you typed in the repository or organisation under Settings → Webhooks.',
    eventType: { mode: 'header', value: 'X-GitHub-Event' }, dedupe: { mode: 'header', value: 'X-GitHub-Delivery' },
  },
  {
    scheme: 'stripe', label: 'Stripe', fields: ['secret'],
    help: 'Checks Stripe-Signature and its timestamp. Stripe shows the signing secret (whsec_…) under Developers → Webhooks → your endpoint.',
    eventType: { mode: 'json_path', value: 'type' }, dedupe: { mode: 'json_path', value: 'id' },
  },
  {
    scheme: 'shopify', label: 'Shopify', fields: ['secret'],
    help: 'Checks X-Shopify-Hmac-Sha256. Shopify shows the key under Settings → Notifications → Webhooks (for an app: its client secret).',
    eventType: { mode: 'header', value: 'X-Shopify-Topic' }, dedupe: { mode: 'header', value: 'X-Shopify-Webhook-Id' },
  },
  {
    scheme: 'slack', label: 'Slack', fields: ['secret'],
    help: 'Checks X-Slack-Signature and its timestamp. Slack shows the Signing Secret in your app under Basic Information → App Credentials.',
    eventType: { mode: 'json_path', value: 'event.type' }, dedupe: { mode: 'json_path', value: 'event_id' },
  },
  {
    scheme: 'standard_webhooks', label: 'Standard Webhooks', fields: ['secret'],
    help: 'Checks webhook-signature and its timestamp, for any Standard Webhooks sender (another Ferry, Svix…). The sender shows the whsec_… secret of its endpoint.',
    eventType: { mode: 'json_path', value: 'type' }, dedupe: { mode: 'header', value: 'Webhook-Id' },
  },
  {
    scheme: 'hmac_sha256', label: 'Other HMAC-SHA256 signature', fields: ['secret', 'header', 'encoding', 'prefix'],
    help: 'For a sender that signs the body with HMAC-SHA256 in a header: name the header, how the signature is written and any text before it.',
  },
  {
    scheme: 'basic_auth', label: 'Username and password', fields: ['username', 'password'],
    help: 'The sender sends a username and password (HTTP basic auth, e.g. https://user:password@… in its webhook settings).',
  },
  {
    scheme: 'none', label: 'No verification', fields: [],
    help: 'Anyone who knows the URL can send. Use it only for testing or for senders that cannot sign.',
  },
]

/** schemeInfo returns a scheme's description (the first one for an unknown scheme). */
export function schemeInfo(s: string): SchemeInfo {
  return schemes.find((x) => x.scheme === s) ?? schemes[0]
}

/** fieldsFor lists the scheme-specific fields the form shows for a scheme. */
export function fieldsFor(s: SourceScheme): SchemeField[] {
  return schemeInfo(s).fields
}

export type EventTypeMode = 'value' | 'header' | 'json_path'
export type DedupeMode = '' | 'header' | 'json_path'

/** SourceFormValues are the source form's raw inputs. */
export interface SourceFormValues {
  name: string
  scheme: SourceScheme
  secret: string
  header: string
  encoding: 'hex' | 'base64'
  prefix: string
  username: string
  password: string
  eventTypeMode: EventTypeMode
  eventTypeValue: string
  eventTypeDefault: string
  customResponse: boolean
  responseStatus: string
  responseContentType: string
  responseBody: string
  dedupeMode: DedupeMode
  dedupeValue: string
}

export const emptySourceForm: SourceFormValues = {
  name: '', scheme: 'github', secret: '', header: '', encoding: 'hex', prefix: '', username: '', password: '',
  eventTypeMode: 'header', eventTypeValue: 'X-GitHub-Event', eventTypeDefault: '',
  customResponse: false, responseStatus: '200', responseContentType: 'application/json', responseBody: '{}',
  dedupeMode: 'header', dedupeValue: 'X-GitHub-Delivery',
}

/**
 * withScheme switches the form to another scheme. The event type and
 * dedupe rules follow the provider's usual ones while they are still the
 * previous scheme's suggestion (or empty); rules the user typed are kept.
 */
export function withScheme(v: SourceFormValues, scheme: SourceScheme): SourceFormValues {
  const before = schemeInfo(v.scheme)
  const after = schemeInfo(scheme)
  const out = { ...v, scheme }
  const etUntouched = !v.eventTypeValue.trim() || (before.eventType?.mode === v.eventTypeMode && before.eventType.value === v.eventTypeValue)
  if (etUntouched) {
    out.eventTypeMode = after.eventType?.mode ?? 'value'
    out.eventTypeValue = after.eventType?.value ?? ''
  }
  const ddUntouched = v.dedupeMode === '' ? !before.dedupe : before.dedupe?.mode === v.dedupeMode && before.dedupe.value === v.dedupeValue
  if (ddUntouched) {
    out.dedupeMode = after.dedupe?.mode ?? ''
    out.dedupeValue = after.dedupe?.value ?? ''
  }
  return out
}

/** statusNumber reads the custom response status; it throws a FormError unless it is a whole number. */
function statusNumber(s: string): number {
  const n = Number(s.trim() || '200')
  if (!Number.isInteger(n)) throw new FormError('response.status', 'The status must be a number such as 200.')
  return n
}

/**
 * toSourceBody builds the JSON body of POST /sources (and, with editing,
 * of PATCH /sources/{id}: an empty secret then keeps the stored one, and
 * an unchecked response or dedupe rule is removed with null).
 */
export function toSourceBody(v: SourceFormValues, editing = false): SourceInput & SourcePatch {
  const fields = fieldsFor(v.scheme)
  const verification: SourceInput['verification'] = { type: v.scheme }
  if (fields.includes('secret') && v.secret) verification.secret = v.secret
  if (fields.includes('header')) verification.header = v.header.trim()
  if (fields.includes('encoding')) verification.encoding = v.encoding
  if (fields.includes('prefix')) verification.prefix = v.prefix
  if (fields.includes('username')) verification.username = v.username.trim()
  if (fields.includes('password') && v.password) verification.password = v.password

  const rule = v.eventTypeValue.trim()
  const eventType: SourceInput['event_type'] = { [v.eventTypeMode]: rule }
  if (v.eventTypeMode !== 'value' && v.eventTypeDefault.trim()) eventType.default = v.eventTypeDefault.trim()

  const body: SourceInput & SourcePatch = { name: v.name.trim(), verification, event_type: eventType }
  if (v.customResponse) {
    body.response = { status: statusNumber(v.responseStatus), content_type: v.responseContentType.trim(), body: v.responseBody }
  } else if (editing) {
    body.response = null
  }
  if (v.dedupeMode && v.dedupeValue.trim()) {
    body.dedupe = { [v.dedupeMode]: v.dedupeValue.trim() }
  } else if (editing) {
    body.dedupe = null
  }
  return body
}

/** fromSource fills the form from a saved source (secrets are never shown, so they start empty). */
export function fromSource(s: Source): SourceFormValues {
  const et = s.event_type
  const mode: EventTypeMode = et.header ? 'header' : et.json_path ? 'json_path' : 'value'
  const v = s.verification
  return {
    name: s.name, scheme: v.type, secret: '', header: v.header ?? '', encoding: v.encoding ?? 'hex', prefix: v.prefix ?? '',
    username: v.username ?? '', password: '',
    eventTypeMode: mode, eventTypeValue: (mode === 'header' ? et.header : mode === 'json_path' ? et.json_path : et.value) ?? '',
    eventTypeDefault: et.default ?? '',
    customResponse: !!s.response,
    responseStatus: String(s.response?.status ?? 200),
    responseContentType: s.response?.content_type ?? 'application/json',
    responseBody: s.response?.body ?? '{}',
    dedupeMode: s.dedupe?.header ? 'header' : s.dedupe?.json_path ? 'json_path' : '',
    dedupeValue: s.dedupe?.header ?? s.dedupe?.json_path ?? '',
  }
}

/** sourceFields are the API error fields the form shows beside a control. */
export const sourceFields = [
  'name', 'verification.type', 'verification.secret', 'verification.header', 'verification.encoding', 'verification.prefix',
  'verification.username', 'verification.password', 'event_type', 'event_type.value', 'event_type.header', 'event_type.json_path',
  'event_type.default', 'response.status', 'response.content_type', 'response.body', 'dedupe', 'dedupe.header', 'dedupe.json_path',
]

/** formFieldOf maps an API error field to the form control that shows it. */
export function formFieldOf(apiField: string | undefined): string | undefined {
  if (!apiField) return undefined
  if (apiField.startsWith('event_type')) return apiField === 'event_type.default' ? 'event_type.default' : 'event_type'
  if (apiField.startsWith('dedupe')) return 'dedupe'
  return sourceFields.includes(apiField) ? apiField : undefined
}

// Words for the API's field names, longest first so "event_type.value"
// is read before "event_type".
const words: [string, string][] = [
  ['verification.secret', 'the signing secret'], ['verification.header', 'the signature header'],
  ['verification.encoding', 'the encoding'], ['verification.prefix', 'the prefix'],
  ['verification.username', 'the username'], ['verification.password', 'the password'],
  ['verification.type', 'the verification'], ['event_type.value', 'the event type'], ['event_type.header', 'the header'],
  ['event_type.json_path', 'the JSON path'], ['event_type.default', 'the default type'], ['event_type', 'the event type rule'],
  ['response.status', 'the status'], ['response.content_type', 'the content type'], ['response.body', 'the body'],
  ['dedupe.header', 'the header'], ['dedupe.json_path', 'the JSON path'], ['dedupe', 'the duplicate rule'],
  ['standard_webhooks', 'Standard Webhooks'], ['hmac_sha256', 'HMAC-SHA256'], ['basic_auth', 'username and password'],
  ['json_path', 'JSON path'],
]

/** plainMessage rewrites the API's field names in an error message as words (the message starts with a capital). */
export function plainMessage(msg: string): string {
  let out = msg
  for (const [k, w] of words) out = out.split(k).join(w)
  out = out.replace(/^a github source/, 'a GitHub source').replace(/^a stripe source/, 'a Stripe source')
    .replace(/^a shopify source/, 'a Shopify source').replace(/^a slack source/, 'a Slack source')
  return out
}

/** BodyView is how the inspector shows a captured body. */
export type BodyView =
  | { kind: 'empty' }
  | { kind: 'json'; pretty: string; raw: string }
  | { kind: 'text'; raw: string }
  | { kind: 'binary'; hex: string; base64: string; truncated: boolean }

/** hexLimit bounds the bytes the inspector renders as hex. */
export const hexLimit = 4096

/** bodyView decides how to show a body: pretty JSON, text, or hex and base64 when it is not UTF-8. */
export function bodyView(d: Pick<SourceRequestDetail, 'body_base64' | 'body_text' | 'body_size'>): BodyView {
  if (d.body_size === 0 || (!d.body_base64 && !d.body_text)) return { kind: 'empty' }
  if (d.body_text != null) {
    try {
      return { kind: 'json', pretty: JSON.stringify(JSON.parse(d.body_text), null, 2), raw: d.body_text }
    } catch {
      return { kind: 'text', raw: d.body_text }
    }
  }
  const bin = atob(d.body_base64)
  const n = Math.min(bin.length, hexLimit)
  const lines: string[] = []
  for (let off = 0; off < n; off += 16) {
    const bytes: string[] = []
    for (let i = off; i < Math.min(off + 16, n); i++) bytes.push(bin.charCodeAt(i).toString(16).padStart(2, '0'))
    lines.push(off.toString(16).padStart(8, '0') + '  ' + bytes.join(' '))
  }
  return { kind: 'binary', hex: lines.join('\n'), base64: d.body_base64, truncated: bin.length > hexLimit }
}

/** headerRows flattens captured headers into sorted name/value rows (one per value). */
export function headerRows(h: Record<string, string[]> | null | undefined): { name: string; value: string }[] {
  return Object.entries(h ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([name, values]) => values.map((value) => ({ name, value })))
}

/** eventTypeRuleText describes a source's event-type rule in words. */
export function eventTypeRuleText(et: Source['event_type']): string {
  const fallback = et.default ? ` (else ${et.default})` : ' (else unknown)'
  if (et.header) return `from the ${et.header} header${fallback}`
  if (et.json_path) return `from ${et.json_path} in the JSON body${fallback}`
  return `always ${et.value}`
}
