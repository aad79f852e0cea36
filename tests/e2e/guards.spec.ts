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

  test('the guards decide before any data is read: no API request but the session for a refused page', async ({
    page,
  }) => {
    // some twenty page loads, two registrations: 20 s on a quiet machine, past 30 s on a loaded one
    test.setTimeout(90_000);
    const ADMIN_PAGES = [
      '/admin/dashboard',
      '/admin/shops',
      '/admin/shops/new',
      '/admin/products',
      '/admin/offers',
      '/admin/categories',
      '/admin/activity',
      '/admin/approvals',
      '/admin/mall-hours',
      '/admin/search?q=coffee',
    ];
    const requested: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/') && pathname !== '/api/auth/me') requested.push(pathname);
    });
    const refused = async (path: string, to: string) => {
      // the last page's own reads must not count: leave it first
      await page.goto('about:blank');
      requested.length = 0;
      await page.goto(path);
      await expect(page).toHaveURL(to);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(requested, `${path}: requests before the guard sent the person to ${to}`).toEqual([]);
    };

    // a visitor: to sign in
    await refused('/admin/dashboard', '/login');
    await refused('/manage', '/login');
    // a shopper (no shop to manage): the admin area and My shops are refused
    await registerUser(page);
    for (const path of ADMIN_PAGES) await refused(path, '/unauthorized');
    await refused('/manage', '/unauthorized');
    await refused('/manage/shops/00000000-0000-4000-8000-000000000000', '/unauthorized');
    // an admin: the shoppers' area is refused
    await signOutByForgetting(page);
    await registerAdmin(page);
    for (const path of ['/user/dashboard', '/user/shops', '/user/offers', '/user/floors', '/manage']) {
      await refused(path, '/unauthorized');
    }
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
