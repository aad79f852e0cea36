import { expect, type Page, test } from '@playwright/test';
import { apiDelete, createProduct, createShop, registerAdmin, scrollWidth, uniqueName } from './fixtures';

const createdShops: string[] = [];
test.afterEach(async ({ page }) => {
  for (const id of createdShops.splice(0)) await apiDelete(page, `/api/shops/${id}`);
});

const changes = (page: Page) => page.getByRole('list', { name: 'Changes, newest first' });

test.describe('Admin: Activity', () => {
  test('an edit shows who changed what, before and after; the edit form says who changed it last; filters narrow the list', async ({
    page,
  }) => {
    const admin = await registerAdmin(page);
    const shop = await createShop(page);
    createdShops.push(shop.id);
    const product = await createProduct(page, shop.id, { name: uniqueName('Gone Product') });
    await apiDelete(page, `/api/products/${product.id}`);

    // An edit through the form.
    await page.goto(`/admin/shops/${shop.id}`);
    await page.getByLabel('Contact').fill('Call 555-0101');
    await page.getByRole('button', { name: 'Update Shop' }).click();
    await expect(page).toHaveURL(/\/admin\/shops(\?|$)/);
    // A product edited from its list and opened again from it (no reload): the form shows what was saved.
    const priced = await createProduct(page, shop.id, { name: uniqueName('Priced Product') });
    await page.goto('/admin/products');
    await page.getByLabel('Search products').fill(priced.name);
    await page.getByRole('link', { name: `Edit ${priced.name}` }).click();
    await page.getByLabel('Price', { exact: true }).fill('42990');
    await page.getByRole('button', { name: 'Update Product' }).click();
    await expect(page).toHaveURL(/\/admin\/products(\?|$)/);
    await page.getByRole('link', { name: `Edit ${priced.name}` }).click();
    await expect(page.getByLabel('Price', { exact: true })).toHaveValue('42990');

    await page.getByRole('navigation').getByRole('link', { name: 'Activity' }).click();
    await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
    const edit = changes(page).getByRole('listitem').filter({ hasText: 'Changed shop' }).first();
    await expect(edit).toContainText(shop.name);
    await expect(edit).toContainText(admin.email);
    await edit.getByText('Show the change').click();
    const row = edit.getByRole('row', { name: /Contact/ });
    await expect(row).toContainText('(empty)');
    await expect(row).toContainText('Call 555-0101');
    // The record exists: its name links to its form.
    await expect(edit.getByRole('link', { name: shop.name })).toHaveAttribute(
      'href',
      `/admin/shops/${shop.id}`,
    );

    // A deleted product is listed without a link.
    const deleted = changes(page).getByRole('listitem').filter({ hasText: 'Deleted product' }).first();
    await expect(deleted).toContainText(product.name);
    await expect(deleted.getByRole('link')).toHaveCount(0);

    // Filter by kind: only products; the URL keeps it.
    await page.getByLabel('Kind').selectOption('product');
    await expect(page).toHaveURL(/entityType=product/);
    await expect(changes(page).getByRole('listitem').filter({ hasText: 'Changed shop' })).toHaveCount(0);
    await expect(changes(page).getByRole('listitem').first()).toContainText('product');
    // A date range with nothing in it.
    await page.getByLabel('From', { exact: true }).fill('2001-01-01');
    await page.getByLabel('To', { exact: true }).fill('2001-01-02');
    await expect(page.getByText('No activity matches these filters.')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(changes(page)).toBeVisible();

    // The shop's edit form names the last change.
    await page.goto(`/admin/shops/${shop.id}`);
    await expect(page.getByText(`Last changed by ${admin.email} on`)).toBeVisible();
  });

  test('works on a phone: reachable from the menu, nothing wider than the screen @phone', async ({
    page,
  }) => {
    await registerAdmin(page);
    const shop = await createShop(page, { name: uniqueName('A shop with a rather long name for a phone') });
    createdShops.push(shop.id);
    await page.goto('/admin/dashboard');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Activity' }).click();
    await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
    const created = changes(page).getByRole('listitem').filter({ hasText: shop.name }).first();
    await created.getByText('Show what was set').click();
    await expect(created.getByRole('row', { name: /Name/ })).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  });
});
