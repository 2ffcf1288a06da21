// account.ts: the pure logic of the account pages (password rules, links
// from emails, TOTP codes), kept out of the components so it is tested.

/** Password rules, as the server enforces them (bcrypt reads 72 bytes). */
export const minPasswordLength = 10
export const maxPasswordBytes = 72

/**
 * passwordProblem returns what is wrong with a new password and its
 * confirmation, or '' when both are fine.
 */
export function passwordProblem(password: string, confirm: string): string {
  if (password.length < minPasswordLength) return `The password must be at least ${minPasswordLength} characters.`
  if (new TextEncoder().encode(password).length > maxPasswordBytes) return `The password must be at most ${maxPasswordBytes} bytes.`
  if (password !== confirm) return 'The two passwords do not match.'
  return ''
}

/**
 * tokenFromHash reads the one-time token of an emailed link. Links carry
 * it in the fragment (#token=…), which browsers never send to a server.
 */
export function tokenFromHash(hash: string): string {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  return (params.get('token') ?? '').trim()
}

/** normalizeCode strips spaces and dashes from a typed authenticator code. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '')
}

/** isTotpCode reports whether a (normalized) code has the 6 digits of RFC 6238. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code)
}

/** secretGroups splits a base32 secret into groups of four for typing. */
export function secretGroups(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(' ')
}

/** publicPaths are the portal pages reachable without a session. */
export const publicPaths = ['/login', '/signup', '/finish-signup', '/forgot-password', '/reset-password', '/accept-invite', '/verify-email']

/** isPublicPath reports whether path is one of publicPaths. */
export function isPublicPath(path: string): boolean {
  return publicPaths.includes(path.replace(/\/+$/, '') || '/')
}
