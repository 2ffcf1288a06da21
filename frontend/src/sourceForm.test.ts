import { describe, expect, it } from 'vitest'
import { FormError } from './endpointForm'
import {
  bodyView, emptySourceForm, eventTypeRuleText, fieldsFor, formFieldOf, fromSource, headerRows, plainMessage, schemes, toSourceBody, withScheme,
} from './sourceForm'
import type { Source } from './types'

describe('source form: fields per scheme', () => {
  it('asks each scheme only for what it needs', () => {
    expect(fieldsFor('github')).toEqual(['secret'])
    expect(fieldsFor('stripe')).toEqual(['secret'])
    expect(fieldsFor('hmac_sha256')).toEqual(['secret', 'header', 'encoding', 'prefix'])
    expect(fieldsFor('basic_auth')).toEqual(['username', 'password'])
    expect(fieldsFor('none')).toEqual([])
  })
  it('has one line of help for every scheme the API knows', () => {
    expect(schemes.map((s) => s.scheme).sort()).toEqual(['basic_auth', 'github', 'hmac_sha256', 'none', 'shopify', 'slack', 'standard_webhooks', 'stripe'])
    for (const s of schemes) expect(s.help).toMatch(/^[^\n]+\.$/)
  })
  it('follows the provider\'s event type and dedupe rules until the user types their own', () => {
    const stripe = withScheme(emptySourceForm, 'stripe')
    expect([stripe.eventTypeMode, stripe.eventTypeValue, stripe.dedupeMode, stripe.dedupeValue]).toEqual(['json_path', 'type', 'json_path', 'id'])
    const none = withScheme(stripe, 'none')
    expect([none.eventTypeMode, none.eventTypeValue, none.dedupeMode]).toEqual(['value', '', ''])
    const typed = withScheme({ ...emptySourceForm, eventTypeMode: 'value', eventTypeValue: 'push', dedupeMode: '' }, 'shopify')
    expect([typed.eventTypeMode, typed.eventTypeValue, typed.dedupeMode]).toEqual(['value', 'push', ''])
    const unset = withScheme(withScheme(emptySourceForm, 'none'), 'shopify')
    expect([unset.eventTypeMode, unset.eventTypeValue, unset.dedupeMode, unset.dedupeValue]).toEqual(['header', 'X-Shopify-Topic', 'header', 'X-Shopify-Webhook-Id'])
  })
})

describe('source form: request body', () => {
  it('builds a GitHub source with the usual rules', () => {
    expect(toSourceBody({ ...emptySourceForm, name: ' GitHub: acme ', secret: 's3cret', header: 'ignored', username: 'ignored' })).toEqual({
      name: 'GitHub: acme',
      verification: { type: 'github', secret: 's3cret' },
      event_type: { header: 'X-GitHub-Event' },
      dedupe: { header: 'X-GitHub-Delivery' },
    })
  })
  it('sends the generic HMAC settings, basic auth and a fixed type with a custom response', () => {
    const hmac = toSourceBody({ ...withScheme(emptySourceForm, 'hmac_sha256'), name: 'x', secret: 'k', header: ' X-Sig ', encoding: 'base64', prefix: 'v1=' })
    expect(hmac.verification).toEqual({ type: 'hmac_sha256', secret: 'k', header: 'X-Sig', encoding: 'base64', prefix: 'v1=' })
    expect(hmac.dedupe).toBeUndefined()
    const basic = toSourceBody({
      ...withScheme(emptySourceForm, 'basic_auth'), name: 'x', username: 'u', password: 'p', eventTypeMode: 'value', eventTypeValue: ' form.posted ',
      customResponse: true, responseStatus: '202', responseContentType: 'text/plain', responseBody: 'ok',
    })
    expect(basic.verification).toEqual({ type: 'basic_auth', username: 'u', password: 'p' })
    expect(basic.event_type).toEqual({ value: 'form.posted' })
    expect(basic.response).toEqual({ status: 202, content_type: 'text/plain', body: 'ok' })
  })
  it('takes a default type only for a header or JSON path rule', () => {
    expect(toSourceBody({ ...emptySourceForm, eventTypeDefault: 'github.other' }).event_type).toEqual({ header: 'X-GitHub-Event', default: 'github.other' })
    expect(toSourceBody({ ...emptySourceForm, eventTypeMode: 'value', eventTypeValue: 'a', eventTypeDefault: 'b' }).event_type).toEqual({ value: 'a' })
  })
  it('refuses a status that is not a number', () => {
    expect(() => toSourceBody({ ...emptySourceForm, customResponse: true, responseStatus: 'ok' })).toThrow(FormError)
  })
  it('on edit keeps an empty secret out and removes an unchecked response or dedupe rule', () => {
    const body = toSourceBody({ ...emptySourceForm, name: 'x', dedupeMode: '' }, true)
    expect(body.verification).toEqual({ type: 'github' })
    expect(body.response).toBeNull()
    expect(body.dedupe).toBeNull()
  })
  it('round-trips a saved source (secrets stay empty)', () => {
    const src = {
      name: 'Shop', verification: { type: 'hmac_sha256', header: 'X-Sig', encoding: 'hex', prefix: 'sha256=', has_secret: true },
      event_type: { json_path: 'data.type', default: 'shop.other' }, dedupe: { json_path: 'id' },
      response: { status: 202, content_type: 'text/plain', body: 'thanks' },
    } as unknown as Source
    const v = fromSource(src)
    expect(v.secret).toBe('')
    expect(toSourceBody(v, true)).toEqual({
      name: 'Shop', verification: { type: 'hmac_sha256', header: 'X-Sig', encoding: 'hex', prefix: 'sha256=' },
      event_type: { json_path: 'data.type', default: 'shop.other' }, dedupe: { json_path: 'id' },
      response: { status: 202, content_type: 'text/plain', body: 'thanks' },
    })
    expect(eventTypeRuleText(src.event_type)).toBe('from data.type in the JSON body (else shop.other)')
  })
})

describe('source form: errors', () => {
  it('puts each API error beside its control', () => {
    expect(formFieldOf('verification.secret')).toBe('verification.secret')
    expect(formFieldOf('event_type.json_path')).toBe('event_type')
    expect(formFieldOf('event_type.default')).toBe('event_type.default')
    expect(formFieldOf('dedupe.header')).toBe('dedupe')
    expect(formFieldOf('response.status')).toBe('response.status')
    expect(formFieldOf('rate_limit_per_second')).toBeUndefined()
    expect(formFieldOf(undefined)).toBeUndefined()
  })
  it('writes the API\'s field names as words', () => {
    expect(plainMessage('a github source needs the provider\'s signing secret')).toBe('a GitHub source needs the provider\'s signing secret')
    expect(plainMessage('event_type.json_path must be a dotted path such as data.object.id (at most 200 bytes)')).toBe('the JSON path must be a dotted path such as data.object.id (at most 200 bytes)')
    expect(plainMessage('response.status must be a 2xx status')).toBe('the status must be a 2xx status')
    expect(plainMessage('verification.header must be a valid HTTP header name')).toBe('the signature header must be a valid HTTP header name')
  })
})

describe('request inspector', () => {
  const b64 = (s: string) => btoa(s)
  it('shows JSON formatted and as received', () => {
    const raw = '{"action":"opened","n":1}'
    expect(bodyView({ body_base64: b64(raw), body_text: raw, body_size: raw.length })).toEqual({ kind: 'json', raw, pretty: '{\n  "action": "opened",\n  "n": 1\n}' })
  })
  it('shows other UTF-8 as text, and bytes that are not UTF-8 as hex with the base64', () => {
    expect(bodyView({ body_base64: b64('a=1&b=2'), body_text: 'a=1&b=2', body_size: 7 })).toEqual({ kind: 'text', raw: 'a=1&b=2' })
    const bin = String.fromCharCode(0xff, 0x00, 0x41, ...Array(20).fill(0x20))
    const v = bodyView({ body_base64: b64(bin), body_text: null, body_size: bin.length })
    expect(v.kind).toBe('binary')
    if (v.kind !== 'binary') return
    expect(v.hex.split('\n')[0]).toBe('00000000  ff 00 41 20 20 20 20 20 20 20 20 20 20 20 20 20')
    expect(v.hex.split('\n')[1]).toBe('00000010  20 20 20 20 20 20 20')
    expect(v.base64).toBe(b64(bin))
    expect(v.truncated).toBe(false)
    expect(bodyView({ body_base64: '', body_text: '', body_size: 0 })).toEqual({ kind: 'empty' })
  })
  it('lists headers sorted, one row per value', () => {
    expect(headerRows({ 'X-B': ['2'], Accept: ['a', 'b'] })).toEqual([{ name: 'Accept', value: 'a' }, { name: 'Accept', value: 'b' }, { name: 'X-B', value: '2' }])
    expect(headerRows(null)).toEqual([])
  })
})
