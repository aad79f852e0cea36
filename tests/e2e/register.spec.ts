import { expect, test } from '@playwright/test';
import {
  ADMIN_INVITE_CODE,
  accountTypeField,
  createAccountButton,
  DEMO,
  delayRequests,
  emailField,
  formError,
  INVITE_MESSAGES,
  inviteCodeField,
  PASSWORD,
  passwordField,
  registerAdmin,
  registerUser,
  scrollWidth,
  signOutByForgetting,
  submitLogin,
  submitRegistration,
  uniqueEmail,
} from './fixtures';

test.describe('Registration screen /register', () => {
  test('shows its title, subtitle, fields and the link to /login', async ({ page }) => {
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible();
    await expect(page.getByText('Join our super mall experience')).toBeVisible();
    await expect(emailField(page)).toBeVisible();
    await expect(passwordField(page)).toHaveAttribute('placeholder', 'At least 6 characters');
    await expect(accountTypeField(page)).toHaveValue('user');
    await expect(inviteCodeField(page)).toHaveCount(0);
    await expect(createAccountButton(page)).toHaveText('Create Account');
    await expect(page.getByText('Already have an account?')).toBeVisible();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL('/login');
  });

  test('submitting empty shows the required messages inline', async ({ page }) => {
    await page.goto('/register');
    await createAccountButton(page).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await expect(page).toHaveURL('/register');
  });

  test("a short password gets 'Password must be 6+ characters' inline", async ({ page }) => {
    await page.goto('/register');
    await emailField(page).fill(uniqueEmail('short'));
    await passwordField(page).fill('12345');
    await createAccountButton(page).click();
    await expect(page.getByText('Password must be 6+ characters')).toBeVisible();
    await expect(page).toHaveURL('/register');
  });

  test("registering lands on /user/dashboard with 'Welcome, <email>'", async ({ page }) => {
    const { email } = await registerUser(page);
    await expect(page).toHaveURL('/user/dashboard');
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });

  test("the same email again gets 'Email already registered'", async ({ page }) => {
    const { email } = await registerUser(page);
    await signOutByForgetting(page);
    await submitRegistration(page, { email, password: PASSWORD });
    await expect(formError(page)).toHaveText('Email already registered');
    await expect(createAccountButton(page)).toBeEnabled();
    await expect(page).toHaveURL('/register');
  });

  test("the button reads 'Creating account...' and is disabled while the request runs", async ({ page }) => {
    await delayRequests(page, '**/api/auth/register', 800);
    const email = uniqueEmail('slow');
    await submitRegistration(page, { email, password: PASSWORD });
    const busy = page.getByRole('button', { name: 'Creating account...' });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    await expect(page).toHaveURL('/user/dashboard');
  });

  test("choosing Admin shows the 'Admin invite code' field", async ({ page }) => {
    await page.goto('/register');
    await expect(inviteCodeField(page)).toHaveCount(0);
    await accountTypeField(page).selectOption({ label: 'Admin' });
    await expect(inviteCodeField(page)).toBeVisible();
    await accountTypeField(page).selectOption({ label: 'User' });
    await expect(inviteCodeField(page)).toHaveCount(0);
  });

  test('Admin without an invite code is refused and no account is made', async ({ page }) => {
    const email = uniqueEmail('nocode');
    await submitRegistration(page, { email, password: PASSWORD, role: 'admin', inviteCode: '' });
    await expect(formError(page)).toHaveText(INVITE_MESSAGES.required);
    await expect(page).toHaveURL('/register');
    await submitLogin(page, email, PASSWORD);
    await expect(formError(page)).toHaveText('Email not found');
  });

  test('Admin with a wrong invite code is refused and no account is made', async ({ page }) => {
    const email = uniqueEmail('badcode');
    await submitRegistration(page, { email, password: PASSWORD, role: 'admin', inviteCode: 'not-the-code' });
    await expect(formError(page)).toHaveText(INVITE_MESSAGES.invalid);
    await expect(page).toHaveURL('/register');
    await submitLogin(page, email, PASSWORD);
    await expect(formError(page)).toHaveText('Email not found');
  });

  test('Admin with the operator invite code lands on /admin/dashboard with the demo figures', async ({
    page,
  }) => {
    expect(ADMIN_INVITE_CODE, 'E2E_ADMIN_INVITE_CODE must be set').not.toBe('');
    await registerAdmin(page);
    await expect(page).toHaveURL('/admin/dashboard');
    // Figures are a list of terms and definitions: each label paired, in order, with its figure.
    const main = page.getByRole('main');
    await expect(main.getByRole('term')).toHaveText(['Total Shops', 'Total Products', 'Active Offers']);
    // why: other tests (2 workers, one server) add shops and products of their own meanwhile and delete
    // them again; none removes the demo mall's, so its figures are the least these can be.
    await expect(main.getByRole('definition')).toHaveText([/^\d+$/, /^\d+$/, /^\d+\s*of \d+ total$/]);
    const figures = (await main.getByRole('definition').allTextContents()).map((text) =>
      Number.parseInt(text, 10),
    );
    expect(figures[0]).toBeGreaterThanOrEqual(DEMO.shops);
    expect(figures[1]).toBeGreaterThanOrEqual(DEMO.products);
  });

  test('has no horizontal scroll at 375 px', { tag: '@phone' }, async ({ page }) => {
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  });
});
