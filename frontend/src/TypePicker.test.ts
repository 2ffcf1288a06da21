// The type picker's catalog: the tenant's through the tenant API by
// default, or any getter's (the embedded portal's client), paged.
import { describe, expect, it } from 'vitest'
import { catalogOf } from './TypePicker'

describe('catalogOf', () => {
  it('pages through /event-types and reads one type by its escaped name', async () => {
    const asked: string[] = []
    const get = async <T,>(path: string): Promise<T> => {
      asked.push(path)
      if (path.startsWith('/event-types?')) {
        const page = path.includes('cursor=c2') ? { data: [{ name: 'b' }], next_cursor: null } : { data: [{ name: 'a' }], next_cursor: 'c2' }
        return page as T
      }
      return { name: 'a/b' } as T
    }
    const c = catalogOf(get)
    expect((await c.list()).map((t) => t.name)).toEqual(['a', 'b'])
    expect(asked).toEqual(['/event-types?limit=200', '/event-types?cursor=c2&limit=200'])
    await c.get('a/b')
    expect(asked.at(-1)).toBe('/event-types/a%2Fb')
  })
})
