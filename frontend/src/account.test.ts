import { describe, expect, it } from 'vitest'
import { isPublicPath, isTotpCode, normalizeCode, passwordProblem, secretGroups, tokenFromHash } from './account'
import { csrfToken } from './api'

describe('passwordProblem', () => {
  it('applies the server rules and checks the confirmation', () => {
    expect(passwordProblem('short', 'short')).toMatch(/at least 10/)
    expect(passwordProblem('x'.repeat(73), 'x'.repeat(73))).toMatch(/at most 72 bytes/)
    // 24 three-byte characters are 72 bytes: allowed; 25 are not.
    expect(passwordProblem('€'.repeat(24), '€'.repeat(24))).toBe('')
    expect(passwordProblem('€'.repeat(25), '€'.repeat(25))).toMatch(/72 bytes/)
    expect(passwordProblem('long enough pw', 'long enough pX')).toMatch(/do not match/)
    expect(passwordProblem('long enough pw', 'long enough pw')).toBe('')
  })
})

describe('tokenFromHash', () => {
  it('reads the token from the fragment of an emailed link', () => {
    expect(tokenFromHash('#token=abc_DEF-123')).toBe('abc_DEF-123')
    expect(tokenFromHash('token=abc')).toBe('abc')
    expect(tokenFromHash('')).toBe('')
    expect(tokenFromHash('#other=1')).toBe('')
  })
})

describe('TOTP codes', () => {
  it('accepts six digits typed with spaces or dashes', () => {
    expect(isTotpCode(normalizeCode('123 456'))).toBe(true)
    expect(isTotpCode(normalizeCode('123-456'))).toBe(true)
    expect(isTotpCode('12345')).toBe(false)
    expect(isTotpCode('12345a')).toBe(false)
  })
  it('groups a secret for typing', () => {
    expect(secretGroups('ABCDEFGHIJ')).toBe('ABCD EFGH IJ')
  })
})

describe('isPublicPath', () => {
  it('knows the pages reached from emailed links', () => {
    expect(isPublicPath('/reset-password')).toBe(true)
    expect(isPublicPath('/accept-invite/')).toBe(true)
    expect(isPublicPath('/endpoints')).toBe(false)
  })
})

describe('csrfToken', () => {
  it('prefers the __Host- cookie used over HTTPS', () => {
    expect(csrfToken('__Host-ferry_csrf=secure; ferry_csrf=plain')).toBe('secure')
    expect(csrfToken('ferry_csrf=plain')).toBe('plain')
    expect(csrfToken('')).toBe('')
  })
})
