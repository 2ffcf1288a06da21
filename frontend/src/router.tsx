// router.tsx is a tiny client-side router over the History API: the Go
// server answers index.html for every non-API path, so deep links work.
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react'

const listeners = new Set<() => void>()

/** navigate pushes (or replaces) a path and re-renders subscribed routes. */
export function navigate(to: string, replace = false): void {
  if (replace) window.history.replaceState(null, '', to)
  else window.history.pushState(null, '', to)
  listeners.forEach((fn) => fn())
  window.scrollTo?.(0, 0)
}

/** useLocation returns the current pathname and search, updating on navigation. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const [, setTick] = useState(0)
  useEffect(() => {
    const fn = () => setTick((n) => n + 1)
    listeners.add(fn)
    window.addEventListener('popstate', fn)
    return () => {
      listeners.delete(fn)
      window.removeEventListener('popstate', fn)
    }
  }, [])
  return { path: window.location.pathname, search: new URLSearchParams(window.location.search) }
}

/**
 * matchPath matches a pattern such as "/events/:id" against a path and
 * returns the parameters, or null when it does not match.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean)
  const s = path.replace(/\/+$/, '').split('/').filter(Boolean)
  if (p.length !== s.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i])
    else if (p[i] !== s[i]) return null
  }
  return params
}

/** Link is an anchor that navigates without reloading the page. */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  function click(e: MouseEvent<HTMLAnchorElement>) {
    onClick?.(e)
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    navigate(href)
  }
  return <a href={href} onClick={click} {...rest} />
}
