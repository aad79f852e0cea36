import { expect, test } from '@playwright/test';
import {
  delayRequests,
  emailField,
  formError,
  PASSWORD,
  passwordField,
  registerUser,
  scrollWidth,
  signInButton,
  signOutByForgetting,
  submitLogin,
  uniqueEmail,
} from './fixtures';

test.describe('Sign-in screen /login', () => {
  test('shows its title, subtitle, fields and the link to /register', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByText('Sign in to your super mall account')).toBeVisible();
    await expect(emailField(page)).toBeVisible();
    await expect(passwordField(page)).toHaveAttribute('type', 'password');
    await expect(signInButton(page)).toHaveText('Sign in');
    await expect(page.getByText("Don't have an account?")).toBeVisible();
    await page.getByRole('link', { name: 'Create one' }).click();
    await expect(page).toHaveURL('/register');
  });

  test('the auth top bar has a logo link to /', async ({ page }) => {
    await page.goto('/login');
    const logo = page.getByRole('banner').getByRole('link', { name: 'Super Mall' });
    await expect(logo.getByRole('img', { name: 'Super Mall' })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Super Mall', { exact: true })).toBeVisible();
    await logo.click();
    await expect(page).toHaveURL('/');
  });

  test("the top bar hides the name 'Super Mall' at 375 px but keeps the logo", { tag: '@phone' }, async ({
    page,
  }) => {
    await page.goto('/login');
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('img', { name: 'Super Mall' })).toBeVisible();
    await expect(banner.getByText('Super Mall', { exact: true })).toBeHidden();
  });

  test('submitting empty shows both required messages inline', async ({ page }) => {
    await page.goto('/login');
    await signInButton(page).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await expect(page).toHaveURL('/login');
  });

  test('an email without a dot in its domain is invalid', async ({ page }) => {
    await page.goto('/login');
    await emailField(page).fill('bad@nodot');
    await passwordField(page).fill('whatever');
    await signInButton(page).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page).toHaveURL('/login');
  });

  test("an unknown email gets 'Email not found'", async ({ page }) => {
    await submitLogin(page, uniqueEmail('nobody'), PASSWORD);
    await expect(formError(page)).toHaveText('Email not found');
    await expect(signInButton(page)).toBeEnabled();
    await expect(page).toHaveURL('/login');
  });

  test("a wrong password gets 'Incorrect password'; the right one signs in", async ({ page }) => {
    const { email, password } = await registerUser(page);
    await signOutByForgetting(page);
    await submitLogin(page, email, `${password}-wrong`);
    await expect(formError(page)).toHaveText('Incorrect password');
    await expect(signInButton(page)).toBeEnabled();
    await passwordField(page).fill(password);
    await signInButton(page).click();
    await expect(page).toHaveURL('/user/dashboard');
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });

  test("the button reads 'Signing in...' and is disabled while the request runs", async ({ page }) => {
    const { email, password } = await registerUser(page);
    await signOutByForgetting(page);
    await delayRequests(page, '**/api/auth/login', 800);
    await submitLogin(page, email, password);
    const busy = page.getByRole('button', { name: 'Signing in...' });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    await expect(page).toHaveURL('/user/dashboard');
  });

  test('after 5 wrong passwords even the right one is refused for a while', async ({ page }) => {
    const { email, password } = await registerUser(page);
    await signOutByForgetting(page);
    await page.goto('/login');
    for (let attempt = 1; attempt <= 5; attempt++) {
      await submitLogin(page, email, `wrong-${attempt}`, { stay: true });
      await expect(formError(page)).toHaveText('Incorrect password');
      await expect(signInButton(page)).toBeEnabled();
    }
    await submitLogin(page, email, password, { stay: true });
    await expect(formError(page)).toHaveText('Account temporarily locked. Try again later');
    await expect(page).toHaveURL('/login');
  });

  test('has no horizontal scroll at 375 px', { tag: '@phone' }, async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  });
});
