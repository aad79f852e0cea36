import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  confirmDialog,
  createAccountButton,
  formError,
  INVITE_MESSAGES,
  PASSWORD,
  registerAdmin,
  submitRegistration,
  toast,
  uniqueEmail,
} from './fixtures';

/** A fresh browser context: a new visitor with no session. */
async function newVisitor(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  return context.newPage();
}

const openInvites = (page: Page) => page.getByRole('list', { name: 'Open invites' });

async function makeCode(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Create invite code' }).click();
  const field = page.getByLabel('New invite code');
  await expect(field).toHaveValue(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  return field.inputValue();
}

test.describe('Admin: invites', () => {
  test('an admin makes a code; a new visitor becomes an admin with it, and it then no longer works', async ({
    page,
    context,
    browser,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await registerAdmin(page);
    const code = await makeCode(page);
    await expect(page.getByText(/^Expires .+ This code is shown only once/)).toBeVisible();
    await expect(openInvites(page).getByText(`…${code.slice(-4)}`, { exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('status').getByText('Copied')).toBeVisible();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(code);

    const visitor = await newVisitor(browser);
    const email = uniqueEmail('invited');
    await submitRegistration(visitor, { email, password: PASSWORD, role: 'admin', inviteCode: code });
    await expect(visitor).toHaveURL('/admin/dashboard');
    await expect(visitor.getByText(`Welcome, ${email}`)).toBeVisible();
    await visitor.context().close();

    const late = await newVisitor(browser);
    await submitRegistration(late, {
      email: uniqueEmail('late'),
      password: PASSWORD,
      role: 'admin',
      inviteCode: code,
    });
    await expect(formError(late)).toHaveText(INVITE_MESSAGES.invalid);
    await expect(late).toHaveURL('/register');
    await expect(createAccountButton(late)).toBeEnabled();
    await late.context().close();

    // A used code leaves the list of open ones.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Open invites' })).toBeVisible();
    await expect(page.getByText(`…${code.slice(-4)}`)).toHaveCount(0);
  });

  test('a revoked code no longer works; Cancel keeps it', async ({ page, browser }) => {
    await registerAdmin(page);
    const code = await makeCode(page);
    const hint = `…${code.slice(-4)}`;
    const entry = openInvites(page).getByRole('listitem').filter({ hasText: hint });
    await expect(entry).toBeVisible();

    await entry.getByRole('button', { name: 'Revoke' }).click();
    const dialog = confirmDialog(page);
    await expect(dialog.getByRole('heading', { name: `Revoke invite ${hint}?` })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(entry).toBeVisible();

    await entry.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(toast(page, 'Invite revoked')).toBeVisible();
    await expect(entry).toHaveCount(0);
    // The code shown once is gone too.
    await expect(page.getByLabel('New invite code')).toHaveCount(0);

    const visitor = await newVisitor(browser);
    await submitRegistration(visitor, {
      email: uniqueEmail('revoked'),
      password: PASSWORD,
      role: 'admin',
      inviteCode: code,
    });
    await expect(formError(visitor)).toHaveText(INVITE_MESSAGES.invalid);
    await visitor.context().close();
  });
});
