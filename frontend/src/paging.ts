// paging.ts keeps the cursor trail of a paginated list, so the user can
// step forwards with next_cursor and back through the pages already seen.
import { useCallback, useEffect, useState } from 'react'
import type { ApiError, Page } from './api'

/** Trail is the cursors of the pages before the current one, and the current cursor. */
export interface Trail {
  previous: string[]
  current: string
}

export const firstPage: Trail = { previous: [], current: '' }

/** nextTrail moves to the page after the current one. */
export function nextTrail(t: Trail, nextCursor: string): Trail {
  return { previous: [...t.previous, t.current], current: nextCursor }
}

/** prevTrail moves back one page (stays on the first page). */
export function prevTrail(t: Trail): Trail {
  if (t.previous.length === 0) return t
  return { previous: t.previous.slice(0, -1), current: t.previous[t.previous.length - 1] }
}

/** PagedList is the state of a list loaded one page at a time. */
export interface PagedList<T> {
  items: T[]
  loading: boolean
  error: ApiError | null
  pageNumber: number
  hasNext: boolean
  hasPrev: boolean
  next: () => void
  prev: () => void
  reload: () => void
}

/**
 * usePaged loads a list page by page. `load` receives the cursor ("" for
 * the first page); `deps` restart from the first page when they change.
 */
export function usePaged<T>(load: (cursor: string) => Promise<Page<T>>, deps: unknown[]): PagedList<T> {
  const [trail, setTrail] = useState<Trail>(firstPage)
  const [page, setPage] = useState<Page<T> | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<ApiError | null>(null)
  const [tick, setTick] = useState(0)

  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setTrail(firstPage), deps)

  useEffect(() => {
    let live = true
    setLoading(true)
    load(trail.current)
      .then((p) => {
        if (!live) return
        setPage(p)
        setError(null)
      })
      .catch((e) => live && setError(e))
      .finally(() => live && setLoading(false))
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [trail, tick, ...deps])

  const nextCursor = page?.next_cursor ?? null
  return {
    items: page?.data ?? [],
    loading,
    error,
    pageNumber: trail.previous.length + 1,
    hasNext: !!nextCursor,
    hasPrev: trail.previous.length > 0,
    next: useCallback(() => nextCursor && setTrail((t) => nextTrail(t, nextCursor)), [nextCursor]),
    prev: useCallback(() => setTrail(prevTrail), []),
    reload: useCallback(() => setTick((n) => n + 1), []),
  }
}
