import { describe, expect, it } from 'vitest'
import { customerHealth, formatMetadata, healthOf, healthSummary, memberPortalSession, parseMetadata, sessionState, uidProblem } from './customers'

const ep = (enabled: boolean, failing_since: string | null = null) => ({ enabled, failing_since })

describe('customerHealth', () => {
  it('has no state without endpoints', () => {
    const h = customerHealth([])
    expect(h).toMatchObject({ total: 0, failing: 0, disabled: 0, state: 'none' })
    expect(healthSummary(h)).toBe('No endpoints')
  })
  it('counts failing (enabled with failing_since) and disabled endpoints', () => {
    const h = customerHealth([ep(true), ep(true, '2026-11-20T10:00:00Z'), ep(false), ep(false, '2026-11-19T10:00:00Z')])
    expect(h).toMatchObject({ total: 4, failing: 1, disabled: 2, state: 'failing' })
    expect(healthSummary(h)).toBe('4 endpoints · 1 failing · 2 disabled')
  })
  it('is disabled only when every endpoint is', () => {
    expect(customerHealth([ep(false), ep(false)]).state).toBe('disabled')
    expect(customerHealth([ep(false), ep(true)]).state).toBe('healthy')
  })
  it('says when all are healthy, and when there are more than were read', () => {
    expect(healthSummary(customerHealth([ep(true)]))).toBe('1 endpoint · all healthy')
    expect(healthSummary(customerHealth([ep(true), ep(true)], true))).toBe('2+ endpoints · all healthy')
  })
  it('gives the counts the API sums up the same state as the endpoints themselves', () => {
    expect(healthOf({ total: 4, failing: 1, disabled: 2 })).toEqual(customerHealth([ep(true), ep(true, '2026-11-20T10:00:00Z'), ep(false), ep(false)]))
    expect(healthOf({ total: 0, failing: 0, disabled: 0 }).state).toBe('none')
    expect(healthOf({ total: 2, failing: 0, disabled: 2 }).state).toBe('disabled')
  })
})

describe('metadata', () => {
  it('round-trips "key: value" lines', () => {
    const md = parseMetadata('plan: gold\n\n region : eu: west \n')
    expect(md).toEqual({ plan: 'gold', region: 'eu: west' })
    expect(formatMetadata(md)).toBe('plan: gold\nregion: eu: west')
    expect(formatMetadata(null)).toBe('')
  })
  it('names the bad line', () => {
    expect(() => parseMetadata('plan: gold\nnocolon')).toThrow('Metadata line 2 must look like "key: value".')
    expect(() => parseMetadata('a: 1\na: 2')).toThrow('appears twice')
  })
})

describe('uidProblem', () => {
  it('accepts the server\'s uids and refuses others', () => {
    expect(uidProblem('acme')).toBeUndefined()
    expect(uidProblem('cus_42:eu@x.y-z')).toBeUndefined()
    expect(uidProblem('')).toMatch(/required/)
    expect(uidProblem('-acme')).toMatch(/starting with a letter or digit/)
    expect(uidProblem('a b')).toBeDefined()
  })
})

describe('portal sessions', () => {
  it('opens the portal as the member with every capability', () => {
    expect(memberPortalSession('o@a.test')).toEqual({
      capabilities: ['view', 'manage_endpoints', 'view_secret', 'rotate_secret', 'replay', 'send_test', 'manage_routing'],
      external_user: { id: 'tenant:o@a.test', email: 'o@a.test' },
    })
  })
  it('tells active, expired and revoked sessions apart', () => {
    const now = Date.parse('2026-11-22T10:00:00Z')
    expect(sessionState({ expires_at: '2026-11-22T11:00:00Z' }, now)).toBe('active')
    expect(sessionState({ expires_at: '2026-11-22T09:00:00Z' }, now)).toBe('expired')
    expect(sessionState({ expires_at: '2026-11-22T11:00:00Z', revoked_at: '2026-11-22T09:30:00Z' }, now)).toBe('revoked')
  })
})
