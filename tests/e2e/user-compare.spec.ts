import { expect, type Page, test } from '@playwright/test';
import { registerUser, scrollWidth } from './fixtures';
import { card, compareNavLink } from './user-fixtures';

/** Opens Threadline Studio (demo mall) from the Fashion shops. */
async function openThreadline(page: Page) {
  await page.goto('/user/shops?category=Fashion');
  await page.getByRole('link', { name: 'Threadline Studio', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Threadline Studio', level: 1 })).toBeVisible();
}

const product = (page: Page, name: string) => card(page.getByRole('region', { name: 'Products' }), name);
const table = (page: Page) => page.getByRole('table', { name: 'Products selected for comparison' });

test.describe('Shopper: compare products', () => {
  test('add two products, a duplicate add does nothing, remove one, reload keeps the rest', async ({
    page,
  }) => {
    await registerUser(page);
    await expect(compareNavLink(page)).toHaveAccessibleName('Compare');
    await openThreadline(page);

    const linen = product(page, 'Linen Shirt');
    await linen.getByRole('button', { name: 'Compare' }).click();
    await expect(linen.getByRole('button', { name: 'Added to compare' })).toBeDisabled();
    await expect(compareNavLink(page)).toHaveAccessibleName('Compare (1 product)');

    await product(page, 'Chino Trousers').getByRole('button', { name: 'Compare' }).click();
    await expect(compareNavLink(page)).toHaveAccessibleName('Compare (2 products)');
    await expect(compareNavLink(page)).toHaveText(/^Compare/);

    // Adding Linen Shirt again (keyboard, since the button is marked disabled) changes nothing.
    await linen.getByRole('button', { name: 'Added to compare' }).press('Enter');
    await linen.getByRole('button', { name: 'Added to compare' }).press('Space');
    await expect(compareNavLink(page)).toHaveAccessibleName('Compare (2 products)');

    // Another visit to the shop still knows what was added.
    await page.reload();
    await expect(
      product(page, 'Linen Shirt').getByRole('button', { name: 'Added to compare' }),
    ).toBeVisible();
    await expect(
      product(page, 'Chino Trousers').getByRole('button', { name: 'Added to compare' }),
    ).toBeVisible();
    await expect(product(page, 'Denim Jacket').getByRole('button', { name: 'Compare' })).toBeVisible();

    await compareNavLink(page).click();
    await expect(page).toHaveURL('/user/compare');
    await expect(compareNavLink(page)).toHaveAttribute('aria-current', 'page');
    const headers = table(page).getByRole('columnheader');
    await expect(headers).toHaveText(['Product', 'Description', 'Price (₹)', 'Shop', 'Remove']);
    const rows = table(page).getByRole('row');
    await expect(rows).toHaveCount(3);

    const linenRow = rows.filter({ hasText: 'Linen Shirt' });
    await expect(linenRow.getByText('Breathable linen shirt in a relaxed fit.')).toBeVisible();
    await expect(linenRow.getByText('₹1,124.25')).toBeVisible();
    await expect(linenRow.locator('s')).toHaveText(/₹1,499\.00/);
    await expect(linenRow.getByText('Lowest price')).toBeVisible();
    const chinosRow = rows.filter({ hasText: 'Chino Trousers' });
    await expect(chinosRow.getByText('₹1,799.00')).toBeVisible();
    await expect(chinosRow.getByText('Lowest price')).toHaveCount(0);

    // The shop column links to the shop.
    await expect(chinosRow.getByRole('link', { name: 'Threadline Studio' })).toHaveAttribute(
      'href',
      /^\/user\/shops\/[0-9a-f-]{36}$/,
    );

    await page.getByRole('button', { name: 'Remove Chino Trousers' }).click();
    await expect(rows).toHaveCount(2);
    await expect(table(page).getByText('Chino Trousers')).toHaveCount(0);
    await expect(compareNavLink(page)).toHaveAccessibleName('Compare (1 product)');
    // Focus goes to the remaining row's Remove button, not back to the page.
    await expect(page.getByRole('button', { name: 'Remove Linen Shirt' })).toBeFocused();

    await page.reload();
    await expect(rows).toHaveCount(2);
    await expect(table(page).getByRole('rowheader', { name: 'Linen Shirt' })).toBeVisible();
    // Alone, nothing to be lowest against.
    await expect(table(page).getByText('Lowest price')).toHaveCount(0);

    await page.getByRole('button', { name: 'Remove Linen Shirt' }).click();
    await expect(page.getByText('No products selected for comparison')).toBeVisible();
    await expect(compareNavLink(page)).toHaveAccessibleName('Compare');
    await expect(page.getByRole('link', { name: 'Browse Shops' })).toBeFocused();
    await page.getByRole('link', { name: 'Browse Shops' }).click();
    await expect(page).toHaveURL('/user/shops');
  });

  test('the list belongs to the browser tab and is never sent to the server', async ({ page, context }) => {
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/') && request.postData()?.includes('Linen Shirt')) {
        sent.push(request.url());
      }
    });
    await registerUser(page);
    await openThreadline(page);
    await product(page, 'Linen Shirt').getByRole('button', { name: 'Compare' }).click();
    await expect(compareNavLink(page)).toHaveAccessibleName('Compare (1 product)');
    // Only the product's id is kept; the product is read from the server when the list is shown.
    expect(await page.evaluate<string | null>("sessionStorage.getItem('super-mall:compare')")).toMatch(
      /^\["[0-9a-f-]{36}"\]$/,
    );
    expect(sent).toEqual([]);

    // A new tab of the same session starts with an empty list.
    const other = await context.newPage();
    await other.goto('/user/compare');
    await expect(other.getByText('No products selected for comparison')).toBeVisible();
    await expect(compareNavLink(other)).toHaveAccessibleName('Compare');
  });

  test('the empty list says so and offers Browse Shops', async ({ page }) => {
    await registerUser(page);
    await page.goto('/user/compare');
    await expect(page.getByRole('heading', { name: 'Compare Products' })).toBeVisible();
    await expect(page.getByText('No products selected for comparison')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await page.getByRole('link', { name: 'Browse Shops' }).click();
    await expect(page).toHaveURL('/user/shops');
  });

  test('at 375 px the compare page is usable without sideways scrolling', { tag: '@phone' }, async ({
    page,
  }) => {
    await registerUser(page);
    await openThreadline(page);
    await product(page, 'Linen Shirt').getByRole('button', { name: 'Compare' }).click();
    await product(page, 'Denim Jacket').getByRole('button', { name: 'Compare' }).click();
    await expect(compareNavLink(page)).toHaveAccessibleName('Compare (2 products)');
    await compareNavLink(page).click();
    await expect(page).toHaveURL('/user/compare');

    const remove = page.getByRole('button', { name: 'Remove Denim Jacket' });
    await expect(remove).toBeInViewport();
    const box = await remove.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(40);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    const jacket = page.getByRole('article', { name: 'Denim Jacket' });
    await expect(jacket.getByText('₹2,999.00')).toBeVisible();
    await expect(jacket.getByRole('link', { name: 'Threadline Studio' })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Linen Shirt' }).getByText('Lowest price')).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);

    await remove.click();
    await expect(page.getByRole('button', { name: 'Remove Denim Jacket' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Remove Linen Shirt' })).toBeVisible();
    await expect(compareNavLink(page)).toHaveAccessibleName('Compare (1 product)');
  });
});
