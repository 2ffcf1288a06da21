// theme.ts turns the session's theme (the tenant's, with the session's
// overrides) into CSS variables on the page: the primary colour (with a
// darker hover shade, a text colour that reads on it and a link colour
// that reads on the background) and the dark scheme. A value that is not
// what it claims to be (a colour that is not #rgb/#rrggbb, a logo that is
// not an http(s) URL) is ignored, never put into CSS or markup.
import type { PortalTheme } from './types'

type RGB = [number, number, number]

/** parseHex reads #rgb or #rrggbb; null for anything else. */
export function parseHex(s: string | null | undefined): RGB | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec((s ?? '').trim())
  if (!m) return null
  const h = m[1].length === 3 ? m[1].replace(/./g, (c) => c + c) : m[1]
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as RGB
}

function hex([r, g, b]: RGB): string {
  return '#' + [r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')
}

/** mix blends a towards b by t (0 = a, 1 = b). */
function mix(a: RGB, b: RGB, t: number): RGB {
  return [0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * t) as RGB
}

/** luminance is the WCAG relative luminance. */
export function luminance([r, g, b]: RGB): number {
  const f = (v: number) => {
    const c = v / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
}

/** contrast is the WCAG contrast ratio of two colours. */
export function contrast(a: RGB, b: RGB): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p)
  return (x + 0.05) / (y + 0.05)
}

const white: RGB = [255, 255, 255]
const black: RGB = [0, 0, 0]
const lightBg: RGB = [246, 247, 249] // --bg of styles.css
const darkBg: RGB = [17, 24, 39] // --card of embed.css's dark scheme

/** readableOn moves c towards white (on dark) or black (on light) until it reads at 4.5:1 on bg. */
function readableOn(c: RGB, bg: RGB): RGB {
  const towards = luminance(bg) < 0.5 ? white : black
  for (let t = 0; t <= 1; t += 0.05) {
    const m = mix(c, towards, t)
    if (contrast(m, bg) >= 4.5) return m
  }
  return towards
}

/** ThemeStyle is what applyTheme sets: CSS variables and whether the scheme is dark. */
export interface ThemeStyle {
  vars: Record<string, string>
  dark: boolean
}

/** themeStyle computes the page's variables from a theme. */
export function themeStyle(theme: PortalTheme | null | undefined): ThemeStyle {
  const dark = theme?.dark === true
  const vars: Record<string, string> = {}
  const p = parseHex(theme?.primary_color)
  if (p) {
    vars['--primary'] = hex(p)
    vars['--primary-dark'] = hex(mix(p, black, 0.25))
    vars['--on-primary'] = contrast(p, white) >= contrast(p, black) ? '#ffffff' : '#000000'
    vars['--link'] = hex(readableOn(p, dark ? darkBg : lightBg))
  }
  return { vars, dark }
}

/** logoUrl returns the theme's logo when it is an http(s) URL, else null. */
export function logoUrl(theme: PortalTheme | null | undefined): string | null {
  const s = theme?.logo_url
  if (!s) return null
  try {
    const u = new URL(s)
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null
  } catch {
    return null
  }
}

/** applyTheme sets the theme on the document's root element (CSSOM, which the page's CSP allows). */
export function applyTheme(theme: PortalTheme | null | undefined, root: HTMLElement = document.documentElement): void {
  const { vars, dark } = themeStyle(theme)
  for (const [k, v] of Object.entries(vars)) root.style.setProperty(k, v)
  root.classList.toggle('embed-dark', dark)
  root.style.colorScheme = dark ? 'dark' : 'light'
}
