import { describe, expect, it } from 'vitest'
import type { EventType } from './customerTypes'
import { coveredBy, eventTypeHref, groupEventTypes, hasType, matchesPattern, parseExamples, parseSchema, toEventTypeBody, toggleType, emptyEventTypeForm } from './eventTypes'

function et(name: string, group = '', over: Partial<EventType> = {}): EventType {
  return {
    name, group, description: '', validation: 'off', deprecated: false, deprecated_at: null, latest_version: 1,
    created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z', ...over,
  }
}

describe('groupEventTypes (the picker)', () => {
  const types = [et('order.shipped', 'orders'), et('invoice.paid', 'billing'), et('ping'), et('invoice.created', 'billing'),
    et('invoice.voided', 'billing', { deprecated: true }), et('invoice.adjusted', 'billing', { description: 'A credit note' })]
  it('groups by group, by name inside, deprecated last, ungrouped last', () => {
    expect(groupEventTypes(types).map((g) => [g.group, g.types.map((t) => t.name)])).toEqual([
      ['billing', ['invoice.adjusted', 'invoice.created', 'invoice.paid', 'invoice.voided']],
      ['orders', ['order.shipped']],
      ['Other', ['ping']],
    ])
  })
  it('filters on name, group and description', () => {
    expect(groupEventTypes(types, 'CREDIT').flatMap((g) => g.types.map((t) => t.name))).toEqual(['invoice.adjusted'])
    expect(groupEventTypes(types, 'orders').map((g) => g.group)).toEqual(['orders'])
    expect(groupEventTypes(types, 'nothing')).toEqual([])
  })
})

describe('choosing types in a free-text list', () => {
  it('matches patterns as delivery does', () => {
    expect(matchesPattern('*', 'a.b')).toBe(true)
    expect(matchesPattern('invoice.*', 'invoice.paid')).toBe(true)
    expect(matchesPattern('invoice.*', 'order.paid')).toBe(false)
    expect(matchesPattern('invoice.paid', 'invoice.paid')).toBe(true)
  })
  it('toggles a type, keeping wildcards and free text', () => {
    expect(toggleType('order.*, custom.thing', 'invoice.paid')).toBe('order.*, custom.thing, invoice.paid')
    expect(toggleType('order.*, invoice.paid, custom.thing', 'invoice.paid')).toBe('order.*, custom.thing')
    expect(toggleType('', 'a')).toBe('a')
    expect(hasType('a, b', 'b')).toBe(true)
    expect(coveredBy('a, invoice.*', 'invoice.paid')).toBe('invoice.*')
    expect(coveredBy('invoice.paid', 'invoice.paid')).toBeUndefined()
  })
})

describe('event type form', () => {
  it('builds the body, leaving out empty JSON fields', () => {
    expect(toEventTypeBody({ ...emptyEventTypeForm, name: ' invoice.paid ', group: 'billing' })).toEqual({ name: 'invoice.paid', group: 'billing', description: '', validation: 'off' })
    expect(toEventTypeBody({ ...emptyEventTypeForm, name: 'x', validation: 'reject', schema: '{"type":"object"}', examples: '[{}]' }))
      .toMatchObject({ validation: 'reject', schema: { type: 'object' }, examples: [{}] })
  })
  it('names the field at fault', () => {
    expect(() => parseSchema('{nope')).toThrow(/not JSON/)
    expect(() => parseSchema('[1]')).toThrow(/JSON object/)
    expect(() => parseExamples('{"a":1}')).toThrow(/JSON array/)
    expect(() => toEventTypeBody({ ...emptyEventTypeForm, name: 'x', validation: 'warn' })).toThrow(/add one, or choose off/)
    let err: unknown
    try {
      toEventTypeBody({ ...emptyEventTypeForm, name: 'x', examples: '[1]' })
    } catch (e) {
      err = e
    }
    expect((err as { field?: string } | undefined)?.field).toBe('examples')
  })
  it('escapes a name holding a slash in links', () => {
    expect(eventTypeHref('billing/invoice.created')).toBe('/event-types/billing%2Finvoice.created')
  })
})
