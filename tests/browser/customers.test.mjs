// Browser test of the tenant's customer pages (issue 25): a tenant adds a
// customer, sees it with the health of its endpoints, opens its page,
// creates an endpoint for it, opens the customer portal as that customer
// and revokes the session, saves the portal settings (framing origins and
// theme), and creates an event type with a schema that the endpoint form's
// type picker then offers. Screenshots go to tests/screenshots/.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { assertAccessible, launchBrowser, nav, shot, signUp, Stack, uniq } from './harness.mjs'

const TEST_TIMEOUT = 90_000
let stack

before(async () => {
  stack = new Stack()
  await stack.start()
}, { timeout: 90_000 })

after(async () => {
  await stack?.stop()
}, { timeout: 30_000 })

const schema = JSON.stringify({
  type: 'object',
  required: ['amount'],
  properties: { amount: { type: 'integer', description: 'in cents' }, currency: { type: 'string' } },
}, null, 2)

test('(c25) customers: create one, see its health, open its portal, portal settings, an event type offered in the endpoint form', { timeout: TEST_TIMEOUT }, async () => {
  const b = await launchBrowser()
  const { page, context } = b
  const email = `owner-${uniq()}@globex.test`
  try {
    await signUp(stack, page, `Globex ${uniq()}`, email)

    // An empty list says what a customer is for.
    await nav(page, 'Customers')
    assert.match(await page.title(), /^Customers · Ferry/)
    await page.getByText('No customers yet').waitFor()
    await assertAccessible(page, 'the empty customers page')

    // Create: the uid is checked before anything is sent.
    await page.getByRole('button', { name: 'Add customer' }).click()
    await page.getByLabel('Customer uid').fill('-acme')
    await page.getByRole('button', { name: 'Create customer' }).click()
    await page.getByText('starting with a letter or digit').waitFor()
    await page.getByLabel('Customer uid').fill('acme')
    await page.getByLabel('Name', { exact: true }).fill('Acme Inc')
    await page.getByLabel('Metadata').fill('plan: gold')
    await page.getByRole('button', { name: 'Create customer' }).click()
    await page.getByRole('heading', { name: 'Acme Inc', level: 1 }).waitFor()
    await page.getByText('Customer created.').waitFor()
    await page.getByText('gold', { exact: true }).waitFor()

    // The list shows it, with its (absent) endpoints.
    await nav(page, 'Customers')
    const row = page.getByRole('row', { name: /Acme Inc/ })
    await row.getByText('No endpoints').waitFor()

    // Its page: an endpoint created for it, from its page.
    await row.getByRole('link', { name: 'Acme Inc' }).click()
    await page.getByRole('heading', { name: 'Acme Inc', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Add endpoint for this customer' }).click()
    assert.equal(await page.getByLabel('Customer', { exact: true }).inputValue(), 'acme')
    await page.getByLabel('URL', { exact: true }).fill(stack.receiver.base + '/c25/ok')
    await page.getByRole('button', { name: 'Create endpoint' }).click()
    await page.waitForURL(/\/endpoints\/[0-9a-f-]{36}/)
    await nav(page, 'Customers')
    await page.getByRole('row', { name: /Acme Inc/ }).getByText('1 endpoint · all healthy').waitFor()
    await shot(page, 'c25', '01-customers')
    await assertAccessible(page, 'the customers page')

    // Open the portal as this customer: a new tab on the session's URL.
    await page.getByRole('link', { name: 'Acme Inc' }).click()
    await page.getByRole('heading', { name: 'Portal sessions' }).waitFor()
    await page.getByText('No portal sessions').waitFor()
    const [portal] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Open portal as this customer' }).click(),
    ])
    // The portal takes its one-time code from the fragment and clears it
    // from the address as it starts, so the fragment may be gone before
    // this looks: wait for the page, then for the code to be consumed.
    await portal.waitForURL(/\/embed\/[0-9a-f-]{36}/)
    await portal.waitForFunction(() => window.location.hash === '')
    await portal.close()
    const session = page.getByTestId('portal-session')
    await session.getByText(`${email} (tenant:${email})`).waitFor()
    await session.getByText('active', { exact: true }).waitFor()
    await shot(page, 'c25', '02-customer')
    await assertAccessible(page, 'a customer\'s page')
    await session.getByRole('button', { name: 'Revoke' }).click()
    await session.getByRole('button', { name: 'Yes, revoke' }).click()
    await page.getByText('was revoked').waitFor()
    await session.getByText('revoked', { exact: true }).waitFor()

    // Portal settings: hints before saving, saved across a reload, the snippet for this Ferry.
    await nav(page, 'Customers')
    await page.getByRole('link', { name: 'Portal settings' }).click()
    await page.getByRole('heading', { name: 'Portal settings', level: 1 }).waitFor()
    await page.getByRole('button', { name: 'Add origin' }).click()
    await page.getByLabel('Origin 1', { exact: true }).fill('https://app.acme.test/settings/webhooks')
    await page.getByText('Only the scheme and host: https://app.acme.test').waitFor()
    await page.getByLabel('Origin 1', { exact: true }).fill('https://app.acme.test')
    await page.getByRole('button', { name: 'Add origin' }).click()
    await page.getByLabel('Origin 2', { exact: true }).fill('http://localhost:3000')
    await page.getByText('http:// is accepted only by a development Ferry').waitFor()
    await page.getByLabel('Primary colour').fill('#0f766e')
    await page.getByLabel('Dark', { exact: false }).check()
    await page.getByRole('button', { name: 'Save portal settings' }).click()
    await page.getByText('Portal settings saved.').waitFor()
    assert.ok((await page.getByTestId('embed-snippet').textContent()).includes(`<script src="${stack.baseURL}/embed.js"></script>`))
    await shot(page, 'c25', '03-portal-settings')
    await assertAccessible(page, 'the portal settings page')
    await page.reload()
    await page.getByRole('heading', { name: 'Portal settings', level: 1 }).waitFor()
    assert.equal(await page.getByLabel('Origin 1', { exact: true }).inputValue(), 'https://app.acme.test')
    assert.equal(await page.getByLabel('Origin 2', { exact: true }).inputValue(), 'http://localhost:3000')
    assert.equal(await page.getByLabel('Primary colour').inputValue(), '#0f766e')
    assert.equal(await page.getByLabel('Dark', { exact: false }).isChecked(), true)

    // An event type with a schema and an example.
    await nav(page, 'Event types')
    await page.getByText('No event types yet').waitFor()
    await page.getByRole('button', { name: 'Add event type' }).click()
    await page.getByLabel('Name', { exact: true }).fill('invoice.paid')
    await page.getByLabel('Group').fill('billing')
    await page.getByLabel('Description').fill('An invoice was paid in full')
    await page.getByLabel('Validation').selectOption('reject')
    await page.getByLabel('JSON Schema').fill(schema)
    await page.getByLabel('Examples').fill('[{"amount": 4200, "currency": "EUR"}]')
    await page.getByRole('button', { name: 'Create event type' }).click()
    await page.getByRole('heading', { name: 'invoice.paid', level: 1 }).waitFor()
    await page.getByText('Event type created.').waitFor()
    await page.getByTestId('version').getByText('Version 1').waitFor()
    await page.getByText('validation reject').first().waitFor()
    await shot(page, 'c25', '04-event-type')
    await assertAccessible(page, 'an event type\'s page')

    // The endpoint form offers it, by group, with its schema on demand; free text stays.
    await nav(page, 'Endpoints')
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const picker = page.locator('details.type-picker')
    await picker.getByRole('group', { name: 'billing' }).waitFor()
    await picker.getByText('An invoice was paid in full').waitFor()
    await page.getByLabel('Event types', { exact: true }).fill('order.*')
    await picker.getByRole('checkbox', { name: /invoice\.paid/ }).check()
    assert.equal(await page.getByLabel('Event types', { exact: true }).inputValue(), 'order.*, invoice.paid')
    await picker.getByRole('button', { name: 'Show the schema of invoice.paid' }).click()
    const shown = picker.getByTestId('type-schema')
    await shown.getByText('"in cents"').waitFor()
    await shown.getByText('"EUR"').waitFor()
    await shot(page, 'c25', '05-endpoint-form-picker')
    await assertAccessible(page, 'the endpoint form with the type picker')
    await page.getByLabel('URL', { exact: true }).fill(stack.receiver.base + '/c25/own')
    await page.getByRole('button', { name: 'Create endpoint' }).click()
    await page.waitForURL(/\/endpoints\/[0-9a-f-]{36}/)
    await page.getByText('order.*, invoice.paid').first().waitFor()

    assert.deepEqual(b.consoleErrors, [])
  } finally {
    await b.close()
  }
})
