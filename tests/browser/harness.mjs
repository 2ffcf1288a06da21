// Harness for the portal's browser tests: a fresh database on the shared
// PostgreSQL, the real ferry binary on a free port (dev mode, fast retry
// schedule, its own Kafka topics and group), a local webhook receiver, and
// Debian's Chromium driven by playwright-core (never a downloaded browser).
import assert from 'node:assert/strict'
import { execFile, spawn } from 'node:child_process'
import { createHmac, randomBytes } from 'node:crypto'
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
// playwright-core is a devDependency of the portal (frontend/package.json).
const { chromium } = createRequire(path.join(root, 'frontend/package.json'))('playwright-core')

export const screenshotDir = path.join(root, 'tests/screenshots')
export const chromiumPath = process.env.FERRY_CHROMIUM ?? '/usr/bin/chromium'
const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
  '--no-first-run', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
]

/** uniq returns a short random suffix for names that must not collide. */
/** PASSWORD is every test user's password. */
export const PASSWORD = 'correct horse battery staple'

export const uniq = () => randomBytes(4).toString('hex')

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** psql is the PostgreSQL client: on PATH, or beside the server binaries scripts/services.sh uses. */
function psql() {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(path.join(dir, 'psql'))) return 'psql'
  }
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : []
  for (const v of versions) {
    const p = `/usr/lib/postgresql/${v}/bin/psql`
    if (existsSync(p)) return p
  }
  return 'psql'
}

/** waitFor polls fn until it returns a truthy value or the timeout passes. */
export async function waitFor(fn, { timeout = 20000, interval = 250, what = 'condition' } = {}) {
  const end = Date.now() + timeout
  let last
  while (Date.now() < end) {
    try {
      const v = await fn()
      if (v) return v
    } catch (e) {
      last = e
    }
    await sleep(interval)
  }
  throw new Error(`timed out after ${timeout} ms waiting for ${what}${last ? ': ' + last.message : ''}`)
}

/**
 * clickUntil clicks button until shown is visible: a click while the page
 * still moves (a frame resizing) can land beside the button.
 */
export async function clickUntil(button, shown, what) {
  await waitFor(async () => {
    if (!(await shown.isVisible())) await button.click({ timeout: 2000 })
    return shown.isVisible()
  }, { what })
}

/** withDatabase replaces the database name of a postgres:// URL. */
export function withDatabase(url, name) {
  const u = new URL(url)
  u.pathname = '/' + name
  return u.toString()
}

/**
 * Receiver is a local webhook endpoint. Paths ending in /ok answer 200;
 * paths ending in /flaky answer 500 with a JSON body until fix() is called;
 * paths ending in /down always answer 500, so Ferry keeps retrying;
 * paths ending in /refuse answer 400, so Ferry drops the delivery at once.
 */
export class Receiver {
  constructor() {
    this.requests = []
    this.fixed = false
    this.server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        this.requests.push({ path: req.url, headers: req.headers, body })
        if (req.url.endsWith('/refuse')) {
          res.writeHead(400, { 'Content-Type': 'application/json', 'X-Receiver': 'refuse' })
          res.end(JSON.stringify({ error: 'unknown order' }))
          return
        }
        if ((req.url.endsWith('/flaky') && !this.fixed) || req.url.endsWith('/down')) {
          res.writeHead(500, { 'Content-Type': 'application/json', 'X-Receiver': 'flaky' })
          res.end(JSON.stringify({ error: 'receiver database is down' }))
          return
        }
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Receiver': 'ok' })
        res.end(JSON.stringify({ received: true }))
      })
    })
  }
  async start() {
    await new Promise((r) => this.server.listen(0, '127.0.0.1', r))
    this.base = `http://127.0.0.1:${this.server.address().port}`
  }
  fix() {
    this.fixed = true
  }
  stop() {
    return new Promise((r) => this.server.close(r))
  }
}

/** Stack is everything a browser test needs: database, Kafka names, ferry, receiver. */
export class Stack {
  /**
   * start runs ferry on a fresh database. env adds variables (e.g.
   * FERRY_STAFF_TOTP_REQUIRED). Screenshots of earlier runs are removed
   * by scripts/frontend.sh before the files run, never here: the files
   * run one after another in no fixed order, and each keeps the others'.
   */
  async start({ env = {} } = {}) {
    const dbURL = process.env.FERRY_TEST_DATABASE_URL
    const brokers = process.env.FERRY_TEST_KAFKA_BROKERS
    if (!dbURL || !brokers) throw new Error('FERRY_TEST_DATABASE_URL and FERRY_TEST_KAFKA_BROKERS must be set (eval "$(bash scripts/env.sh)")')
    this.bin = process.env.FERRY_BIN ?? path.join(root, 'bin/ferry')
    mkdirSync(screenshotDir, { recursive: true })
    const id = uniq()
    this.adminURL = dbURL
    this.dbName = `portal_test_${id}`
    await run(psql(), [dbURL, '-v', 'ON_ERROR_STOP=1', '-qc', `CREATE DATABASE ${this.dbName}`])
    this.receiver = new Receiver()
    await this.receiver.start()
    const port = await freePort()
    this.baseURL = `http://127.0.0.1:${port}`
    this.env = {
      ...process.env,
      FERRY_ENV: 'dev',
      FERRY_HTTP_ADDR: `127.0.0.1:${port}`,
      FERRY_DATABASE_URL: withDatabase(dbURL, this.dbName),
      FERRY_KAFKA_BROKERS: brokers,
      FERRY_KAFKA_TOPIC_PREFIX: `portal-${id}.`,
      FERRY_KAFKA_GROUP: `portal-${id}`,
      FERRY_KAFKA_PARTITIONS: '2',
      FERRY_RETRY_SCALE: '0.001',
      FERRY_LOG_LEVEL: 'info',
      FERRY_LOG_FORMAT: 'text',
      ...env,
    }
    this.logFile = path.join(screenshotDir, `ferry-${id}.log`)
    const log = createWriteStream(this.logFile)
    this.proc = spawn(this.bin, ['serve'], { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] })
    this.proc.stdout.pipe(log)
    this.proc.stderr.pipe(log)
    this.exited = new Promise((r) => this.proc.on('exit', (code) => r(code)))
    // Never leave ferry running: kill it if the runner exits or is stopped
    // (e.g. by the suite's timeout) before after() could run.
    const kill = () => this.proc.exitCode === null && this.proc.kill('SIGKILL')
    process.once('exit', kill)
    for (const sig of ['SIGTERM', 'SIGINT']) process.once(sig, () => { kill(); process.exit(130) })
    let exitCode = null
    this.exited.then((c) => (exitCode = c))
    await waitFor(async () => {
      if (exitCode !== null) throw new Error(`ferry exited with ${exitCode}; see ${this.logFile}`)
      const r = await fetch(this.baseURL + '/readyz')
      return r.ok
    }, { timeout: 60000, interval: 300, what: 'ferry /readyz' }).catch((e) => {
      if (exitCode !== null) throw new Error(`ferry exited with ${exitCode}; see ${this.logFile}`)
      throw e
    })
  }

  /** createStaff runs `ferry staff create` against the test database. */
  async createStaff(email, password) {
    await new Promise((resolve, reject) => {
      const p = spawn(this.bin, ['staff', 'create', '--email', email, '--password-stdin'], { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] })
      let out = ''
      p.stdout.on('data', (d) => (out += d))
      p.stderr.on('data', (d) => (out += d))
      p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ferry staff create exited ${code}: ${out}`))))
      p.stdin.end(password + '\n')
    })
  }

  async stop() {
    if (this.proc && this.proc.exitCode === null) {
      this.proc.kill('SIGTERM')
      const t = setTimeout(() => this.proc.kill('SIGKILL'), 15000)
      await this.exited
      clearTimeout(t)
    }
    await this.receiver?.stop()
    if (this.dbName) {
      await run(psql(), [this.adminURL, '-qc', `DROP DATABASE IF EXISTS ${this.dbName} WITH (FORCE)`]).catch((e) => console.error('drop database:', e.message))
    }
  }
}

/**
 * ApiClient talks to Ferry like a signed-in browser would (session cookie
 * plus X-CSRF-Token), for setting up data that a test is not about.
 */
export class ApiClient {
  constructor(baseURL) {
    this.baseURL = baseURL
    this.cookies = {}
  }
  async call(method, p, body, headers = {}) {
    const h = { Accept: 'application/json', ...headers }
    if (body !== undefined) h['Content-Type'] = 'application/json'
    const jar = Object.entries(this.cookies).map(([k, v]) => `${k}=${v}`).join('; ')
    if (jar) h.Cookie = jar
    if (this.cookies.ferry_csrf && method !== 'GET') h['X-CSRF-Token'] = decodeURIComponent(this.cookies.ferry_csrf)
    const r = await fetch(this.baseURL + '/api/v1' + p, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) })
    for (const c of r.headers.getSetCookie?.() ?? []) {
      const [kv] = c.split(';')
      const i = kv.indexOf('=')
      this.cookies[kv.slice(0, i)] = kv.slice(i + 1)
    }
    const text = await r.text()
    const json = text ? JSON.parse(text) : null
    if (!r.ok) throw new Error(`${method} ${p}: HTTP ${r.status} ${text}`)
    return json
  }

  /** signUp signs up on stack as a person does: the form, then the mailed link, which signs this client in; it returns /me. */
  async signUp(stack, input) {
    await this.call('POST', '/auth/signup', input)
    const link = await mailedLink(stack, input.email, 'finish-signup')
    return this.call('POST', '/auth/signup/confirm', { token: new URL(link).hash.replace('#token=', ''), password: input.password })
  }
}

/** Browser launches Debian's Chromium with a fresh profile directory. */
export async function launchBrowser({ width = 1280, height = 860 } = {}) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'ferry-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: { width, height },
  })
  context.setDefaultTimeout(15000)
  const page = context.pages()[0] ?? (await context.newPage())
  const consoleErrors = []
  page.on('pageerror', (e) => consoleErrors.push(e.message))
  // The portal runs under Ferry's Content-Security-Policy; a violation
  // (an inline script or style it blocked) fails the tests that check
  // consoleErrors.
  page.on('console', (m) => {
    if (m.type() === 'error' && m.text().includes('Content Security Policy')) consoleErrors.push(m.text())
  })
  return {
    context,
    page,
    consoleErrors,
    async close() {
      await context.close().catch(() => {})
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

/** shot saves a full-page screenshot as tests/screenshots/<test>-<name>.png. */
export async function shot(page, test, name) {
  const file = path.join(screenshotDir, `${test}-${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  return file
}

const axePath = createRequire(path.join(root, 'frontend/package.json')).resolve('axe-core/axe.min.js')
const axeSource = readFileSync(axePath, 'utf8')

/**
 * accessibility runs axe-core (WCAG 2 A/AA rules: labels, contrast, roles,
 * names) on the page and returns the serious and critical violations as
 * readable strings; tests assert the list is empty.
 */
export async function accessibility(page) {
  // Evaluated through the DevTools protocol rather than added as a script
  // tag: the portal's CSP (script-src 'self') rightly refuses inline tags.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] }, resultTypes: ['violations'] })
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)
  })
  return violations
}

/** assertAccessible fails the test when axe-core finds a serious WCAG A/AA violation. */
export async function assertAccessible(page, what) {
  assert.deepEqual(await accessibility(page), [], `accessibility of ${what}`)
}

/** nav follows a link of the portal's main navigation and waits for the page. */
export async function nav(page, name) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click()
  await page.getByRole('heading', { level: 1 }).first().waitFor()
}

/** signUp creates a tenant through the portal's sign-up page of stack. */
export async function signUp(stack, page, org, email) {
  await page.goto(stack.baseURL + '/signup')
  await page.getByLabel('Organisation name').fill(org)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor()
  await page.goto(await mailedLink(stack, email, 'finish-signup'))
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create my account' }).click()
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()
}

/** MAIL_API is the local mail catcher's HTTP API (scripts/mail.sh). */
export const MAIL_API = process.env.FERRY_TEST_MAIL_API ?? 'http://127.0.0.1:19026'

/** mailedLink waits for a mail to address with a link to page on stack and returns the link (read from the mail catcher, as its recipient would). */
export async function mailedLink(stack, address, page) {
  const prefix = `${stack.baseURL}/${page}#token=`
  return waitFor(async () => {
    const r = await fetch(`${MAIL_API}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`)
    for (const m of (await r.json()).messages ?? []) {
      const full = await (await fetch(`${MAIL_API}/api/v1/message/${m.ID}`)).json()
      const link = (full.Text.match(/https?:\/\/\S+#token=[A-Za-z0-9_-]+/g) ?? []).find((l) => l.startsWith(prefix))
      if (link) return link
    }
    return null
  }, { timeout: 15_000, what: `a ${page} mail to ${address}` })
}

/** totp computes the RFC 6238 code (SHA-1, 6 digits, 30 s) of a base32 secret at time t, as an authenticator app does. */
export function totp(secret, t = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const c of secret.replace(/[\s=]/g, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0')
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(t / 1000 / 30)))
  const h = createHmac('sha1', key).update(counter).digest()
  const o = h[h.length - 1] & 0xf
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, '0')
}
