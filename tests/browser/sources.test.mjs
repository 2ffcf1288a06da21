// Browser test of the inbound source pages (issue 16): a tenant creates a
// GitHub-verified source in the portal, a "provider" (Node's fetch and
// crypto) sends a correctly signed and a tampered request to its ingest
// URL, and the tenant sees both captures, inspects the exact body and
// headers, replays the verified one to a raw-format endpoint, rotates the
// URL, and deletes the source. Screenshots go to tests/screenshots/.
import assert from 'node:assert/strict'
import { createHmac, randomUUID } from 'node:crypto'
import { after, before, test } from 'node:test'
import { assertAccessible, launchBrowser, nav, shot, signUp, Stack, uniq, waitFor } from './harness.mjs'

const TEST_TIMEOUT = 90_000
let stack

before(async () => {
  stack = new Stack()
  await stack.start()
}, { timeout: 90_000 })

after(async () => {
  await stack?.stop()
}, { timeout: 30_000 })

async function noSidewaysScroll(page, what) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }))
  assert.ok(scroll <= width, `${what} scrolls sideways at phone width (${scroll} > ${width})`)
}

/** github sends body to url as GitHub would, signed with secret (X-Hub-Signature-256). */
function github(url, body, secret, { tamper = false } = {}) {
  const signature = 'sha256=' + createHmac('sha256', secret).update(body).digest('hex')
  const sent = tamper ? body.replace('"opened"', '"closed"') : body
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'GitHub-Hookshot/ferry-test',
    'X-GitHub-Event': 'pull_request',
    'X-GitHub-Delivery': randomUUID(),
    'X-Hub-Signature-256': signature,
  }
  return { headers, sent, response: fetch(url + '?via=hookshot', { method: 'POST', headers, body: sent }) }
}

test('(s) a GitHub source: create it, send signed and tampered requests, inspect, replay, rotate, delete', { timeout: TEST_TIMEOUT }, async () => {
  const b = await launchBrowser()
  const { page } = b
  try {
    await signUp(stack, page, `Hooli ${uniq()}`, `dev-${uniq()}@hooli.test`)

    // A raw-format endpoint: it gets the provider's body as sent.
    await nav(page, 'Endpoints')
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await page.getByLabel('URL', { exact: true }).fill(stack.receiver.base + '/s/ok')
    await page.getByLabel('Format', { exact: true }).selectOption('raw')
    await page.getByRole('button', { name: 'Create endpoint' }).click()
    await page.waitForURL(/\/endpoints\/[0-9a-f-]{36}/)
    await page.getByText('raw (the original body and content type)').waitFor()

    // Empty state explains what a source is.
    await nav(page, 'Sources')
    assert.match(await page.title(), /^Sources · Ferry/)
    await page.getByText('No sources yet').waitFor()
    await page.getByText('verifies each request\'s signature', { exact: false }).waitFor()
    await shot(page, 's', '01-sources-empty')
    await assertAccessible(page, 'the empty sources page')

    // The form: GitHub shows only a secret, with where GitHub shows it.
    const secret = `gh-${uniq()}-secret`
    await page.getByRole('button', { name: 'Add source' }).click()
    await page.getByLabel('Name', { exact: true }).fill('GitHub: hooli/nucleus')
    assert.equal(await page.getByLabel('Sender').inputValue(), 'github')
    await page.getByText('Settings → Webhooks', { exact: false }).waitFor()
    assert.equal(await page.getByLabel('Username').count(), 0)
    assert.equal(await page.getByLabel('Event type header').inputValue(), 'X-GitHub-Event')
    assert.equal(await page.getByLabel('Duplicate key header').inputValue(), 'X-GitHub-Delivery')
    // A refused field shows its message once, beside the field.
    await page.getByLabel('Duplicate key header').fill('not a header')
    await page.getByLabel('Signing secret').fill(secret)
    await page.getByRole('button', { name: 'Create source' }).click()
    await page.getByRole('alert').getByText('The header must be a valid HTTP header name.').waitFor()
    assert.equal(await page.getByRole('alert').count(), 1)
    await page.getByLabel('Duplicate key header').fill('X-GitHub-Delivery')
    await shot(page, 's', '02-source-form')
    await assertAccessible(page, 'the source form')
    await page.getByRole('button', { name: 'Create source' }).click()
    await page.waitForURL(/\/sources\/[0-9a-f-]{36}/)
    const sourceId = new URL(page.url()).pathname.split('/').pop()
    await page.getByText('Source created.').waitFor()
    const ingestURL = (await page.getByTestId('ingest-url').textContent()).trim()
    assert.ok(ingestURL.startsWith(stack.baseURL + '/in/src_'), ingestURL)
    await page.getByRole('button', { name: 'Copy URL' }).waitFor()
    await page.getByText('No requests yet').waitFor()

    // The provider sends a signed request and a tampered one.
    const body = JSON.stringify({ action: 'opened', number: 42, pull_request: { title: 'Café ✓ — fix the build' }, repository: { full_name: 'hooli/nucleus' } })
    const good = github(ingestURL, body, secret)
    assert.equal((await good.response).status, 200)
    const bad = github(ingestURL, body, secret, { tamper: true })
    assert.equal((await bad.response).status, 401)

    // Both show in the list: verified (once its event is made, right
    // after the answer) and rejected.
    const rows = page.getByTestId('source-request')
    await waitFor(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click()
      return (await rows.count()) === 2 && (await rows.filter({ hasText: 'verified' }).count()) === 1
    }, { timeout: 10_000, what: 'two captured requests, one verified' })
    await rows.filter({ hasText: 'rejected' }).filter({ hasText: 'signature does not match' }).waitFor()
    await page.getByLabel('Status', { exact: true }).selectOption('rejected')
    await waitFor(async () => (await rows.count()) === 1 && (await rows.first().textContent()).includes('rejected'), { what: 'the rejected filter' })
    await page.getByLabel('Status', { exact: true }).selectOption('')
    await waitFor(async () => (await rows.count()) === 2, { what: 'all requests again' })
    await shot(page, 's', '03-source-requests')
    await assertAccessible(page, 'the source page')

    // The rejected one: why, and no replay.
    await rows.filter({ hasText: 'rejected' }).getByRole('link').first().click()
    await page.getByRole('heading', { name: 'POST request', level: 1 }).waitFor()
    await page.getByTestId('verification').getByText('signature does not match', { exact: false }).waitFor()
    assert.equal(await page.getByRole('button', { name: 'Replay' }).count(), 0)
    await page.getByText('rejected requests are never forwarded', { exact: false }).waitFor()
    await page.goBack()

    // The inspector shows the verified request exactly as received.
    await rows.filter({ hasText: 'verified' }).getByRole('link').first().click()
    await page.getByRole('heading', { name: 'POST request', level: 1 }).waitFor()
    const requestURL = page.url()
    const props = page.getByTestId('verification')
    await props.getByText('/in/{token}').waitFor()
    await props.getByText('via=hookshot').waitFor()
    await page.getByRole('button', { name: 'As received' }).click()
    assert.equal(await page.getByTestId('request-body').textContent(), body)
    await page.getByRole('button', { name: 'Formatted' }).click()
    assert.equal(await page.getByTestId('request-body').textContent(), JSON.stringify(JSON.parse(body), null, 2))
    const headerTable = page.getByTestId('request-headers')
    const header = async (name) => (await headerTable.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) }).getByRole('cell').nth(1).textContent())
    assert.equal(await header('X-Hub-Signature-256'), good.headers['X-Hub-Signature-256'])
    assert.equal(await header('X-Github-Event'), 'pull_request')
    assert.equal(await header('X-Github-Delivery'), good.headers['X-GitHub-Delivery'])
    assert.equal(await header('Content-Type'), 'application/json')
    assert.equal(await header('User-Agent'), 'GitHub-Hookshot/ferry-test')

    // The event it became, delivered to the raw endpoint.
    await waitFor(async () => {
      await page.reload()
      await page.getByRole('heading', { name: 'POST request', level: 1 }).waitFor()
      return (await page.getByRole('list', { name: 'Deliveries' }).getByText('succeeded').count()) > 0
    }, { timeout: 30_000, interval: 1000, what: 'the delivery of the event' })
    await page.getByRole('link', { name: 'pull_request' }).waitFor()
    const delivered = stack.receiver.requests.filter((r) => r.path === '/s/ok')
    assert.equal(delivered.length, 1)
    assert.equal(delivered[0].body, body)
    assert.equal(delivered[0].headers['content-type'], 'application/json')
    await shot(page, 's', '04-request-inspector')
    await assertAccessible(page, 'the request inspector')

    // Replay: a new event, forwarded again (dedupe does not apply).
    await page.getByRole('button', { name: 'Replay' }).click()
    await page.getByText('Replayed as a new event').waitFor()
    const replayHref = await page.getByRole('status').getByRole('link').getAttribute('href')
    await waitFor(() => stack.receiver.requests.filter((r) => r.path === '/s/ok').length === 2, { timeout: 20_000, what: 'the replayed delivery' })
    assert.equal(stack.receiver.requests.filter((r) => r.path === '/s/ok')[1].body, body)
    await page.getByRole('status').getByRole('link').click()
    await page.getByRole('heading', { name: 'pull_request', level: 1 }).waitFor()
    assert.equal(new URL(page.url()).pathname, replayHref)

    // A body that is not UTF-8 shows as hex, with the exact base64.
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x80, 0x0a])
    const binary = await fetch(ingestURL, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/octet-stream', 'X-GitHub-Event': 'ping', 'X-GitHub-Delivery': randomUUID(),
        'X-Hub-Signature-256': 'sha256=' + createHmac('sha256', secret).update(bytes).digest('hex'),
      },
      body: bytes,
    })
    assert.equal(binary.status, 200)
    await page.goto(stack.baseURL + `/sources/${sourceId}`)
    await waitFor(async () => (await rows.count()) === 3, { timeout: 15_000, what: 'the third request' })
    await rows.first().getByRole('link').first().click()
    await page.getByTestId('request-body-hex').getByText('00000000  ff fe 00 41 80 0a').waitFor()
    await page.getByText('Base64', { exact: true }).click()
    assert.equal(await page.getByTestId('request-body-base64').textContent(), bytes.toString('base64'))
    await page.getByText('not UTF-8 text', { exact: false }).waitFor()

    // Phone width: content first, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(requestURL)
    await page.getByRole('heading', { name: 'POST request', level: 1 }).waitFor()
    await page.getByTestId('request-body').waitFor()
    await shot(page, 's', '05-request-inspector-phone')
    await noSidewaysScroll(page, 'the request inspector')
    await assertAccessible(page, 'the request inspector at phone width')
    await page.goto(stack.baseURL + `/sources/${sourceId}`)
    await rows.first().waitFor()
    await shot(page, 's', '06-source-phone')
    await noSidewaysScroll(page, 'the source page')
    await page.goto(stack.baseURL + '/sources')
    await page.getByRole('link', { name: 'GitHub: hooli/nucleus' }).waitFor()
    await shot(page, 's', '07-sources-phone')
    await noSidewaysScroll(page, 'the sources page')
    await page.getByRole('button', { name: 'Add source' }).click()
    await page.getByLabel('Sender').selectOption('hmac_sha256')
    await page.getByLabel('Signature header').waitFor()
    await shot(page, 's', '08-source-form-phone')
    await noSidewaysScroll(page, 'the source form')
    await assertAccessible(page, 'the source form at phone width')
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.setViewportSize({ width: 1280, height: 860 })
    await page.reload()
    await page.getByRole('link', { name: 'GitHub: hooli/nucleus' }).waitFor()
    await page.getByRole('cell', { name: 'enabled' }).waitFor()
    // The provider's requests above show as the last request's age.
    await page.getByRole('cell', { name: /ago|just now/ }).waitFor()
    assert.equal((await page.getByTestId('ingest-url').textContent()).trim(), ingestURL)
    await shot(page, 's', '09-sources')
    await assertAccessible(page, 'the sources page')

    // Rotate the URL: the new one is shown and the old one stops working.
    await page.getByRole('link', { name: 'GitHub: hooli/nucleus' }).click()
    await page.getByRole('button', { name: 'Rotate URL' }).click()
    await page.getByRole('button', { name: 'Yes, rotate URL' }).click()
    await page.getByText('The old URL no longer works', { exact: false }).waitFor()
    const rotated = (await page.getByTestId('ingest-url').textContent()).trim()
    assert.notEqual(rotated, ingestURL)
    assert.equal((await github(ingestURL, body, secret).response).status, 404)
    assert.equal((await github(rotated, body, secret).response).status, 200)

    // Disable, enable, edit, delete.
    await page.getByRole('button', { name: 'Disable' }).click()
    await page.getByText('Source disabled', { exact: false }).waitFor()
    assert.equal((await github(rotated, body, secret).response).status, 404)
    await page.getByRole('button', { name: 'Enable' }).click()
    await page.getByText('Source enabled.').waitFor()
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Name', { exact: true }).fill('GitHub: hooli/core')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Source saved.').waitFor()
    await page.getByRole('heading', { name: 'GitHub: hooli/core', level: 1 }).waitFor()
    // The secret was kept (left empty in the form): signed requests still pass.
    assert.equal((await github(rotated, body, secret).response).status, 200)
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('button', { name: 'Yes, delete source' }).click()
    await page.getByText('No sources yet').waitFor()
    assert.deepEqual(b.consoleErrors, [])
  } catch (e) {
    await shot(page, 's', 'failure').catch(() => {})
    throw e
  } finally {
    await b.close()
  }
})
