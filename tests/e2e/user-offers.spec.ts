import { expect, test } from '@playwright/test';
import { registerUser } from './fixtures';
import { card, startEmptyMall } from './user-fixtures';

const PAGE_SIZE = 12;

test.describe('Shopper: offers', () => {
  test('Current Offers shows every active offer with N% OFF, a shop link and its end date', async ({
    page,
  }) => {
    await registerUser(page);
    await page.getByRole('link', { name: 'Offers', exact: true }).click();
    await expect(page).toHaveURL('/user/offers');
    await expect(page.getByRole('heading', { name: 'Current Offers', level: 1 })).toBeVisible();

    const cards = page.getByRole('list', { name: 'Active offers' }).getByRole('article');
    // The demo mall has 10 active offers; admin tests running alongside may add some for a while, so
    // the page is checked against what the API says at the same moment.
    await expect(async () => {
      const response = await page.request.get('/api/offers?active=true&pageSize=1');
      const { total } = (await response.json()) as { total: number };
      expect(total).toBeGreaterThanOrEqual(10);
      await page.reload();
      await expect(page.getByText(`${total} active offers`)).toBeVisible({ timeout: 5_000 });
      await expect(cards).toHaveCount(Math.min(total, PAGE_SIZE), { timeout: 5_000 });
    }).toPass({ timeout: 20_000 });

    for (const offer of await cards.all()) {
      await expect(offer.getByText(/^\d+% OFF$/)).toBeVisible();
      await expect(offer.getByRole('link')).toHaveAttribute('href', /^\/user\/shops\/[0-9a-f-]{36}$/);
      await expect(offer.getByText(/^Valid until /)).toBeVisible();
    }

    // Demo offers that are running today, and one that ended.
    for (const title of ['Monsoon Sale', 'Back to College', 'Morning Brew Hours', 'Kitchen Upgrade Week']) {
      await expect(card(page, title)).toBeVisible();
    }
    await expect(card(page, 'Festive Glow')).toHaveCount(0);

    // The shop link opens the shop, where the offer is listed too.
    const monsoon = card(page, 'Monsoon Sale');
    await expect(monsoon.getByText('25% OFF')).toBeVisible();
    await monsoon.getByRole('link', { name: 'Threadline Studio' }).click();
    await expect(page.getByRole('heading', { name: 'Threadline Studio', level: 1 })).toBeVisible();
    await expect(card(page.getByRole('region', { name: 'Current Offers' }), 'Monsoon Sale')).toBeVisible();
  });

  test('a shop with only ended offers lists none under Current Offers', async ({ page }) => {
    await registerUser(page);
    await page.goto('/user/shops?category=Beauty%20%26%20Health');
    await page.getByRole('link', { name: 'Glow Apothecary', exact: true }).click();
    const offers = page.getByRole('region', { name: 'Current Offers' });
    await expect(offers.getByText('No current offers at this shop.')).toBeVisible();
    await expect(card(offers, 'Festive Glow')).toHaveCount(0);
  });

  test('a mall without active offers says so on Current Offers and the dashboard', async ({ browser }) => {
    // A second real server with an empty database: the shared demo mall always has active offers.
    test.setTimeout(150_000);
    const mall = await startEmptyMall();
    try {
      const context = await mall.newContext(browser);
      const page = await context.newPage();
      await registerUser(page);
      await expect(
        page
          .getByRole('region', { name: 'Featured Offers' })
          .getByText('No active offers available at the moment.'),
      ).toBeVisible();
      await expect(page.getByText('No categories yet.')).toBeVisible();

      await page.getByRole('link', { name: 'View all offers' }).click();
      await expect(page.getByRole('heading', { name: 'Current Offers', level: 1 })).toBeVisible();
      await expect(page.getByText('No active offers available at the moment.')).toBeVisible();
      await expect(page.getByRole('article')).toHaveCount(0);

      await page.goto('/user/shops');
      await expect(page.getByText('No shops found')).toBeVisible();
      await expect(page.getByText('0 shops')).toBeVisible();
      await context.close();
    } finally {
      await mall.stop();
    }
  });
});
