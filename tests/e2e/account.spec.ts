import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  PASSWORD,
  passwordField,
  registerAdmin,
  registerUser,
  scrollWidth,
  signInButton,
  submitLogin,
  toast,
} from './fixtures';

// A person's own account (docs/decisions/026), the show-password toggle, real 404s.

/** The parts of an <input> the caret checks read (the test's TypeScript has no DOM types). */
interface TextInput {
  selectionStart: number | null;
  selectionEnd: number | null;
  setSelectionRange(start: number, end: number): void;
}

/** Set E2E_SCREENSHOTS=1 to write docs/screenshots/account-*.png. */
async function shot(page: Page, name: string) {
  if (!process.env.E2E_SCREENSHOTS) return;
  // the picture of the page, not of a passing toast over its top bar
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 });
  await page.screenshot({ path: `docs/screenshots/account-${name}.png`, fullPage: true });
}

/** A second browser (cookies of its own) signed in as the same person, on their dashboard. */
async function otherBrowser(browser: Browser, email: string, password: string, dashboard: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const signIn = await page.request.post('/api/auth/login', { data: { email, password } });
  expect(signIn.status()).toBe(200);
  await page.goto(dashboard);
  await expect(page.getByText(/^Welcome, /)).toBeVisible();
  return { context, page };
}

const showPassword = (page: Page, field?: string) =>
  (field ? page.getByLabel(field, { exact: true }).locator('..').locator('..') : page).getByRole('button', {
    name: 'Show password',
  });

test.describe('Account page', () => {
  test('a display name greets the person; a password change signs out the other browser, not this one', async ({
    page,
    browser,
  }) => {
    const { email } = await registerUser(page);
    const other = await otherBrowser(browser, email, PASSWORD, '/user/dashboard');

    await page
      .getByRole('banner')
      .getByRole('link', { name: /: your account$/ })
      .click();
    await expect(page).toHaveURL('/account');
    await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
    await page.getByRole('textbox', { name: 'Display name' }).fill('Asha Rao');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Display name saved' })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Welcome, Asha Rao')).toBeVisible();
    await shot(page, `${page.viewportSize()?.width}`);

    // the current password is required and checked
    await page.getByLabel('Current password', { exact: true }).fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('a-new-secret');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Incorrect password').first()).toBeVisible();
    await page.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Password changed.' })).toBeVisible();
    await expect(toast(page, 'Password changed')).toBeVisible();

    // this browser stays signed in (with its new session), the other one is signed out
    await page.goto('/user/shops');
    await expect(page.getByRole('banner').getByText('Welcome, Asha Rao')).toBeVisible();
    await other.page.goto('/user/dashboard');
    await expect(other.page).toHaveURL('/login');
    await submitLogin(other.page, email, 'a-new-secret');
    await expect(other.page).toHaveURL('/user/dashboard');
    await expect(other.page.getByText('Welcome, Asha Rao')).toBeVisible();
    await other.context.close();
  });

  test('sign out everywhere ends every session, this one included', async ({ page, browser }) => {
    const { email } = await registerAdmin(page);
    const other = await otherBrowser(browser, email, PASSWORD, '/admin/dashboard');
    await page
      .getByRole('banner')
      .getByRole('link', { name: /: your account$/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
    // the admin's own layout around it
    await expect(page.getByRole('navigation', { name: 'Admin' })).toBeAttached();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page).toHaveURL('/login');
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL('/login');
    await other.page.goto('/admin/dashboard');
    await expect(other.page).toHaveURL('/login');
    await other.context.close();
  });
});

test.describe('Show password', () => {
  test('on sign-in: a toggle button that shows the password, keeps the text, the caret and the focus', async ({
    page,
  }) => {
    await page.goto('/login');
    const field = passwordField(page);
    await field.fill('hunter22');
    // the caret after 'hunt'
    await field.evaluate((input: TextInput) => input.setSelectionRange(4, 4));
    const toggle = showPassword(page);
    await expect(toggle).toHaveAttribute('type', 'button');
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(field).toHaveAttribute('type', 'text');
    await expect(field).toHaveValue('hunter22');
    await expect(field).toBeFocused();
    expect(await field.evaluate((input: TextInput) => [input.selectionStart, input.selectionEnd])).toEqual([
      4, 4,
    ]);
    await page.keyboard.type('X');
    await expect(field).toHaveValue('huntXer22');
    await shot(page, `sign-in-${page.viewportSize()?.width}`);
    // by keyboard too, and it never submits the form
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(field).toHaveAttribute('type', 'password');
    await expect(page).toHaveURL('/login');
    await expect(signInButton(page)).toHaveText('Sign in');
  });

  test('on registration', async ({ page }) => {
    await page.goto('/register');
    await passwordField(page).fill('abcdef');
    await showPassword(page).click();
    await expect(passwordField(page)).toHaveAttribute('type', 'text');
    await expect(passwordField(page)).toHaveAttribute('placeholder', 'At least 6 characters');
  });
});

test.describe('Unknown paths', () => {
  test('answer 404 and still show the 404 screen; known pages answer 200', async ({ page }) => {
    const unknown = await page.goto('/no-such-page');
    expect(unknown?.status()).toBe(404);
    await expect(page).toHaveURL('/404');
    await expect(page.getByRole('heading', { name: '404 - Page Not Found' })).toBeVisible();
    expect((await page.goto('/404'))?.status()).toBe(404);
    expect((await page.goto('/login'))?.status()).toBe(200);
    expect((await page.goto('/user/shops/0b5e4f8e-6a53-4c1e-9d52-2f0c1a7d9e11'))?.status()).toBe(200);
  });
});

test.describe('Account page at 375 px', () => {
  test('fits the phone and the top bar keeps the Account link', { tag: '@phone' }, async ({ page }) => {
    await registerUser(page);
    await page
      .getByRole('banner')
      .getByRole('link', { name: /: your account$/ })
      .click();
    await page.getByRole('textbox', { name: 'Display name' }).fill('Asha Rao');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('banner').getByText('Welcome, Asha Rao')).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await shot(page, '375');
    await page.goto('/login');
    await passwordField(page).fill('hunter22');
    await showPassword(page).click();
    await shot(page, 'sign-in-375');
  });
});

test.describe('Pre-rendered first paint', () => {
  test('the landing page reads without JavaScript, and hydrates without a console error or warning', async ({
    browser,
    page,
  }) => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const bare = await noScript.newPage();
    const response = await bare.goto('/');
    expect(response?.status()).toBe(200);
    await expect(bare.getByRole('heading', { name: 'Super Mall', level: 1 })).toBeVisible();
    await expect(bare.getByRole('heading', { name: 'Join thousands of happy customers' })).toBeVisible();
    await expect(bare.getByRole('link', { name: 'Get Started' })).toBeVisible();
    await expect(bare.getByRole('link', { name: 'Join Now' })).toBeVisible();
    // the mall's hours are the browser's to read: no day's hours are baked into the page
    await expect(bare.getByText('Mall hours today')).toHaveCount(0);
    // every other page shows its frame and a loading state at first paint
    await bare.goto('/login');
    await expect(bare.getByRole('banner').getByRole('link', { name: 'Super Mall' })).toBeVisible();
    await expect(bare.getByRole('status', { name: 'Loading' })).toBeVisible();
    await noScript.close();

    const messages: string[] = [];
    page.on('console', (message) => {
      if (['error', 'warning'].includes(message.type()))
        messages.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
    await page.goto('/');
    await expect(page.getByText('Mall hours today')).toBeVisible();
    // hydrated: the links are the app's (a click navigates in the page, no new document)
    await page.getByRole('link', { name: 'Join Now' }).click();
    await expect(page).toHaveURL('/register');
    await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible();
    expect(messages).toEqual([]);
  });
});
