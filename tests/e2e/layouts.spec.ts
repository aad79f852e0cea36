import { expect, type Page, test } from '@playwright/test';
import { registerAdmin, registerUser } from './fixtures';

const ADMIN_LINKS = ['Dashboard', 'Manage Shops', 'Manage Products', 'Manage Offers', 'Categories & Floors'];
// The spec's four links, and Floors (issue 15, docs/decisions/018).
const USER_LINKS = ['Dashboard', 'Shops', 'Floors', 'Offers', 'Compare'];

const navLink = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('link', { name, exact: true });

test.describe('Admin layout', () => {
  test("the sidebar has the admin links and the top bar 'Welcome, <email>'", async ({ page }) => {
    const { email } = await registerAdmin(page);
    for (const name of ADMIN_LINKS) await expect(navLink(page, name)).toBeVisible();
    await expect(navLink(page, 'Dashboard')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  });

  test('at 375 px the sidebar stays hidden until the menu is opened', { tag: '@phone' }, async ({ page }) => {
    await registerAdmin(page);
    await expect(navLink(page, 'Manage Shops')).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    for (const name of ADMIN_LINKS) await expect(navLink(page, name)).toBeVisible();
  });

  test('Logout returns to /login and the admin area is closed again', async ({ page }) => {
    await registerAdmin(page);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/login');
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL('/login');
  });
});

test.describe('User layout', () => {
  test('the top navigation has the user links with Dashboard marked current', async ({ page }) => {
    const { email } = await registerUser(page);
    for (const name of USER_LINKS) await expect(navLink(page, name)).toBeVisible();
    await expect(navLink(page, 'Dashboard')).toHaveAttribute('aria-current', 'page');
    for (const name of USER_LINKS.slice(1)) {
      await expect(navLink(page, name)).not.toHaveAttribute('aria-current', 'page');
    }
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });

  test('reloading keeps the session', async ({ page }) => {
    const { email } = await registerUser(page);
    await page.reload();
    await expect(page).toHaveURL('/user/dashboard');
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });

  test('Logout returns to /login and /user/dashboard then redirects to /login', async ({ page }) => {
    await registerUser(page);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/login');
    await page.goto('/user/dashboard');
    await expect(page).toHaveURL('/login');
  });
});
