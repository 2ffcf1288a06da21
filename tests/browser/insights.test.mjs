// Browser tests of what the portal and the staff console tell about a
// tenant (issue 14): staff lookup by event id, endpoints named by URL and
// their attempt log, tenant usage and health, the audit log's filters;
// the portal's dashboard (desktop and phone), bulk replay preview count
// and jobs list, billing limit warnings and notification preferences.
// Every figure asserted comes from data the test created over the API.
// Run by `scripts/frontend.sh test`; screenshots in tests/screenshots/.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { ApiClient, assertAccessible, launchBrowser, nav, PASSWORD, shot, Stack, uniq, waitFor } from './harness.mjs'

const TEST_TIMEOUT = 120_000
let stack

before(async () => {
  stack = new Stack()
  await stack.start()
}, { timeout: 90_000 })

after(async () => {
  await stack?.stop()
}, { timeout: 30_000 })

async function login(page, email) {
  await page.goto(stack.baseURL + '/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

const text = async (locator) => (await locator.textContent()).replace(/\s+/g, ' ').trim()

/**
 * tenantWithHistory signs a tenant up on the free plan (3 endpoints,
 * 10,000 events a month) and gives it a known history: ok endpoint with
 * `ok` deliveries that succeed, a refusing endpoint with `refused`
 * deliveries dropped at once (it is then failing), and a disabled third
 * endpoint. It waits until every delivery is final.
 */
async function tenantWithHistory(name, { ok, refused }) {
  const email = `${name.toLowerCase()}-${uniq()}@${name.toLowerCase()}.test`
  const org = `${name} ${uniq()}`
  const api = new ApiClient(stack.baseURL)
  const me = await api.signUp(stack, { email, password: PASSWORD, organization: org })
  const p = `/${name.toLowerCase()}-${uniq()}`
  const okEp = await api.call('POST', '/endpoints', { url: `${stack.receiver.base}${p}/ok`, description: 'orders', event_types: ['ok.*'] })
  const badEp = await api.call('POST', '/endpoints', { url: `${stack.receiver.base}${p}/refuse`, description: 'legacy', event_types: ['bad.*'] })
  // Its receiver is told apart by a token in the query, which staff see redacted.
  const offEp = await api.call('POST', '/endpoints', { url: `${stack.receiver.base}${p}/off/ok?token=off-secret-${uniq()}`, description: 'old', event_types: ['off.*'] })
  await api.call('PATCH', `/endpoints/${offEp.id}`, { enabled: false })
  const events = []
  for (let i = 0; i < ok; i++) events.push(await api.call('POST', '/events', { type: 'ok.placed', data: { n: i } }))
  const bad = []
  for (let i = 0; i < refused; i++) bad.push(await api.call('POST', '/events', { type: 'bad.placed', data: { n: i } }))
  await waitFor(async () => {
    const page = await api.call('GET', '/events?limit=100')
    const ds = page.data.filter((e) => !e.type.startsWith('ferry.')).flatMap((e) => e.deliveries ?? [])
    return ds.length === ok + refused && ds.every((d) => d.status === 'succeeded' || d.status === 'dropped')
  }, { timeout: 30_000, what: `the ${ok + refused} deliveries of ${org}` })
  return { api, email, org, tenantId: me.tenant.id, okEp, badEp, offEp, events, bad }
}

test('(f) staff: lookup by event id, endpoint by URL and its attempt log, tenant usage and health, audit log filters', { timeout: TEST_TIMEOUT }, async () => {
  const t = await tenantWithHistory('Umbrella', { ok: 3, refused: 1 })
  const staffEmail = `helpdesk-${uniq()}@ferry.test`
  await stack.createStaff(staffEmail, PASSWORD)
  const reason = `Ticket #${uniq()}: receiver fixed`

  const b = await launchBrowser()
  const { page } = b
  try {
    await login(page, staffEmail)
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor()

    // Lookup by the refused event's id: it opens in its tenant, and the
    // delivery names its endpoint by URL, linking to that endpoint's log.
    await page.getByLabel('Find an event').fill(t.bad[0].id)
    await page.getByRole('button', { name: 'Open event' }).click()
    await page.getByRole('heading', { name: 'bad.placed', level: 1 }).waitFor()
    const delivery = page.getByTestId('delivery')
    await delivery.locator('header').getByText('dropped').waitFor()
    const epLink = delivery.getByRole('link', { name: t.badEp.url })
    await epLink.waitFor()
    assert.equal(await page.getByText(t.badEp.id, { exact: true }).count(), 0, 'the endpoint is named by URL, not by id')
    await shot(page, 'f', '01-staff-event-lookup')
    await assertAccessible(page, 'the staff event page')

    await epLink.click()
    await page.getByRole('heading', { name: t.badEp.url, level: 1 }).waitFor()
    await page.getByTestId('attempt').filter({ hasText: 'HTTP 400' }).first().waitFor()
    assert.equal(await page.getByTestId('attempt').count(), 1, 'one attempt to the refusing endpoint')
    assert.match(await text(page.locator('main')), /failing/)
    await shot(page, 'f', '02-staff-endpoint-attempts')
    await assertAccessible(page, 'the staff endpoint page')

    // Tenant usage and health, from the server's figures.
    await page.getByRole('link', { name: `← ${t.org}` }).click()
    await page.getByRole('heading', { name: t.org, level: 1 }).waitFor()
    const health = page.getByTestId('tenant-health')
    await health.waitFor()
    assert.equal(await text(page.getByTestId('health-plan')), 'Free')
    assert.equal(await text(page.getByTestId('health-events')), '4')
    assert.match(await text(health), /of 10,000 \(hard cap\)/)
    assert.equal(await text(page.getByTestId('health-endpoints')), '3 of 3')
    assert.match(await text(health), /2 enabled · 1 disabled · 1 failing/)
    assert.equal(await text(page.getByTestId('health-success')), '75.0%')
    assert.match(await text(health), /3 of 4 deliveries finished/)
    assert.equal(await text(page.getByTestId('health-backlog')), '0')
    assert.match(await text(page.getByTestId('health-restriction')), /Not restricted/)
    // Endpoints by URL, each linking to its attempt log; a token in a
    // URL's query reads [redacted], literally.
    const redactedOff = t.offEp.url.replace(/token=[^&]+/, 'token=[redacted]')
    for (const [ep, name] of [[t.okEp, t.okEp.url], [t.badEp, t.badEp.url], [t.offEp, redactedOff]]) {
      assert.equal(await page.getByRole('link', { name, exact: true }).getAttribute('href'), `/staff/tenants/${t.tenantId}/endpoints/${ep.id}`)
    }
    const shown = await text(page.locator('main'))
    assert.ok(!shown.includes('off-secret-') && !shown.includes('%5Bredacted%5D'), `the staff tenant page: ${shown}`)
    await shot(page, 'f', '03-staff-tenant-health')
    await assertAccessible(page, 'the staff tenant page')

    // A bulk replay with a reason: the preview counts the 3 succeeded.
    const form = page.getByRole('form', { name: 'Bulk replay' })
    await form.getByLabel('Delivery status').selectOption('succeeded')
    await form.getByLabel('Reason').fill(reason)
    await waitFor(async () => (await text(form.getByTestId('replay-preview'))) === '3 deliveries match; starting replays them.', { what: 'the staff preview count' })
    await form.getByRole('button', { name: 'Start bulk replay' }).click()
    const ask = page.getByRole('group', { name: 'Replay 3 deliveries?' })
    assert.match(await text(ask), /status succeeded, to every endpoint/)
    assert.match(await text(ask), /Your reason is recorded in the audit log/)
    await assertAccessible(page, 'the staff bulk replay confirmation')
    await ask.getByRole('button', { name: 'Yes, replay 3 deliveries' }).click()
    await page.locator('.job').getByText('completed').waitFor({ timeout: 30_000 })

    // The audit log opens on changes: the replay, naming the tenant in full.
    await nav(page, 'Audit log')
    const rows = page.getByTestId('audit-row')
    await rows.first().waitFor()
    const first = await text(rows.first())
    assert.match(first, /change replay/)
    assert.ok(first.includes(reason), first)
    assert.ok(first.includes(t.org) && first.includes(t.tenantId), `tenant named in full: ${first}`)
    assert.equal(await rows.count(), 1, 'changes only: views are hidden by default')
    await shot(page, 'f', '04-audit-changes')
    await assertAccessible(page, 'the audit log')

    // Views: the tenant view, event view and endpoint attempts, one kind.
    await page.getByRole('button', { name: 'Views' }).click()
    await page.waitForURL(/kind=read/)
    await waitFor(async () => (await rows.count()) >= 4 && !(await text(page.locator('table'))).includes('change'), { what: 'view entries only' })
    await page.getByLabel('Action').selectOption('endpoint.attempts')
    await page.getByRole('button', { name: 'Filter' }).click()
    await waitFor(async () => (await rows.count()) === 1, { what: 'one endpoint.attempts entry' })
    assert.match(await text(rows.first()), /endpoint\.attempts/)
    await shot(page, 'f', '05-audit-views-filtered')

    // All kinds, by actor and tenant; a time range before anything is empty.
    await page.getByRole('button', { name: 'All' }).click()
    await page.getByLabel('Action').selectOption('')
    await page.getByLabel('Staff member').fill('nobody-else')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('No staff actions match').waitFor()
    await page.getByLabel('Staff member').fill(staffEmail.split('@')[0])
    await page.getByLabel('Tenant id').fill(t.tenantId)
    await page.getByRole('button', { name: 'Filter' }).click()
    await waitFor(async () => (await rows.count()) >= 5, { what: 'every entry about the tenant by this staff member' })
    for (const r of await rows.all()) assert.ok((await text(r)).includes(t.org), 'each entry names the tenant')
    await page.getByLabel('Until').fill('2020-01-01T00:00')
    await page.getByRole('button', { name: 'Filter' }).click()
    await page.getByText('No staff actions match').waitFor()
    await shot(page, 'f', '06-audit-filters-empty')
    assert.deepEqual(b.consoleErrors, [])
  } catch (e) {
    await shot(page, 'f', 'failure').catch(() => {})
    throw e
  } finally {
    await b.close()
  }
})

test('(g) portal: dashboard on desktop and phone, bulk replay preview and jobs list, billing limits, notification preferences', { timeout: TEST_TIMEOUT }, async () => {
  // A new user first: the empty dashboard says what to do, nothing more.
  const b = await launchBrowser()
  const { page } = b
  try {
    const fresh = new ApiClient(stack.baseURL)
    const freshEmail = `new-${uniq()}@hooli.test`
    await fresh.signUp(stack, { email: freshEmail, password: PASSWORD, organization: `Hooli ${uniq()}` })
    await login(page, freshEmail)
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()
    await page.getByText('No endpoints yet').waitFor()
    assert.doesNotMatch(await text(page.locator('main')), /healthy/, 'an empty dashboard claims no health')
    await shot(page, 'g', '01-dashboard-empty')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor()

    // 4 succeeded and 2 dropped deliveries, 3 endpoints (the free plan's limit).
    const t = await tenantWithHistory('Vandelay', { ok: 4, refused: 2 })
    await login(page, t.email)
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()
    const dashboard = async (what) => {
      await waitFor(async () => (await text(page.getByTestId('stat-deliveries'))) === '6', { what: `6 deliveries on the dashboard (${what})` })
      assert.equal(await text(page.getByTestId('stat-success')), '66.7%')
      assert.equal(await text(page.getByTestId('stat-backlog')), '0')
      assert.match(await text(page.locator('main')), /2 failed for good/)
      assert.ok((await text(page.locator('main'))).includes(t.badEp.url), 'the failing endpoint needs attention')
      assert.ok((await page.locator('svg[role="img"]').count()) > 0, 'the chart')
    }
    await dashboard('desktop')
    await shot(page, 'g', '02-dashboard-desktop')
    await assertAccessible(page, 'the dashboard')
    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()
    await dashboard('phone')
    const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }))
    assert.ok(scroll <= width, `the dashboard scrolls sideways at phone width (${scroll} > ${width})`)
    // The endpoints needing attention are one card each: the health badge
    // is on screen, not behind a sideways scroll.
    const badge = await page.locator('table.stack').getByText('failing', { exact: true }).boundingBox()
    assert.ok(badge && badge.x + badge.width <= width, `the failing badge is off screen at phone width: ${JSON.stringify(badge)}`)
    await shot(page, 'g', '03-dashboard-phone')
    await assertAccessible(page, 'the dashboard at phone width')
    await page.setViewportSize({ width: 1280, height: 860 })

    // Billing: 3 of 3 endpoints warns; 6 events of 10,000; one number format.
    await nav(page, 'Billing')
    await page.getByTestId('endpoint-limit').waitFor()
    assert.match(await text(page.getByTestId('endpoint-limit')), /^3 of 3 endpoints: the Free plan allows no more\. Upgrade/)
    assert.equal(await page.getByTestId('quota-near').count(), 0, 'no quota warning at 6 of 10,000')
    await page.getByText('6 of 10,000 included').waitFor()
    await page.getByText('6 of 10,000 (0%)').waitFor()
    assert.match(await text(page.getByTestId('attempts-note')), /every few minutes/)
    await shot(page, 'g', '04-billing-limit')
    await assertAccessible(page, 'the billing page')

    // Notification preferences: saved and still there after a reload.
    await page.getByRole('link', { name: 'Account' }).click()
    await page.getByRole('heading', { name: 'Notifications' }).waitFor()
    const quota = page.getByRole('checkbox', { name: /Monthly quota/ })
    const health = page.getByRole('checkbox', { name: /Endpoint health/ })
    assert.equal(await quota.isChecked(), true)
    await quota.uncheck()
    await page.getByRole('button', { name: 'Save notifications' }).click()
    await page.getByText('Saved.').waitFor()
    await page.reload()
    await page.getByRole('heading', { name: 'Notifications' }).waitFor()
    await waitFor(async () => (await quota.count()) === 1, { what: 'the preferences' })
    assert.equal(await quota.isChecked(), false)
    assert.equal(await health.isChecked(), true)
    assert.deepEqual(await t.api.call('GET', '/me/notifications'), { endpoint_health: true, quota: false, invoices: true })
    await shot(page, 'g', '05-notifications')
    await assertAccessible(page, 'the account page')

    // Bulk replay: no status is chosen for the user; the preview counts.
    await nav(page, 'Replay')
    const form = page.getByRole('form', { name: 'Bulk replay' })
    const preview = form.getByTestId('replay-preview')
    assert.equal(await text(preview), 'Choose a delivery status to see how many deliveries match.')
    assert.equal(await form.getByLabel('Delivery status').inputValue(), '')
    await page.getByText('No replay jobs yet').waitFor()
    await form.getByLabel('Endpoint', { exact: true }).selectOption({ label: t.okEp.url })
    await form.getByLabel('Delivery status').selectOption('succeeded')
    await waitFor(async () => (await text(preview)) === '4 deliveries match; starting replays them.', { what: 'the preview of 4' })
    await form.getByLabel('Endpoint', { exact: true }).selectOption('')
    await form.getByLabel('Delivery status').selectOption('dropped')
    await waitFor(async () => (await text(preview)) === '2 deliveries match; starting replays them.', { what: 'the preview of 2' })
    await form.getByLabel('Delivery status').selectOption('exhausted')
    await waitFor(async () => (await text(preview)).startsWith('No delivery matches'), { what: 'the preview of 0' })
    await form.getByLabel('Delivery status').selectOption('dropped')
    await waitFor(async () => (await text(preview)).startsWith('2 deliveries'), { what: 'the preview of 2 again' })
    await shot(page, 'g', '06-replay-preview')
    await form.getByRole('button', { name: 'Start bulk replay' }).click()
    const ask = page.getByRole('group', { name: 'Replay 2 deliveries?' })
    assert.match(await text(ask), /the 2 deliveries that match now \(status dropped, to every endpoint\)/)
    await ask.getByRole('button', { name: 'Yes, replay 2 deliveries' }).click()
    await page.locator('.job').getByText('completed').waitFor({ timeout: 30_000 })
    // The jobs list shows the job that just finished, never "No replay jobs yet".
    const jobs = page.getByRole('table').filter({ hasText: 'Progress' })
    await waitFor(async () => (await jobs.count()) === 1 && (await text(jobs)).includes('completed'), { what: 'the finished job in the list' })
    assert.match(await text(jobs), /2 of 2 \(100%\)/)
    assert.equal(await page.getByText('No replay jobs yet').count(), 0)
    await shot(page, 'g', '07-replay-finished')
    await assertAccessible(page, 'the replay page')
    assert.deepEqual(b.consoleErrors, [])
  } catch (e) {
    await shot(page, 'g', 'failure').catch(() => {})
    throw e
  } finally {
    await b.close()
  }
})
