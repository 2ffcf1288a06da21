// format.ts renders times, durations and statuses for people.

/** formatTime renders an ISO time in the viewer's locale, or "—". */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return d.toLocaleString(undefined, {
    year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
  })
}

/** relativeTime renders how long ago (or until) a time is, relative to now. */
export function relativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '—'
  const t = new Date(iso).getTime()
  if (Number.isNaN(t)) return iso
  const diff = Math.round((t - now) / 1000)
  const abs = Math.abs(diff)
  const [n, unit] =
    abs < 45 ? [abs, 's'] : abs < 2700 ? [Math.round(abs / 60), 'min'] : abs < 86400 ? [Math.round(abs / 3600), 'h'] : [Math.round(abs / 86400), 'd']
  if (abs < 5) return 'just now'
  return diff < 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`
}

/** formatDuration renders milliseconds as "850 ms" or "1.2 s"; under a millisecond (logged as 0) as "< 1 ms". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—'
  if (ms < 1) return '< 1 ms'
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`
  return `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`
}

/** formatPercent renders a ratio in [0, 1] as a percentage, or "—" for NaN. */
export function formatPercent(r: number): string {
  if (!Number.isFinite(r)) return '—'
  return `${(r * 100).toFixed(r === 1 || r === 0 ? 0 : 1)}%`
}

/** prettyJSON pretty-prints JSON values and JSON strings; other text is returned as is. */
export function prettyJSON(v: unknown): string {
  if (typeof v === 'string') {
    try {
      return JSON.stringify(JSON.parse(v), null, 2)
    } catch {
      return v
    }
  }
  return JSON.stringify(v, null, 2)
}

/** toISOFromLocal turns a datetime-local input value into RFC 3339 UTC, or "". */
export function toISOFromLocal(v: string): string {
  if (!v) return ''
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? '' : d.toISOString()
}

/** formatMoney renders integer minor units (cents) of a currency. */
export function formatMoney(minor: number, currency = 'USD'): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency || 'USD' }).format(minor / 100)
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`
  }
}

/** formatCount renders a count with thousands separators. */
export function formatCount(n: number): string {
  return new Intl.NumberFormat().format(n)
}

/** formatAge renders a number of seconds as an age: "40 s", "5 min", "3 h", "2 d"; 0 as "—". */
export function formatAge(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '—'
  if (seconds < 60) return `${Math.round(seconds)} s`
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h`
  return `${formatCount(Math.round(seconds / 86400))} d`
}

/** formatBytes says n bytes in binary units (KiB, MiB, GiB, TiB), as Ferry's limits are set. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB']
  let i = 0
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024
    i++
  }
  return `${Number.isInteger(n) ? n : n.toFixed(1)} ${units[i]}`
}
