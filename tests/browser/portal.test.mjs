// Browser tests of the portal and staff console (issue 5): Debian's
// Chromium, driven by playwright-core, against the real ferry binary on
// real PostgreSQL and Kafka. Run by `scripts/frontend.sh test` (make test).
// Screenshots of the main pages go to tests/screenshots/ (git-ignored).
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { ApiClient, assertAccessible, launchBrowser, nav, PASSWORD, shot, signUp, Stack, totp, uniq, waitFor } from './harness.mjs'

const TEST_TIMEOUT = 60_000
let stack

before(async () => {
  stack = new Stack()
  await stack.start()
}, { timeout: 90_000 })

after(async () => {
  await stack?.stop()
}, { timeout: 30_000 })

/** createEndpoint adds an endpoint through the form and returns its id. */
async function createEndpoint(page, url, description) {
  await nav(page, 'Endpoints')
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  await page.getByLabel('URL', { exact: true }).fill(url)
  await page.getByLabel('Description', { exact: true }).fill(description)
  await page.getByRole('button', { name: 'Create endpoint' }).click()
  await page.waitForURL(/\/endpoints\/[0-9a-f-]{36}/)
  return new URL(page.url()).pathname.split('/').pop()
}

/** sendTestEvent presses "Send test event" and opens the event's page. */
async function sendTestEvent(page) {
  await page.getByRole('button', { name: 'Send test event' }).click()
  const link = page.locator('p', { hasText: 'Test event' }).locator('a[href^="/events/"]')
  await link.waitFor()
  const href = await link.getAttribute('href')
  await link.click()
  await page.getByRole('heading', { name: 'ferry.test', level: 1 }).waitFor()
  return href.split('/').pop()
}

const attempts = (page) => page.getByTestId('attempt')

test('(a) sign up, create an API key and an endpoint, send a test event, see the successful attempt', { timeout: TEST_TIMEOUT }, async () => {
  const b = await launchBrowser()
  const { page } = b
  try {
    const org = `Acme ${uniq()}`
    await page.goto(stack.baseURL + '/signup')
    await shot(page, 'a', '01-signup')
    await assertAccessible(page, 'the sign-up page')
    await signUp(stack, page, org, `owner-${uniq()}@acme.test`)
    await shot(page, 'a', '02-dashboard-empty')

    // API key: shown once, with a copy button; it works against the API.
    await nav(page, 'API keys')
    assert.match(await page.title(), /^API keys · Ferry/)
    await page.getByLabel('Key name').fill('billing backend')
    await page.getByRole('button', { name: 'Create key' }).click()
    const key = (await page.getByTestId('new-api-key').textContent()).trim()
    assert.match(key, /^fry_/)
    await page.getByRole('button', { name: 'Copy key' }).waitFor()
    await page.getByRole('cell', { name: 'billing backend' }).waitFor()
    await shot(page, 'a', '03-api-key-created')

    // A refused action shows the API's error message.
    await nav(page, 'Endpoints')
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await page.getByLabel('URL', { exact: true }).fill('ftp://files.acme.test/hook')
    await page.getByRole('button', { name: 'Create endpoint' }).click()
    await page.getByRole('alert').getByText('url must use https').waitFor()
    await shot(page, 'a', '04-endpoint-error')
    await page.getByRole('button', { name: 'Cancel' }).click()

    // Endpoint to the local receiver.
    const endpointId = await createEndpoint(page, stack.receiver.base + '/a/ok', 'Acme production receiver')
    await page.getByText('Endpoint created').waitFor()
    await page.getByRole('button', { name: 'Reveal secret' }).click()
    assert.match((await page.getByTestId('secret').textContent()).trim(), /^whsec_/)
    await shot(page, 'a', '04-endpoint')
    await assertAccessible(page, 'the endpoint page')

    // Test event: the attempt succeeds and the receiver got a signed request.
    const eventId = await sendTestEvent(page)
    const ok = attempts(page).filter({ hasText: 'success' }).filter({ hasText: 'HTTP 200' })
    await ok.first().waitFor({ timeout: 30_000 })
    await page.getByTestId('delivery').getByText('succeeded').waitFor()
    const got = stack.receiver.requests.find((r) => r.path === '/a/ok' && r.headers['webhook-id'] === eventId)
    assert.ok(got, 'receiver got the test event')
    assert.match(got.headers['webhook-signature'], /^v1,/)
    await ok.first().locator('summary').click()
    await page.getByTestId('response-body').first().waitFor()
    // Replay just this delivery: it asks first, then a second,
    // replay-triggered success.
    await page.getByRole('button', { name: /^Replay delivery to / }).click()
    const askOne = page.getByRole('group', { name: `Replay this delivery to ${stack.receiver.base}/a/ok?` })
    await askOne.waitFor()
    assert.match(await askOne.textContent(), /succeeded after 1 attempt/)
    await assertAccessible(page, 'the delivery replay confirmation')
    await askOne.getByRole('button', { name: 'Yes, replay this delivery' }).click()
    await page.getByText('Delivery replay queued').waitFor()
    await attempts(page).filter({ hasText: 'replay' }).filter({ hasText: 'HTTP 200' }).first().waitFor({ timeout: 20_000 })
    await shot(page, 'a', '05-event-success')
    await assertAccessible(page, 'the event page')

    // The API key sends an event that shows in the events list.
    const r = await fetch(stack.baseURL + '/api/v1/events', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'invoice.paid', data: { invoice: 'in_123', amount: 4200 } }),
    })
    assert.equal(r.status, 202)
    await nav(page, 'Events')
    await page.getByRole('link', { name: 'invoice.paid' }).waitFor()
    await shot(page, 'a', '06-events')
    await assertAccessible(page, 'the events page')

    // Revoking the key: it shows as revoked and the API refuses it.
    await nav(page, 'API keys')
    await page.getByRole('button', { name: 'Revoke' }).click()
    await page.getByRole('button', { name: 'Yes, revoke' }).click()
    await page.getByRole('cell', { name: 'revoked' }).waitFor()
    const refused = await fetch(stack.baseURL + '/api/v1/events', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'invoice.paid', data: {} }),
    })
    assert.equal(refused.status, 401)

    // Dashboard: the chart and the success rate.
    await waitFor(async () => {
      await nav(page, 'Dashboard')
      await page.getByTestId('stat-success').or(page.locator('.stat-value').first()).first().waitFor()
      return (await page.locator('svg[role="img"]').count()) > 0
    }, { timeout: 20_000, interval: 1000, what: 'the dashboard chart' })
    await shot(page, 'a', '07-dashboard')
    await assertAccessible(page, 'the dashboard')

    // Phone width: the same pages stay usable.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Menu' }).waitFor()
    await shot(page, 'a', '08-dashboard-phone')
    await assertAccessible(page, 'the dashboard at phone width')
    await page.goto(stack.baseURL + `/endpoints/${endpointId}`)
    await page.getByRole('button', { name: 'Send test event' }).waitFor()
    await shot(page, 'a', '09-endpoint-phone')
    for (const p of ['/', `/endpoints/${endpointId}`, `/events/${eventId}`, '/events', '/api-keys', '/members', '/replays']) {
      await page.goto(stack.baseURL + p)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }))
      assert.ok(scroll <= width, `${p} scrolls sideways at phone width (${scroll} > ${width})`)
    }
    // The menu button opens the navigation at phone width.
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events', exact: true }).click()
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor()

    // Edit, rotate the secret, disable/enable, then delete the endpoint.
    await page.setViewportSize({ width: 1280, height: 860 })
    await page.goto(stack.baseURL + `/endpoints/${endpointId}`)
    await page.getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Description', { exact: true }).fill('Acme receiver (edited)')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Endpoint saved.').waitFor()
    await page.getByText('Acme receiver (edited)').waitFor()
    await page.getByRole('button', { name: 'Rotate secret' }).click()
    await page.getByRole('button', { name: 'Yes, rotate' }).click()
    await page.getByText('Previous secret still valid until').waitFor()
    await page.getByRole('button', { name: 'Disable' }).click()
    await page.getByText('disabled', { exact: true }).first().waitFor()
    await page.getByRole('button', { name: 'Enable' }).click()
    await page.getByText('enabled', { exact: true }).first().waitFor()
    await shot(page, 'a', '10-endpoint-edited')
    await page.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('button', { name: 'Yes, delete endpoint' }).click()
    await page.getByText('No endpoints yet').waitFor()

    // Sign out ends the session: the portal shows the sign-in page.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor()
    await page.goto(stack.baseURL + '/endpoints')
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor()
    assert.deepEqual(b.consoleErrors, [])

    // Serving: deep links get index.html (uncached), hashed assets are
    // cached for a year, and a missing asset is a 404, not index.html.
    const deep = await fetch(stack.baseURL + `/events/${eventId}`)
    const html = await deep.text()
    assert.equal(deep.status, 200)
    assert.match(html, /<div id="root">/)
    assert.equal(deep.headers.get('cache-control'), 'no-cache')
    const asset = html.match(/\/assets\/[^"]+\.js/)[0]
    const a = await fetch(stack.baseURL + asset)
    assert.equal(a.status, 200)
    assert.match(a.headers.get('cache-control'), /max-age=31536000.*immutable/)
    assert.equal((await fetch(stack.baseURL + '/assets/missing-0000.js')).status, 404)
  } catch (e) {
    await shot(page, 'a', 'failure').catch(() => {})
    throw e
  } finally {
    await b.close()
  }
})

test('(b) failing endpoint: see the 500 attempts and body, fix the receiver, replay, see success', { timeout: TEST_TIMEOUT }, async () => {
  const b = await launchBrowser()
  const { page } = b
  try {
    await signUp(stack, page, `Globex ${uniq()}`, `ops-${uniq()}@globex.test`)
    await createEndpoint(page, stack.receiver.base + '/b/flaky', 'Globex flaky receiver')
    const eventId = await sendTestEvent(page)

    // Failed attempts show the status and the receiver's response body.
    // Wait for 8 of them: with FERRY_RETRY_SCALE=0.001 the next automatic
    // retry is then ~3 s away, so the replay below is what succeeds.
    const failed = attempts(page).filter({ hasText: 'HTTP 500' })
    await waitFor(async () => (await failed.count()) >= 8, { timeout: 30_000, what: 'eight failed attempts' })
    await page.getByTestId('delivery').getByText(/retrying|exhausted/).first().waitFor()
    await failed.first().locator('summary').click()
    await failed.first().getByTestId('response-body').getByText('receiver database is down').waitFor()
    await shot(page, 'b', '01-event-failing')

    // Fix the receiver, replay the event, and see the successful replay.
    stack.receiver.fix()
    await page.getByRole('button', { name: 'Replay to all endpoints' }).click()
    const askAll = page.getByRole('group', { name: 'Replay this event to its endpoint?' })
    assert.match(await askAll.textContent(), new RegExp(`again to ${stack.receiver.base}/b/flaky`))
    await askAll.getByRole('button', { name: 'Yes, replay to all endpoints' }).click()
    await page.getByText('replay queued', { exact: false }).waitFor()
    const replayed = attempts(page).filter({ hasText: 'HTTP 200' }).filter({ hasText: 'replay' })
    await replayed.first().waitFor({ timeout: 30_000 })
    await page.getByTestId('delivery').getByText('succeeded').waitFor({ timeout: 15_000 })
    assert.ok(stack.receiver.requests.some((r) => r.path === '/b/flaky' && r.headers['webhook-id'] === eventId))
    await shot(page, 'b', '02-event-replayed')

    // Bulk replay of the endpoint's succeeded deliveries, with progress.
    await nav(page, 'Replay')
    await page.getByLabel('Endpoint', { exact: true }).selectOption({ label: stack.receiver.base + '/b/flaky' })
    await page.getByLabel('Delivery status').selectOption('succeeded')
    const startBulk = page.getByRole('button', { name: 'Start bulk replay' })
    await startBulk.click()
    // It asks first, with a count made just now; a double click on "yes"
    // starts one job, and the form starts none while it runs.
    const askBulk = page.getByRole('group', { name: 'Replay 1 delivery?' })
    await askBulk.waitFor()
    await shot(page, 'b', '03-bulk-replay-confirm')
    await assertAccessible(page, 'the bulk replay confirmation')
    await askBulk.getByRole('button', { name: 'Yes, replay 1 delivery' }).dblclick()
    await page.getByRole('progressbar', { name: 'Replay progress' }).waitFor()
    await page.locator('.job').getByText('completed').waitFor({ timeout: 20_000 })
    const jobRows = page.getByRole('table').filter({ hasText: 'Progress' }).locator('tbody tr')
    await waitFor(async () => (await jobRows.count()) === 1, { what: 'the one job in the list' })
    await page.waitForTimeout(1000)
    assert.equal(await jobRows.count(), 1, 'one job per confirmation')
    await shot(page, 'b', '03-bulk-replay')
    await assertAccessible(page, 'the replay page')

    // Members: the owner invites a viewer, who gets an emailed link.
    await nav(page, 'Members')
    await page.getByLabel('Email', { exact: true }).fill(`viewer-${uniq()}@globex.test`)
    await page.getByLabel('Role', { exact: true }).selectOption('viewer')
    await page.getByRole('button', { name: 'Invite' }).click()
    await page.getByRole('region', { name: 'New member' }).getByText('was invited as viewer').waitFor()
    await shot(page, 'b', '04-members')
    await assertAccessible(page, 'the members page')

    // Billing (when the binary serves it): plan and usage against quota.
    const billing = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing', exact: true })
    if (await billing.count()) {
      await billing.click()
      await page.getByRole('progressbar', { name: 'Events this month' }).waitFor()
      await shot(page, 'b', '05-billing')
      await assertAccessible(page, 'the billing page')
    }
    assert.deepEqual(b.consoleErrors, [])
  } catch (e) {
    await shot(page, 'b', 'failure').catch(() => {})
    throw e
  } finally {
    await b.close()
  }
})

test('(t) transformation: edit it beside the filter, try it on a sample, save, and see the transformed delivery and a failure', { timeout: TEST_TIMEOUT }, async () => {
  const b = await launchBrowser()
  const { page } = b
  try {
    await signUp(stack, page, `Initech ${uniq()}`, `dev-${uniq()}@initech.test`)
    const endpointId = await createEndpoint(page, stack.receiver.base + '/d/ok', 'Initech Slack relay')
    await page.getByRole('button', { name: 'Edit' }).click()
    const editor = page.getByLabel('Transformation (JavaScript)', { exact: true })
    await editor.fill('function handler(webhook) {\n  webhook.payload = {text: "Event " + webhook.event.type};\n  webhook.headers["X-Relay"] = "slack";\n  return webhook;\n}')
    // Line numbers follow the code.
    assert.equal(await page.getByTestId('code-gutter').locator('span').count(), 8)

    // The test panel runs the unsaved transformation on the sample event.
    await page.getByLabel('Sample event type').fill('invoice.paid')
    await page.getByRole('button', { name: 'Test with this filter and transformation' }).click()
    await page.getByTestId('test-payload').getByText('"text": "Event invoice.paid"').waitFor()
    await page.getByTestId('test-headers').getByText('X-Relay: slack').waitFor()
    await shot(page, 't', '01-transformation-test')
    await assertAccessible(page, 'the endpoint editor with a transformation')

    // A syntax error is refused beside the field, with line and column.
    await editor.fill('function handler(w) {\n  return w +;\n}')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText(/Line 2:\d+/).first().waitFor()

    // Save a working one; a test event arrives transformed.
    await editor.fill('function handler(webhook) {\n  webhook.payload = {text: "Event " + webhook.event.type};\n  return webhook;\n}')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Endpoint saved.').waitFor()
    const eventId = await sendTestEvent(page)
    await attempts(page).filter({ hasText: 'HTTP 200' }).first().waitFor({ timeout: 30_000 })
    const got = stack.receiver.requests.find((r) => r.path === '/d/ok' && r.headers['webhook-id'] === eventId)
    assert.equal(got?.body, '{"text":"Event ferry.test"}')

    // A transformation that throws: the attempt says so, nothing is sent.
    await page.goto(stack.baseURL + `/endpoints/${endpointId}`)
    await page.getByRole('button', { name: 'Edit' }).click()
    await editor.fill('function handler(webhook) {\n  throw new Error("no channel configured");\n}')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Endpoint saved.').waitFor()
    const sent = () => stack.receiver.requests.filter((r) => r.path === '/d/ok').length
    const before = sent()
    await sendTestEvent(page)
    const failed = attempts(page).filter({ hasText: 'Transformation failed (no request made)' })
    await failed.first().waitFor({ timeout: 30_000 })
    await failed.first().locator('summary').click()
    await failed.first().getByText('no channel configured', { exact: false }).first().waitFor()
    await page.getByTestId('delivery').getByText('dropped').first().waitFor()
    assert.equal(sent(), before, 'no request for a failed transformation')
    await shot(page, 't', '02-transformation-error')
    await assertAccessible(page, 'an event with a transformation error')
    assert.deepEqual(b.consoleErrors, [])
  } catch (e) {
    await shot(page, 't', 'failure').catch(() => {})
    throw e
  } finally {
    await b.close()
  }
})

test('(c) staff find an event by id, find the tenant, replay with a reason, and the audit log shows it', { timeout: TEST_TIMEOUT }, async () => {
  // A tenant with an endpoint and a delivered event, set up over the API.
  const org = `Initech ${uniq()}`
  const tenant = new ApiClient(stack.baseURL)
  await tenant.signUp(stack, { email: `boss-${uniq()}@initech.test`, password: PASSWORD, organization: org })
  await tenant.call('POST', '/endpoints', { url: stack.receiver.base + '/c/ok', description: 'Initech receiver', event_types: [] })
  const ev = await tenant.call('POST', '/events', { type: 'order.shipped', data: { order: 'o_42' } })
  await waitFor(async () => (await tenant.call('GET', `/events/${ev.id}`)).deliveries?.[0]?.status === 'succeeded', { timeout: 30_000, what: 'the delivery' })

  const staffEmail = `support-${uniq()}@ferry.test`
  await stack.createStaff(staffEmail, PASSWORD)
  const reason = `Ticket #${uniq()}: customer restored their database`

  const b = await launchBrowser()
  const { page } = b
  try {
    await page.goto(stack.baseURL + '/login')
    // Keyboard only: type, Tab to the password, Enter submits.
    await page.getByLabel('Email').focus()
    await page.keyboard.type(staffEmail)
    await page.keyboard.press('Tab')
    await page.keyboard.type(PASSWORD)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor()

    // A ticket names an event id: find it across tenants; it opens in its tenant.
    await page.getByLabel('Find an event').fill('00000000-0000-4000-8000-000000000000')
    await page.getByRole('button', { name: 'Open event' }).click()
    await page.getByText('No event has the id', { exact: false }).waitFor()
    await page.getByLabel('Find an event').fill(ev.id)
    await page.getByRole('button', { name: 'Open event' }).click()
    await page.getByRole('heading', { name: 'order.shipped', level: 1 }).waitFor()
    await attempts(page).first().waitFor()
    await shot(page, 'c', '00-event-lookup')
    await nav(page, 'Tenants')
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor()

    await page.getByLabel('Search tenants').fill(org)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('link', { name: org }).click()
    await page.getByRole('heading', { name: org, level: 1 }).waitFor()
    await page.getByRole('link', { name: 'order.shipped' }).waitFor()
    await shot(page, 'c', '01-tenant')
    await assertAccessible(page, 'the staff tenant page')

    await page.getByRole('link', { name: 'order.shipped' }).click()
    await page.getByRole('heading', { name: 'order.shipped', level: 1 }).waitFor()
    await attempts(page).first().waitFor()
    // Without a reason it says so before asking anything.
    await page.getByRole('button', { name: 'Replay to all endpoints' }).click()
    await page.getByRole('alert').getByText('Enter a reason for the replay first').waitFor()
    assert.equal(await page.getByRole('group', { name: /^Replay this event/ }).count(), 0)
    await page.getByLabel('Reason for replay (audited)').fill(reason)
    await page.getByRole('button', { name: 'Replay to all endpoints' }).click()
    const ask = page.getByRole('group', { name: 'Replay this event to its endpoint?' })
    assert.match(await ask.textContent(), /Your reason is recorded in the audit log/)
    await ask.getByRole('button', { name: 'Yes, replay to all endpoints' }).click()
    await page.getByText('replay queued', { exact: false }).waitFor()
    await attempts(page).filter({ hasText: 'replay' }).filter({ hasText: 'HTTP 200' }).first().waitFor({ timeout: 30_000 })
    await shot(page, 'c', '02-event-replayed')
    await assertAccessible(page, 'the staff event page')

    await nav(page, 'Audit log')
    const row = page.getByTestId('audit-row').filter({ hasText: reason })
    await row.first().waitFor()
    assert.match(await row.first().textContent(), /replay/)
    assert.match(await row.first().textContent(), new RegExp(staffEmail.replace(/[.]/g, '\\.')))
    await shot(page, 'c', '03-audit-log')
    await assertAccessible(page, 'the audit log')

    // Where a second factor is optional (dev), staff enrol one on the
    // Account page; sign-in asks for its code from then on.
    await page.getByRole('link', { name: 'Account' }).click()
    const state = page.getByTestId('totp-state')
    await state.getByText('No authenticator is enrolled.').waitFor()
    await page.getByRole('button', { name: 'Set up an authenticator' }).click()
    const secret = (await page.locator('.secret code').textContent()).replace(/\s/g, '')
    await page.getByLabel('Code from the app').fill(totp(secret))
    await page.getByRole('button', { name: 'Confirm' }).click()
    await state.getByText('An authenticator is enrolled.').waitFor()
    await shot(page, 'c', '04-staff-account-totp')
    await assertAccessible(page, 'the staff account page')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByLabel('Email').fill(staffEmail)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByLabel('Authenticator code').fill(totp(secret, Date.now() + 30_000)) // the enrolment code works once
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor()
    assert.deepEqual(b.consoleErrors, [])
  } catch (e) {
    await shot(page, 'c', 'failure').catch(() => {})
    throw e
  } finally {
    await b.close()
  }
})

test('(q) a pull queue and an always-failing endpoint: readable names, no push-only fields, named delivery badges, honest stats', { timeout: TEST_TIMEOUT }, async () => {
  const b = await launchBrowser()
  const { page } = b
  try {
    await signUp(stack, page, `Soylent ${uniq()}`, `ops-${uniq()}@soylent.test`)
    // A queue without a description goes by "Pull queue" and its id.
    await nav(page, 'Endpoints')
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    await page.getByLabel('Kind').selectOption('queue')
    for (const label of ['URL', 'Timeout (seconds)', 'Rate limit (per second)']) assert.equal(await page.getByLabel(label, { exact: true }).count(), 0, `${label} on a queue's form`)
    await page.getByRole('button', { name: 'Create endpoint' }).click()
    await page.waitForURL(/\/endpoints\/[0-9a-f-]{36}/)
    const queueId = new URL(page.url()).pathname.split('/').pop()
    const queueName = `Pull queue ${queueId.slice(0, 8)}`
    await page.getByRole('heading', { name: queueName, level: 1 }).waitFor()
    const settings = page.locator('.card').filter({ has: page.getByRole('heading', { name: 'Settings' }) })
    const terms = await settings.locator('dt').allTextContents()
    for (const t of ['Timeout', 'Rate limit', 'Format', 'Transformation']) assert.ok(!terms.includes(t), `a queue shows ${t}: ${terms}`)
    await shot(page, 'q', '01-queue-endpoint')
    await assertAccessible(page, 'a queue endpoint page')

    // An endpoint that always answers 500: it retries, nothing finishes.
    const downId = await createEndpoint(page, stack.receiver.base + '/q/down', 'Always down')
    const eventId = await sendTestEvent(page)
    await attempts(page).filter({ hasText: 'HTTP 500' }).first().waitFor({ timeout: 30_000 })
    await page.goto(stack.baseURL + `/endpoints/${downId}`)
    const summary = page.getByTestId('deliveries-summary')
    await waitFor(async () => /^No delivery has finished yet; \d+ retrying\.$/.test(await summary.textContent()), { what: 'the retrying summary' })
    assert.doesNotMatch(await page.locator('main').textContent(), /— succeeded/)
    await shot(page, 'q', '02-failing-endpoint-stats')

    // The events list names each delivery's endpoint on its badge; the
    // test event went to the endpoint it was sent from only, not to the
    // queue (which takes every type).
    await nav(page, 'Events')
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'ferry.test' }) })
    await row.getByTestId('delivery-badge').first().waitFor()
    const badges = (await row.getByTestId('delivery-badge').locator('.delivery-badge-name').allTextContents()).sort()
    assert.deepEqual(badges, ['Always down'])
    assert.match(await row.getByTestId('delivery-badge').filter({ hasText: 'Always down' }).getAttribute('title'), new RegExp(`^${stack.receiver.base}/q/down: retrying after \\d+ attempts?$`))
    await shot(page, 'q', '03-events-badges')
    await assertAccessible(page, 'the events page with named badges')

    // The event page names its one delivery's endpoint, and the replay
    // form names the queue too.
    await page.goto(stack.baseURL + `/events/${eventId}`)
    await page.getByRole('button', { name: `Replay delivery to ${stack.receiver.base}/q/down` }).waitFor()
    await nav(page, 'Replay')
    const options = await page.getByLabel('Endpoint', { exact: true }).locator('option').allTextContents()
    assert.ok(options.includes(queueName) && options.every((o) => o.trim() !== ''), `endpoint choices: ${options}`)
    assert.deepEqual(b.consoleErrors, [])
  } catch (e) {
    await shot(page, 'q', 'failure').catch(() => {})
    throw e
  } finally {
    await b.close()
  }
})
