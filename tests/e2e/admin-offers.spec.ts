import { expect, type Page, test } from '@playwright/test';
import {
  apiDelete,
  confirmDialog,
  createOffer,
  createProduct,
  createShop,
  localDate,
  registerAdmin,
  rowWith,
  toast,
  uniqueName,
} from './fixtures';

const createdShops: string[] = [];
test.afterEach(async ({ page }) => {
  for (const id of createdShops.splice(0)) await apiDelete(page, `/api/shops/${id}`);
});

const search = (page: Page) => page.getByLabel('Search offers');

/** A date as the browser's locale writes it (what 'Valid Until' shows). */
function shownDate(page: Page, isoDate: string): Promise<string> {
  const [y, m, d] = isoDate.split('-').map(Number);
  return page.evaluate<string>(`new Date(${y}, ${(m ?? 1) - 1}, ${d}).toLocaleDateString()`);
}

test.describe('Admin: Manage Offers', () => {
  test('the offer form shows each validation message', async ({ page }) => {
    await registerAdmin(page);
    const shop = await createShop(page);
    createdShops.push(shop.id);
    await page.goto('/admin/offers');
    await page.getByRole('link', { name: 'Add New Offer' }).click();
    await expect(page).toHaveURL('/admin/offers/new');

    // A new offer starts today.
    await expect(page.getByLabel('Start Date')).toHaveValue(localDate(0));
    await page.getByRole('button', { name: 'Add Offer' }).click();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expect(page.getByText('Discount must be between 1 and 100')).toBeVisible();
    await expect(page.getByText('End date is required')).toBeVisible();
    await expect(page.getByText('Shop is required')).toBeVisible();

    await page.getByLabel('Start Date').fill('');
    await page.getByRole('button', { name: 'Add Offer' }).click();
    await expect(page.getByText('Start date is required')).toBeVisible();

    for (const discount of ['0', '101', '12.5']) {
      await page.getByLabel('Discount (%)').fill(discount);
      await page.getByRole('button', { name: 'Add Offer' }).click();
      await expect(page.getByText('Discount must be between 1 and 100')).toBeVisible();
    }

    await page.getByLabel('Title').fill(uniqueName('Zeta Offer'));
    await page.getByLabel('Discount (%)').fill('20');
    await page.getByLabel('Start Date').fill('2030-01-10');
    await expect(page.getByLabel('End Date')).toHaveAttribute('min', '2030-01-10');
    await page.getByLabel('End Date').fill('2030-01-05');
    await page.getByLabel('Shop').selectOption({ label: shop.name });
    await page.getByRole('button', { name: 'Add Offer' }).click();
    await expect(page.getByText('End date must be after start date')).toBeVisible();
    await expect(page.getByText('Title is required')).toBeHidden();
    await expect(page).toHaveURL('/admin/offers/new');
  });

  test('an admin adds an offer, finds it by title and shop, edits and deletes it', async ({ page }) => {
    await registerAdmin(page);
    const shop = await createShop(page);
    createdShops.push(shop.id);
    const title = uniqueName('Zeta Offer');
    const endDate = localDate(10);

    await page.getByRole('navigation').getByRole('link', { name: 'Manage Offers' }).click();
    await page.getByRole('link', { name: 'Add New Offer' }).click();
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Description').fill('Everything must go.');
    await page.getByLabel('Discount (%)').fill('25');
    await page.getByLabel('End Date').fill(endDate);
    await page.getByLabel('Shop').selectOption({ label: shop.name });
    await page.getByRole('button', { name: 'Add Offer' }).click();
    await expect(toast(page, 'Offer added')).toBeVisible();
    await expect(page).toHaveURL('/admin/offers');

    await search(page).fill(title);
    const row = rowWith(page, title);
    await expect(row.getByRole('cell', { name: shop.name, exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: '25%', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: await shownDate(page, endDate), exact: true })).toBeVisible();
    await expect(row.getByText('Active', { exact: true })).toBeVisible();

    // The shop filter, with the search cleared.
    await search(page).fill('');
    await page.getByLabel('Shop').selectOption({ label: shop.name });
    await expect(page).toHaveURL(new RegExp(`shopId=${shop.id}`));
    await expect(page.getByRole('row')).toHaveCount(2);
    await expect(rowWith(page, title)).toBeVisible();

    await rowWith(page, title).getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByLabel('Title')).toHaveValue(title);
    await expect(page.getByLabel('Discount (%)')).toHaveValue('25');
    await expect(page.getByLabel('End Date')).toHaveValue(endDate);
    await page.getByLabel('Discount (%)').fill('30');
    await page.getByLabel('Start Date').fill(localDate(5));
    await page.getByRole('button', { name: 'Update Offer' }).click();
    await expect(toast(page, 'Offer updated')).toBeVisible();
    await expect(rowWith(page, title).getByRole('cell', { name: '30%', exact: true })).toBeVisible();
    await expect(rowWith(page, title).getByText('Upcoming', { exact: true })).toBeVisible();

    await rowWith(page, title).getByRole('button', { name: 'Delete' }).click();
    const dialog = confirmDialog(page);
    await expect(dialog.getByRole('heading', { name: `Delete "${title}"?` })).toBeVisible();
    await expect(dialog).toContainText('Products using it will no longer be on offer.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(rowWith(page, title)).toBeVisible();
    await rowWith(page, title).getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Offer deleted')).toBeVisible();
    await expect(page.getByText('No offers found')).toBeVisible();
  });

  test('deleting an offer takes it off the products that used it', async ({ page }) => {
    await registerAdmin(page);
    const shop = await createShop(page);
    createdShops.push(shop.id);
    const offer = await createOffer(page, shop.id);
    const product = await createProduct(page, shop.id, { offerId: offer.id });

    await page.goto(`/admin/offers?q=${encodeURIComponent(offer.title)}`);
    await rowWith(page, offer.title).getByRole('button', { name: 'Delete' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Offer deleted')).toBeVisible();
    const after = (await (await page.request.get(`/api/products/${product.id}`)).json()) as {
      offerId: string | null;
    };
    expect(after.offerId).toBeNull();
  });

  test("an unknown offer's edit page says 'Offer not found'", async ({ page }) => {
    await registerAdmin(page);
    await page.goto('/admin/offers/not-an-id');
    await expect(page.getByRole('heading', { name: 'Offer not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to offers' }).click();
    await expect(page).toHaveURL('/admin/offers');
  });
});
