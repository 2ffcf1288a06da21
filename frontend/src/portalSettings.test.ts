import { describe, expect, it } from 'vitest'
import { colourProblem, embedSnippet, logoProblem, normalizeOrigins, originHint } from './portalSettings'

describe('originHint', () => {
  it('accepts an https origin, with or without a trailing slash', () => {
    expect(originHint('https://app.example.com')).toBeNull()
    expect(originHint('https://app.example.com:8443/')).toBeNull()
  })
  it('warns that http works only in development', () => {
    expect(originHint('http://localhost:3000')).toMatchObject({ level: 'warn', message: expect.stringMatching(/production/) })
  })
  it('refuses what the server refuses, saying what to write instead', () => {
    expect(originHint('https://app.example.com/settings/webhooks')).toEqual({ level: 'error', message: expect.stringContaining('https://app.example.com (no path') })
    expect(originHint('app.example.com')?.level).toBe('error')
    expect(originHint('ftp://app.example.com')?.level).toBe('error')
    expect(originHint('https://*.example.com')?.level).toBe('error')
    expect(originHint('https://u:p@app.example.com')?.level).toBe('error')
    expect(originHint('https://app.example.com?x=1')?.level).toBe('error')
    expect(originHint('  ')?.level).toBe('error')
  })
})

describe('normalizeOrigins', () => {
  it('drops blanks, trailing slashes and repeats', () => {
    expect(normalizeOrigins([' https://a.test/ ', '', 'HTTPS://A.test', 'https://b.test'])).toEqual(['https://a.test', 'https://b.test'])
  })
})

describe('theme hints', () => {
  it('checks colours and logo URLs as the server does', () => {
    expect(colourProblem('')).toBeUndefined()
    expect(colourProblem('#1d4ed8')).toBeUndefined()
    expect(colourProblem('#fff')).toBeUndefined()
    expect(colourProblem('blue')).toBeDefined()
    expect(colourProblem('#12345')).toBeDefined()
    expect(logoProblem('https://cdn.acme.test/logo.svg')).toBeUndefined()
    expect(logoProblem('data:image/png;base64,AAAA')).toBeUndefined()
    expect(logoProblem('http://cdn.acme.test/logo.svg')).toBeDefined()
  })
})

describe('embedSnippet', () => {
  it('loads embed.js from this Ferry', () => {
    const s = embedSnippet('https://ferry.example')
    expect(s).toContain('<script src="https://ferry.example/embed.js"></script>')
    expect(s).toContain('FerryPortal.mount(document.getElementById("webhooks")')
  })
})
