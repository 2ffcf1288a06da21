// Browser test of the API reference page (/docs/api; docs/api.md): Redoc,
// bundled from npm into the portal's build, renders the tenant API's
// OpenAPI document under the page's own Content-Security-Policy (inline
// styles allowed on this page only, scripts 'self'), loading nothing from
// another origin.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import path from 'node:path'
import { launchBrowser, screenshotDir, Stack } from './harness.mjs'

let stack

before(async () => {
  stack = new Stack()
  await stack.start()
}, { timeout: 90_000 })

after(async () => {
  await stack?.stop()
}, { timeout: 30_000 })

test('the API reference renders the document under its CSP', { timeout: 90_000 }, async () => {
  const browser = await launchBrowser()
  try {
    const { page, consoleErrors } = browser
    const origin = new URL(stack.baseURL).origin
    const foreign = []
    page.on('request', (r) => {
      if (!r.url().startsWith(origin) && !/^(data|blob):/.test(r.url())) foreign.push(r.url())
    })
    const res = await page.goto(stack.baseURL + '/docs/api')
    assert.equal(res.status(), 200)
    const csp = res.headers()['content-security-policy']
    // Styles may be inline on this page alone; scripts stay 'self'.
    assert.match(csp, /script-src 'self';/)
    assert.match(csp, /style-src 'self' 'unsafe-inline';/)
    assert.doesNotMatch(csp, /unsafe-eval/)
    const portal = await fetch(stack.baseURL + '/')
    assert.doesNotMatch(portal.headers.get('content-security-policy'), /unsafe-inline/, 'the portal keeps its strict CSP')

    // An operation by its id, a webhook and an operation's example.
    const op = page.locator('[id="operation/events.create"]')
    await op.waitFor({ state: 'attached', timeout: 30_000 })
    await op.scrollIntoViewIfNeeded()
    assert.match(await op.innerText(), /Send an event/)
    assert.match(await op.innerText(), /Idempotency-Key/)
    assert.ok(await page.getByText('ferry.endpoint.failing').count() > 0, 'the webhooks section is rendered')
    // Redoc's styles applied: the three-panel layout has a styled menu.
    const menuWidth = await page.locator('.menu-content').evaluate((e) => e.getBoundingClientRect().width)
    assert.ok(menuWidth > 100, `menu width ${menuWidth}: Redoc's styles were not applied`)
    // The viewport only: the whole reference is too tall to capture.
    await page.screenshot({ path: path.join(screenshotDir, 'apidocs-api-reference.png') })

    assert.deepEqual(consoleErrors, [], 'no CSP violations or page errors')
    assert.deepEqual(foreign, [], 'nothing loaded from another origin')
  } finally {
    await browser.close()
  }
})
