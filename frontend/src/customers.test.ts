import { describe, expect, it } from 'vitest'
import { formatMetadata, healthOf, healthSummary, memberPortalSession, parseMetadata, sessionState, uidProblem } from './customers'

describe('healthOf', () => {
  it('has no state without endpoints', () => {
    const h = healthOf({ total: 0, failing: 0, disabled: 0 })
    expect(h.state).toBe('none')
    expect(healthSummary(h)).toBe('No endpoints')
  })
  it('is failing when any enabled endpoint fails, and says how many are failing and disabled', () => {
    const h = healthOf({ total: 4, failing: 1, disabled: 2 })
    expect(h).toMatchObject({ total: 4, failing: 1, disabled: 2, state: 'failing' })
    expect(healthSummary(h)).toBe('4 endpoints · 1 failing · 2 disabled')
  })
  it('is disabled only when every endpoint is', () => {
    expect(healthOf({ total: 2, failing: 0, disabled: 2 }).state).toBe('disabled')
    expect(healthOf({ total: 2, failing: 0, disabled: 1 }).state).toBe('healthy')
  })
  it('says when all are healthy', () => {
    expect(healthSummary(healthOf({ total: 1, failing: 0, disabled: 0 }))).toBe('1 endpoint · all healthy')
    expect(healthSummary(healthOf({ total: 2, failing: 0, disabled: 0 }))).toBe('2 endpoints · all healthy')
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
