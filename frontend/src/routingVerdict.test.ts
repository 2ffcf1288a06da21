import { describe, expect, it } from 'vitest'
import { verdict } from './RoutingTest'
import type { RoutingTestResult } from './types'

const base: RoutingTestResult = { matched: true, payload: {}, headers: {}, cancelled: false }

describe('verdict', () => {
  it.each([
    [{ ...base }, 'ok', /^Matched/],
    [{ ...base, matched: false }, 'warn', /^Not matched/],
    [{ ...base, matched: false, filter_error: "no such key: 'amount'" }, 'error', /^Filter error/],
    [{ ...base, matched: false, error: 'TypeError: boom at transformation.js:2:3' }, 'error', /^Transformation failed/],
    [{ ...base, error: 'TypeError: boom' }, 'error', /dropped \(transformation_error\)/],
    [{ ...base, cancelled: true }, 'warn', /^Cancelled/],
  ] as [RoutingTestResult, string, RegExp][])('%o is %s', (r, tone, text) => {
    const v = verdict(r)
    expect(v.tone).toBe(tone)
    expect(v.text).toMatch(text)
  })
})
