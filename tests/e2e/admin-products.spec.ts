import { expect, type Page, test } from '@playwright/test';
import {
  apiDelete,
  confirmDialog,
  createOffer,
  createProduct,
  createShop,
  registerAdmin,
  rowWith,
  toast,
  uniqueName,
} from './fixtures';

const createdShops: string[] = [];
test.afterEach(async ({ page }) => {
  for (const id of createdShops.splice(0)) await apiDelete(page, `/api/shops/${id}`);
});

const search = (page: Page) => page.getByLabel('Search products');
const applyOffer = (page: Page) => page.getByLabel('Apply Offer');

test.describe('Admin: Manage Products', () => {
  test('a list that cannot be read says why, and Try again reads it', async ({ page }) => {
    await registerAdmin(page);
    // 4xx: the query client does not retry it on its own, so the error shows at once.
    let failing = true;
    await page.route('**/api/products?*', (route) =>
      failing && route.request().method() === 'GET'
        ? route.fulfill({ status: 403, json: { error: { code: 'FORBIDDEN', message: 'Not allowed today' } } })
        : route.continue(),
    );
    await page.goto('/admin/products');
    await expect(page.getByRole('main').getByRole('alert')).toContainText('Not allowed today');
    await expect(page.getByRole('table', { name: 'Products' })).toHaveCount(0);

    failing = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('table', { name: 'Products' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    await expect(page.getByText(/^\d+\+? products?/)).toBeVisible();
  });

  test('an admin adds a product with an offer of its shop, sees it listed in $, edits and deletes it', async ({
    page,
  }) => {
    await registerAdmin(page);
    const withOffers = await createShop(page);
    const withoutOffers = await createShop(page);
    createdShops.push(withOffers.id, withoutOffers.id);
    const offer = await createOffer(page, withOffers.id, { discount: 15 });

    await page.getByRole('navigation').getByRole('link', { name: 'Manage Products' }).click();
    await expect(page.getByRole('heading', { name: 'Manage Products' })).toBeVisible();
    await page.getByRole('link', { name: 'Add New Product' }).click();
    await expect(page).toHaveURL('/admin/products/new');

    await page.getByRole('button', { name: 'Add Product' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expect(page.getByText('Valid price is required')).toBeVisible();
    await expect(page.getByText('Shop is required')).toBeVisible();

    const name = uniqueName('Zeta Product');
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Description').fill('A fine thing.');
    const price = page.getByLabel('Price');
    await expect(price).toHaveAttribute('type', 'number');
    await expect(price).toHaveAttribute('step', '0.01');
    await expect(price).toHaveAttribute('min', '0');
    await price.fill('12.5');
    await page.getByLabel('Category').fill('Gadgets');
    await expect(page.getByLabel('Shop').locator('option').first()).toHaveText('Select shop');

    // 'Apply Offer' appears only for a shop that has offers.
    await expect(applyOffer(page)).toHaveCount(0);
    await page.getByLabel('Shop').selectOption({ label: withoutOffers.name });
    await expect(page.getByText('Shop is required')).toBeHidden();
    await expect(applyOffer(page)).toHaveCount(0);
    await page.getByLabel('Shop').selectOption({ label: withOffers.name });
    await expect(applyOffer(page)).toBeVisible();
    await expect(applyOffer(page).locator('option')).toHaveText(['No Offer', `${offer.title} (15% off)`]);
    await expect(applyOffer(page).locator('option:checked')).toHaveText('No Offer');
    await applyOffer(page).selectOption({ label: `${offer.title} (15% off)` });

    // Another shop resets the offer.
    await page.getByLabel('Shop').selectOption({ label: withoutOffers.name });
    await expect(applyOffer(page)).toHaveCount(0);
    await page.getByLabel('Shop').selectOption({ label: withOffers.name });
    await expect(applyOffer(page).locator('option:checked')).toHaveText('No Offer');
    await applyOffer(page).selectOption({ label: `${offer.title} (15% off)` });

    await page.getByRole('button', { name: 'Add Product' }).click();
    await expect(toast(page, 'Product added')).toBeVisible();
    await expect(page).toHaveURL('/admin/products');

    await search(page).fill(name);
    const row = rowWith(page, name);
    await expect(row.getByRole('cell', { name: withOffers.name, exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: '$12.50', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Gadgets', exact: true })).toBeVisible();

    await row.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByLabel('Name')).toHaveValue(name);
    await expect(page.getByLabel('Price')).toHaveValue('12.5');
    await expect(applyOffer(page).locator('option:checked')).toHaveText(`${offer.title} (15% off)`);
    await page.getByLabel('Price').fill('');
    await page.getByRole('button', { name: 'Update Product' }).click();
    await expect(page.getByText('Valid price is required')).toBeVisible();
    await page.getByLabel('Price').fill('1299');
    await applyOffer(page).selectOption({ label: 'No Offer' });
    await page.getByRole('button', { name: 'Update Product' }).click();
    await expect(toast(page, 'Product updated')).toBeVisible();
    await expect(rowWith(page, name).getByRole('cell', { name: '$1,299.00', exact: true })).toBeVisible();
    const [product] = (
      (await (await page.request.get(`/api/products?shopId=${withOffers.id}`)).json()) as {
        items: Array<{ offerId: string | null }>;
      }
    ).items;
    expect(product?.offerId).toBeNull();

    await rowWith(page, name).getByRole('button', { name: 'Delete' }).click();
    const dialog = confirmDialog(page);
    await expect(dialog.getByRole('heading', { name: `Delete ${name}?` })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(rowWith(page, name)).toBeVisible();
    await rowWith(page, name).getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Product deleted')).toBeVisible();
    await expect(page.getByText('No products found')).toBeVisible();
  });

  test('the shop filter and the name search narrow the list, and stay in the URL', async ({ page }) => {
    await registerAdmin(page);
    const shop = await createShop(page);
    createdShops.push(shop.id);
    const kettle = await createProduct(page, shop.id, { name: uniqueName('Zeta Kettle'), price: 45.9 });
    const toaster = await createProduct(page, shop.id, { name: uniqueName('Zeta Toaster'), price: 30 });

    await page.goto('/admin/products');
    const filter = page.getByLabel('Shop');
    await expect(filter.locator('option').first()).toHaveText('All Shops');
    await expect(filter.locator('option:checked')).toHaveText('All Shops');
    await filter.selectOption({ label: shop.name });
    await expect(page).toHaveURL(new RegExp(`shopId=${shop.id}`));
    await expect(page.getByRole('row')).toHaveCount(3);
    await expect(rowWith(page, kettle.name).getByRole('cell', { name: '$45.90', exact: true })).toBeVisible();
    await expect(rowWith(page, toaster.name)).toBeVisible();
    await expect(page.getByText('2 products')).toBeVisible();

    await search(page).fill('KETTLE');
    await expect(page.getByRole('row')).toHaveCount(2);
    await expect(rowWith(page, kettle.name)).toBeVisible();
    await page.reload();
    await expect(filter.locator('option:checked')).toHaveText(shop.name);
    await expect(search(page)).toHaveValue('KETTLE');
    await expect(page.getByRole('row')).toHaveCount(2);

    await filter.selectOption({ label: 'All Shops' });
    await expect(page).not.toHaveURL(/shopId=/);
    await expect(rowWith(page, kettle.name)).toBeVisible();
  });

  test("an unknown product's edit page says 'Product not found'", async ({ page }) => {
    await registerAdmin(page);
    await page.goto('/admin/products/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to products' }).click();
    await expect(page).toHaveURL('/admin/products');
  });
});
