import { expect, test } from '@playwright/test';
import { action, registerUser, scrollWidth } from './fixtures';

test.describe('Landing page /', () => {
  test('shows the hero, four feature cards and the call to action', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Super Mall');
    // The four feature cards: multiple shops, best offers, comparing products, a personalized experience.
    const cards = page.getByRole('main').getByRole('listitem');
    await expect(cards).toHaveCount(4);
    await expect(cards.getByRole('heading')).toHaveText([/shops/i, /offers/i, /compar/i, /personali[sz]ed/i]);
    for (const card of await cards.all()) await expect(card).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Join thousands of happy customers' })).toBeVisible();
    await expect(action(page, 'Get Started')).toBeVisible();
    await expect(action(page, 'Join Now')).toBeVisible();
  });

  test("'Get Started' goes to /login when signed out", async ({ page }) => {
    await page.goto('/');
    await action(page, 'Get Started').click();
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  });

  test("'Get Started' goes to /user/dashboard when signed in as a user", async ({ page }) => {
    const { email } = await registerUser(page);
    await page.goto('/');
    await action(page, 'Get Started').click();
    await expect(page).toHaveURL('/user/dashboard');
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  });

  test("'Join Now' goes to /register", async ({ page }) => {
    await page.goto('/');
    await action(page, 'Join Now').click();
    await expect(page).toHaveURL('/register');
    await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible();
  });

  test('has no horizontal scroll at 375 px', { tag: '@phone' }, async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText('Join thousands of happy customers')).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  });
});
