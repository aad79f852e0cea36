import { expect, test } from '@playwright/test';
import { action, registerAdmin, registerUser, signOutByForgetting, submitLogin } from './fixtures';

const FORBIDDEN_TEXT = "You don't have permission to access this page with your current role.";
const NOT_FOUND_TEXT = "The page you're looking for doesn't exist or has been moved.";

test.describe('Route guards', () => {
  test('signed out, /admin/dashboard goes to /login and back there after signing in as admin', async ({
    page,
  }) => {
    const { email, password } = await registerAdmin(page);
    await signOutByForgetting(page);
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL('/login');
    await submitLogin(page, email, password, { stay: true });
    await expect(page).toHaveURL('/admin/dashboard');
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });

  test('signed out, /user/dashboard goes to /login and back there after signing in as user', async ({
    page,
  }) => {
    const { email, password } = await registerUser(page);
    await signOutByForgetting(page);
    await page.goto('/user/dashboard');
    await expect(page).toHaveURL('/login');
    await submitLogin(page, email, password, { stay: true });
    await expect(page).toHaveURL('/user/dashboard');
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });

  test('a user visiting /admin/dashboard gets /unauthorized; Go Back and Return Home work', async ({
    page,
  }) => {
    await registerUser(page);
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL('/unauthorized');
    await expect(page.getByRole('heading', { name: '403 - Access Denied' })).toBeVisible();
    await expect(page.getByText(FORBIDDEN_TEXT)).toBeVisible();

    await action(page, 'Go Back').click();
    await expect(page).toHaveURL('/user/dashboard');

    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL('/unauthorized');
    await action(page, 'Return Home').click();
    await expect(page).toHaveURL('/');
  });

  test('an admin visiting /user/dashboard gets /unauthorized', async ({ page }) => {
    await registerAdmin(page);
    await page.goto('/user/dashboard');
    await expect(page).toHaveURL('/unauthorized');
    await expect(page.getByRole('heading', { name: '403 - Access Denied' })).toBeVisible();
    await expect(page.getByText(FORBIDDEN_TEXT)).toBeVisible();
  });
});

test.describe('Not found', () => {
  test('an unknown path redirects to /404; Go Back and Return Home work', async ({ page }) => {
    await page.goto('/login');
    await page.goto('/no-such-page');
    await expect(page).toHaveURL('/404');
    await expect(page.getByRole('heading', { name: '404 - Page Not Found' })).toBeVisible();
    await expect(page.getByText(NOT_FOUND_TEXT)).toBeVisible();

    await action(page, 'Go Back').click();
    await expect(page).toHaveURL('/login');

    await page.goto('/no-such-page');
    await expect(page).toHaveURL('/404');
    await action(page, 'Return Home').click();
    await expect(page).toHaveURL('/');
  });

  test('/404 itself shows the page', async ({ page }) => {
    await page.goto('/404');
    await expect(page.getByRole('heading', { name: '404 - Page Not Found' })).toBeVisible();
    await expect(page.getByText(NOT_FOUND_TEXT)).toBeVisible();
  });
});
