// portalSettings.ts holds the pure logic of the portal settings page:
// hints for the framing origins and the theme (the server's rules, said
// before saving), and the embed snippet for this Ferry.

/** OriginHint is what the page says under one allowed origin. */
export interface OriginHint {
  /** error: the server refuses it; warn: accepted only by a development Ferry. */
  level: 'error' | 'warn'
  message: string
}

/** originHint checks one allowed origin as the server will (scheme and host, no path; https outside dev). */
export function originHint(origin: string): OriginHint | null {
  const o = origin.trim()
  if (!o) return { level: 'error', message: 'Enter an origin such as https://app.example.com, or remove this line.' }
  let u: URL
  try {
    u = new URL(o)
  } catch {
    return { level: 'error', message: 'Not an origin: write the scheme and host, e.g. https://app.example.com.' }
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { level: 'error', message: 'An origin starts with https://.' }
  if (!u.host || /[*;,'" ]/.test(o)) return { level: 'error', message: 'Only one exact host: no wildcards, spaces or lists.' }
  if (u.username || u.password) return { level: 'error', message: 'An origin has no user name or password.' }
  if ((u.pathname !== '/' && u.pathname !== '') || u.search || u.hash || /^[a-z]+:\/\/[^/]+\/.+/i.test(o)) {
    return { level: 'error', message: `Only the scheme and host: ${u.protocol}//${u.host} (no path, query or fragment).` }
  }
  if (u.protocol === 'http:') {
    return { level: 'warn', message: 'http:// is accepted only by a development Ferry; in production the portal may only be framed by https:// pages.' }
  }
  return null
}

/** normalizeOrigins trims the origins and drops empty lines and repeats (case-insensitively, as the server compares them). */
export function normalizeOrigins(origins: string[]): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const o of origins) {
    const t = o.trim().replace(/\/$/, '')
    if (!t || seen.has(t.toLowerCase())) continue
    seen.add(t.toLowerCase())
    out.push(t)
  }
  return out
}

/** colourProblem says why c is not a #rgb or #rrggbb colour (empty is fine). */
export function colourProblem(c: string): string | undefined {
  const t = c.trim()
  if (!t || /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(t)) return undefined
  return 'A colour is #rgb or #rrggbb, e.g. #1d4ed8.'
}

/** logoProblem says why u is not an https:// or data: URL (empty is fine). */
export function logoProblem(u: string): string | undefined {
  const t = u.trim()
  if (!t) return undefined
  if (/^https:\/\/[^/\s]+/i.test(t) || /^data:/i.test(t)) return undefined
  return 'The logo must be an https:// (or data:) URL.'
}

/** embedSnippet is the HTML a tenant puts in its page to mount the portal served by the Ferry at ferryOrigin. */
export function embedSnippet(ferryOrigin: string): string {
  return `<div id="webhooks"></div>
<script src="${ferryOrigin}/embed.js"></script>
<script>
  FerryPortal.mount(document.getElementById("webhooks"), {
    // called at first and whenever the session ends: ask your backend for a new URL
    getUrl: () => fetch("/my-backend/ferry-portal-session", {method: "POST"}).then(r => r.json()).then(j => j.url),
  });
</script>`
}
