// Browser test of the embedded customer portal (issue 25, items 4–5;
// docs/customer-portal.md): a tenant's page on another origin mounts the
// portal with embed.js, the customer manages an endpoint, sends a test
// event, finds it among its messages and replays it; a revoked session is
// replaced by a new one through the host page's getUrl, and so is a
// reloaded frame; and a page on an
// origin the tenant did not allow cannot frame the portal.
//
import assert from 'node:assert/strict'
import http from 'node:http'
import { after, before, test } from 'node:test'
import { ApiClient, assertAccessible, clickUntil, launchBrowser, PASSWORD, shot, Stack, uniq, waitFor } from './harness.mjs'

const TEST_TIMEOUT = 90_000
const ALL = ['view', 'manage_endpoints', 'view_secret', 'rotate_secret', 'replay', 'send_test', 'manage_routing']
let stack
let key

before(async () => {
  stack = new Stack()
  await stack.start()
  const tenant = new ApiClient(stack.baseURL)
  await tenant.signUp(stack, { email: `owner-${uniq()}@acme.test`, password: PASSWORD, organization: `Acme ${uniq()}` })
  key = (await tenant.call('POST', '/api-keys', { name: 'portal backend' })).key
}, { timeout: 90_000 })

after(async () => {
  await stack?.stop()
}, { timeout: 30_000 })

/** asTenant calls Ferry's API with the tenant's API key, as the tenant's backend does. */
async function asTenant(method, path, body) {
  const r = await fetch(stack.baseURL + '/api/v1' + path, {
    method,
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await r.text()
  if (!r.ok) throw new Error(`${method} ${path}: HTTP ${r.status} ${text}`)
  return text ? JSON.parse(text) : null
}

/**
 * hostPage serves a tenant's page on http://localhost:<port> (another origin
 * than Ferry's http://127.0.0.1:<port>): it loads Ferry's embed.js and
 * mounts the portal, and its POST /session is the tenant's backend minting
 * a portal session for customer with the API key. It returns the server,
 * its origin and the sessions it minted.
 */
async function hostPage(customer, capabilities = ALL) {
  const minted = []
  const server = http.createServer(async (req, res) => {
    try {
      if (req.method === 'POST' && req.url === '/session') {
        const s = await asTenant('POST', `/customers/${customer}/portal-sessions`, {
          capabilities, ttl_seconds: 600, external_user: { id: 'u_42', email: 'dana@acme.test' },
        })
        minted.push(s)
        // The URL is built from FERRY_PUBLIC_URL, which the harness does not
        // set; keep its path and fragment on the test's Ferry.
        const u = new URL(s.url)
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ url: stack.baseURL + u.pathname + u.hash }))
        return
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme dashboard</title></head>
<body>
  <h1>Acme dashboard</h1>
  <div id="webhooks"></div>
  <p id="below">Below the portal</p>
  <script src="${stack.baseURL}/embed.js"></script>
  <script>
    FerryPortal.mount(document.getElementById('webhooks'), {
      getUrl: () => fetch('/session', { method: 'POST' }).then((r) => r.json()).then((j) => j.url),
    })
  </script>
</body></html>`)
    } catch (e) {
      res.writeHead(500, { 'Content-Type': 'text/plain' })
      res.end(String(e))
    }
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  const origin = `http://localhost:${server.address().port}`
  return { server, origin, minted, close: () => new Promise((r) => server.close(r)) }
}

/** portalFrame waits for the portal's frame in page (a child frame on Ferry's origin). */
async function portalFrame(page) {
  return waitFor(() => page.frames().find((f) => f.parentFrame() === page.mainFrame() && f.url().startsWith(stack.baseURL + '/embed/')), { what: 'the portal frame' })
}

test('(p) a customer uses the embedded portal on the tenant\'s page: endpoint, test event, messages, replay; a revoked session and a reloaded frame are replaced', { timeout: TEST_TIMEOUT }, async () => {
  const customer = `acme-${uniq()}`
  await asTenant('PUT', `/customers/${customer}`, { name: 'Acme Inc' })
  const host = await hostPage(customer)
  await asTenant('PUT', '/portal-settings', { allowed_origins: [host.origin], theme: { primary_color: '#7c3aed' } })
  const b = await launchBrowser()
  const { page } = b
  try {
    await page.goto(host.origin + '/')
    const iframe = page.locator('iframe[title="Webhooks"]')
    await iframe.waitFor()
    const frame = await portalFrame(page)
    const portal = page.frameLocator('iframe[title="Webhooks"]')
    await portal.getByRole('heading', { name: 'Endpoints', level: 1 }).waitFor()
    assert.equal(host.minted.length, 1)

    // The code left the address at once; the token is in memory only.
    assert.doesNotMatch(frame.url(), /code=/)
    assert.equal(new URL(frame.url()).hash, '')
    // (A cross-site frame may be denied storage altogether: then it holds nothing there either.)
    assert.deepEqual(await frame.evaluate(() => {
      try {
        return [localStorage.length, sessionStorage.length, document.cookie]
      } catch {
        return [0, 0, '']
      }
    }), [0, 0, ''])
    // The theme's colour reached the page.
    assert.equal((await frame.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--primary'))).trim(), '#7c3aed')
    // The iframe took its content's height (ferry:height).
    await waitFor(async () => (await iframe.evaluate((el) => el.style.height)) !== '400px', { what: 'the iframe to be resized' })
    await shot(page, 'p', '01-embedded-empty')
    await assertAccessible(frame, 'the embedded endpoints page')

    // The customer adds an endpoint to the local receiver.
    await portal.getByRole('button', { name: 'Add endpoint' }).click()
    await portal.getByLabel('URL', { exact: true }).fill(stack.receiver.base + '/p/ok')
    await portal.getByLabel('Description', { exact: true }).fill('Acme production')
    await portal.getByLabel('Custom headers').fill('X-Acme: yes')
    await portal.getByRole('button', { name: 'Create endpoint' }).click()
    await portal.getByText('Endpoint created').waitFor()
    const endpointId = frame.url().split('/').pop().split('?')[0]
    const listed = await asTenant('GET', `/endpoints?customer=${customer}`)
    assert.deepEqual(listed.data.map((e) => e.id), [endpointId], 'the endpoint belongs to the customer')

    // The secret, and a test event that arrives signed.
    // The frame resizes after 'Endpoint created' (as before the replay
    // below): click until the secret shows, or the error that took its
    // place (said, not timed out on). Once shown, the button is 'Hide secret'.
    await clickUntil(portal.getByRole('button', { name: 'Reveal secret' }),
      portal.getByTestId('secret').or(portal.getByRole('alert')).first(), 'the revealed secret')
    const alert = portal.getByRole('alert')
    if (await alert.count()) assert.fail(`revealing the secret: ${(await alert.first().textContent()).trim()}`)
    assert.match((await portal.getByTestId('secret').textContent()).trim(), /^whsec_/)
    await portal.getByRole('button', { name: 'Send test event' }).click()
    const link = portal.getByTestId('test-event').getByRole('link')
    await link.waitFor()
    const eventId = (await link.textContent()).trim()
    await link.click()
    await portal.getByRole('heading', { name: 'ferry.test', level: 1 }).waitFor()
    const attempts = portal.getByTestId('attempt')
    await attempts.filter({ hasText: 'success' }).filter({ hasText: 'HTTP 200' }).first().waitFor({ timeout: 30_000 })
    const got = stack.receiver.requests.find((r) => r.path === '/p/ok' && r.headers['webhook-id'] === eventId)
    assert.ok(got, 'the receiver got the test event')
    assert.equal(got.headers['x-acme'], 'yes')
    await shot(page, 'p', '02-embedded-message')

    // Among the messages; replayed from its page.
    await portal.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages' }).click()
    await portal.getByRole('heading', { name: 'Messages', level: 1 }).waitFor()
    await portal.getByRole('link', { name: 'ferry.test' }).first().click()
    // The frame resizes to the page it now shows, and a click during that
    // shift can land beside the button: click until the confirmation shows
    // (a second click cannot undo the first, the button is disabled while
    // it asks).
    const replayOne = portal.getByRole('button', { name: `Replay delivery to ${stack.receiver.base}/p/ok` })
    const confirmOne = portal.getByRole('button', { name: 'Yes, replay this delivery' })
    await clickUntil(replayOne, confirmOne, 'the replay confirmation')
    await confirmOne.click()
    await portal.getByText('Delivery replay queued').waitFor()
    await attempts.filter({ hasText: 'replay' }).filter({ hasText: 'HTTP 200' }).first().waitFor({ timeout: 20_000 })
    await waitFor(() => stack.receiver.requests.filter((r) => r.headers['webhook-id'] === eventId).length >= 2, { what: 'the replayed request' })
    await assertAccessible(frame, 'the embedded message page')

    // Recover: the count first, then nothing to replay (every delivery succeeded).
    await portal.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Recover' }).click()
    await portal.getByRole('button', { name: 'Count failed deliveries' }).click()
    await portal.getByTestId('recover-confirm').getByText('Nothing to recover').waitFor()

    // The tenant revokes the session: the portal's next call gets 401, the
    // host page's getUrl mints a new session and the iframe opens it.
    await asTenant('DELETE', `/portal-sessions/${host.minted[0].session_id}`)
    await portal.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Endpoints' }).click()
    await waitFor(() => host.minted.length === 2, { what: 'a new session after the revocation' })
    await waitFor(() => page.frames().some((f) => f.url().startsWith(`${stack.baseURL}/embed/${host.minted[1].session_id}`)), { what: 'the new session in the iframe' })
    await portal.getByRole('link', { name: stack.receiver.base + '/p/ok' }).waitFor()
    await shot(page, 'p', '03-embedded-renewed')

    // A reload of the frame: the code left the address, the host's origin
    // (in the query) did not, so the portal tells the host page, which
    // mints a new session, and the portal opens again.
    assert.equal(new URL(frame.url()).searchParams.get('origin'), host.origin)
    await frame.evaluate(() => location.reload()).catch(() => {})
    await waitFor(() => host.minted.length === 3, { timeout: 30_000, what: 'a new session after the frame was reloaded' })
    await waitFor(() => page.frames().some((f) => f.url().startsWith(`${stack.baseURL}/embed/${host.minted[2].session_id}`)), { what: 'the third session in the iframe' })
    await portal.getByRole('heading', { name: 'Endpoints', level: 1 }).waitFor()
    await portal.getByRole('link', { name: stack.receiver.base + '/p/ok' }).waitFor()
    // The portal ran under Ferry's CSP without a violation, and threw nothing.
    assert.deepEqual(b.consoleErrors, [])
  } finally {
    await b.close()
    await host.close()
  }
})

test('(p) a page on an origin the tenant did not allow cannot frame the portal', { timeout: TEST_TIMEOUT }, async () => {
  const customer = `initech-${uniq()}`
  await asTenant('PUT', `/customers/${customer}`, { name: 'Initech' })
  const allowed = await hostPage(customer)
  const other = await hostPage(customer)
  await asTenant('PUT', '/portal-settings', { allowed_origins: [allowed.origin] })
  const b = await launchBrowser()
  const { page } = b
  const consoleLines = []
  page.on('console', (m) => consoleLines.push(m.text()))
  try {
    await page.goto(other.origin + '/')
    await page.locator('iframe[title="Webhooks"]').waitFor()
    await waitFor(() => other.minted.length === 1, { what: 'the session to be minted' })
    // The browser refuses the frame (CSP frame-ancestors): Chromium puts its
    // error page in the frame, never the portal, and says why in the
    // console of the page that tried.
    const f = await waitFor(() => page.frames().find((x) => x.parentFrame() === page.mainFrame() && x.url().startsWith('chrome-error:')), { timeout: 15_000, what: 'the frame to be refused' })
    const portalLoaded = await f.evaluate(() => !!document.querySelector('#root')?.children.length).catch(() => false)
    assert.equal(portalLoaded, false, 'the portal must not load in a disallowed origin')
    await waitFor(() => consoleLines.some((l) => l.includes('frame-ancestors')), { timeout: 5_000, what: `a frame-ancestors refusal in the console (${consoleLines.join(' | ')})` })
    await shot(page, 'p', '04-refused-origin')
  } finally {
    await b.close()
    await allowed.close()
    await other.close()
  }
})
