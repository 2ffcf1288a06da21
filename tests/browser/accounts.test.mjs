// Browser tests of the account pages: an invited member accepts the
// emailed invite, a user resets a forgotten password from the emailed
// link and changes it on the account page, and a staff member enrols an
// authenticator (TOTP) and signs in with a code. Mail is read from the
// local mail catcher (scripts/mail.sh), as its recipient would.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { ApiClient, assertAccessible, launchBrowser, MAIL_API, mailedLink, PASSWORD, shot, Stack, totp, uniq, waitFor } from './harness.mjs'

const TEST_TIMEOUT = 60_000
let stack

before(async () => {
  const info = await fetch(MAIL_API + '/api/v1/info').catch(() => null)
  if (!info?.ok) throw new Error(`no mail catcher at ${MAIL_API}: start it with  eval "$(bash scripts/mail.sh start)"`)
  stack = new Stack()
  // Staff must use a second factor, as in production.
  await stack.start({ env: { FERRY_STAFF_TOTP_REQUIRED: 'true', FERRY_SMTP_URL: process.env.FERRY_TEST_SMTP_URL ?? 'smtp://127.0.0.1:19025' } })
}, { timeout: 90_000 })

after(async () => {
  await stack?.stop()
}, { timeout: 30_000 })

async function signIn(page, email, password) {
  await page.goto(stack.baseURL + '/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

test('(d) an invited member joins from the emailed link; a forgotten password is reset by email and changed', { timeout: TEST_TIMEOUT }, async () => {
  const owner = new ApiClient(stack.baseURL)
  const org = `Umbrella ${uniq()}`
  const boss = `boss-${uniq()}@umbrella.test`
  await owner.signUp(stack, { email: boss, password: PASSWORD, organization: org })
  const vic = `vic-${uniq()}@umbrella.test`
  const invited = await owner.call('POST', '/members', { email: vic, role: 'admin' })
  assert.equal(invited.temporary_password, undefined)

  const b = await launchBrowser()
  const { page } = b
  try {
    await page.goto(await mailedLink(stack, vic, 'accept-invite'))
    await page.getByRole('heading', { name: 'Join your team on Ferry' }).waitFor()
    assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar')
    await shot(page, 'd', '01-accept-invite')
    await assertAccessible(page, 'the accept-invite page')
    await page.getByLabel('Password', { exact: true }).fill('vic chose this one')
    await page.getByLabel('Repeat it').fill('vic chose this one')
    await page.getByRole('button', { name: 'Join' }).click()
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()
    assert.match(await page.locator('.who').textContent(), new RegExp(`${org}.*${vic.replace(/[.]/g, '\\.')}.*admin`))

    // Signed out, Vic forgot the password: the sign-in page links to a reset.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await page.getByLabel('Email').fill(vic)
    await page.getByRole('button', { name: 'Email me a link' }).click()
    await page.getByText('we have emailed it a link').waitFor()
    await shot(page, 'd', '02-forgot-password')
    await page.goto(await mailedLink(stack, vic, 'reset-password'))
    await page.getByLabel('New password').fill('a reset password')
    await page.getByLabel('Repeat it').fill('a reset password')
    await page.getByRole('button', { name: 'Set password' }).click()
    await page.getByText('every session of your account has been signed out').waitFor()
    await shot(page, 'd', '03-reset-done')
    await page.getByRole('button', { name: 'Sign in' }).click()

    await signIn(page, vic, 'a reset password')
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor()
    await page.getByRole('link', { name: 'Account' }).click()
    await page.getByLabel('Current password').fill('a reset password')
    await page.getByLabel('New password').fill('changed on the account page')
    await page.getByLabel('Repeat it').fill('changed on the account page')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByText('Every other session of your account has been signed out').waitFor()
    await shot(page, 'd', '04-account')
    await assertAccessible(page, 'the account page')
    assert.deepEqual(b.consoleErrors, [])
  } catch (e) {
    await shot(page, 'd', 'failure').catch(() => {})
    throw e
  } finally {
    await b.close()
  }
})

test('(e) staff enrol an authenticator, then sign in with its code', { timeout: TEST_TIMEOUT }, async () => {
  const staff = `support-${uniq()}@ferry.test`
  await stack.createStaff(staff, PASSWORD)
  const b = await launchBrowser()
  const { page } = b
  try {
    await signIn(page, staff, PASSWORD)
    await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor()
    await page.getByRole('button', { name: 'Set up an authenticator' }).click()
    const secret = (await page.locator('.secret code').textContent()).replace(/\s/g, '')
    await shot(page, 'e', '01-totp-enrol')
    await assertAccessible(page, 'the TOTP enrolment page')
    await page.getByLabel('Code from the app').fill(totp(secret))
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor()
    // The Account page says so, and how a lost one is replaced.
    await page.getByRole('link', { name: 'Account' }).click()
    const state = page.getByTestId('totp-state')
    await state.getByText('An authenticator is enrolled.').waitFor()
    assert.match(await state.textContent(), new RegExp(`ferry staff reset-totp --email ${staff.replace(/[.]/g, '\\.')}`))
    assert.equal(await page.getByRole('button', { name: 'Set up an authenticator' }).count(), 0)
    await assertAccessible(page, 'the staff account page')

    await page.getByRole('button', { name: 'Sign out' }).click()
    await signIn(page, staff, PASSWORD)
    const code = page.getByLabel('Authenticator code')
    await code.waitFor()
    await shot(page, 'e', '02-totp-sign-in')
    await code.fill(totp(secret, Date.now() + 30_000)) // the enrolment code works once
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor()
    assert.deepEqual(b.consoleErrors, [])
  } catch (e) {
    await shot(page, 'e', 'failure').catch(() => {})
    throw e
  } finally {
    await b.close()
  }
})
