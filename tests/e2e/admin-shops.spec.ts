import { expect, type Page, test } from '@playwright/test';
import {
  action,
  apiDelete,
  confirmDialog,
  createOffer,
  createProduct,
  createShop,
  delayRequests,
  registerAdmin,
  rowWith,
  scrollWidth,
  toast,
  uniqueName,
} from './fixtures';

const created: string[] = [];
test.afterEach(async ({ page }) => {
  // Shops a test made and did not delete itself (their products and offers go with them).
  for (const id of created.splice(0)) await apiDelete(page, `/api/shops/${id}`);
});

const search = (page: Page) => page.getByLabel('Search shops');

async function findShop(page: Page, name: string) {
  await search(page).fill(name);
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(rowWith(page, name)).toBeVisible();
}

test.describe('Admin: Manage Shops', () => {
  test('an admin adds a shop (with every validation message), finds it, edits it and deletes it', async ({
    page,
  }) => {
    await registerAdmin(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Manage Shops' }).click();
    await expect(page).toHaveURL('/admin/shops');
    await expect(page.getByRole('heading', { name: 'Manage Shops' })).toBeVisible();

    await page.getByRole('link', { name: 'Add New Shop' }).click();
    await expect(page).toHaveURL('/admin/shops/new');
    await page.getByRole('button', { name: 'Add Shop' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expect(page.getByText('Category is required')).toBeVisible();
    await expect(page.getByText('Floor is required')).toBeVisible();
    await expect(page).toHaveURL('/admin/shops/new');

    // Only spaces is no name either.
    await page.getByLabel('Name').fill('   ');
    await page.getByRole('button', { name: 'Add Shop' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();

    const name = uniqueName('Zeta Shop');
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Description').fill('Hand-made things.');
    await expect(page.getByLabel('Category').locator('option').first()).toHaveText('Select category');
    await expect(page.getByLabel('Floor', { exact: true }).locator('option').first()).toHaveText(
      'Select floor',
    );
    await page.getByLabel('Category').selectOption({ label: 'Fashion' });
    await page.getByLabel('Floor', { exact: true }).selectOption({ label: 'Second Floor' });
    await page.getByLabel('Location').fill('Unit S-99');
    await page.getByLabel('Contact').fill('+91 98765 43210');
    await page.getByLabel('Opening Hours').fill('10:00 – 21:00');
    await expect(page.getByText('Category is required')).toBeHidden();

    // The button waits while the request runs.
    await delayRequests(page, '**/api/shops', 600);
    await page.getByRole('button', { name: 'Add Shop' }).click();
    await expect(page.getByRole('button', { name: 'Add Shop' })).toBeDisabled();
    await expect(toast(page, 'Shop added')).toBeVisible();
    await expect(page).toHaveURL('/admin/shops');
    await page.unroute('**/api/shops');

    await findShop(page, name);
    const row = rowWith(page, name);
    await expect(row.getByRole('cell', { name: 'Fashion', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Second Floor', exact: true })).toBeVisible();

    await row.getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(/\/admin\/shops\/[0-9a-f-]{36}$/);
    created.push(page.url().split('/').pop() ?? '');
    await expect(page.getByLabel('Name')).toHaveValue(name);
    await expect(page.getByLabel('Location')).toHaveValue('Unit S-99');
    await expect(page.getByLabel('Opening Hours')).toHaveValue('10:00 – 21:00');
    await expect(page.getByLabel('Category').locator('option:checked')).toHaveText('Fashion');
    const renamed = `${name} Renamed`;
    await page.getByLabel('Name').fill(renamed);
    await page.getByLabel('Floor', { exact: true }).selectOption({ label: 'Third Floor' });
    await page.getByRole('button', { name: 'Update Shop' }).click();
    await expect(toast(page, 'Shop updated')).toBeVisible();
    // Back on the list it was opened from, with the same search.
    await expect(page).toHaveURL(/\/admin\/shops\?q=/);
    await search(page).fill(renamed);
    await expect(
      rowWith(page, renamed).getByRole('cell', { name: 'Third Floor', exact: true }),
    ).toBeVisible();

    // Cancel deletes nothing.
    await rowWith(page, renamed).getByRole('button', { name: 'Delete' }).click();
    const dialog = confirmDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading', { name: `Delete ${renamed}?` })).toBeVisible();
    await expect(dialog).toContainText('This cannot be undone.');
    await expect(dialog).not.toContainText('will be deleted too');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(rowWith(page, renamed)).toBeVisible();

    // Escape cancels too.
    await rowWith(page, renamed).getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(rowWith(page, renamed)).toBeVisible();

    await rowWith(page, renamed).getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Shop deleted')).toBeVisible();
    await expect(page.getByText('No shops found')).toBeVisible();
  });

  test('the delete confirmation says how many products and offers go with the shop', async ({ page }) => {
    await registerAdmin(page);
    const shop = await createShop(page);
    created.push(shop.id);
    const offer = await createOffer(page, shop.id);
    await createProduct(page, shop.id, { offerId: offer.id });
    await createProduct(page, shop.id);

    await page.goto('/admin/shops');
    await findShop(page, shop.name);
    await rowWith(page, shop.name).getByRole('button', { name: 'Delete' }).click();
    const dialog = confirmDialog(page);
    await expect(dialog.getByRole('heading', { name: `Delete ${shop.name}?` })).toBeVisible();
    await expect(dialog).toContainText('Its 2 products and 1 offer will be deleted too.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await page.request.get(`/api/shops/${shop.id}`)).status()).toBe(200);

    await rowWith(page, shop.name).getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toContainText('Its 2 products and 1 offer will be deleted too.');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Shop deleted')).toBeVisible();
    await expect(page.getByText('No shops found')).toBeVisible();
    expect((await page.request.get(`/api/shops/${shop.id}`)).status()).toBe(404);
    const products = await page.request.get(`/api/products?shopId=${shop.id}`);
    expect(((await products.json()) as { total: number }).total).toBe(0);
  });

  test('one product and no offers reads in the singular', async ({ page }) => {
    await registerAdmin(page);
    const shop = await createShop(page);
    created.push(shop.id);
    await createProduct(page, shop.id);
    await page.goto(`/admin/shops?q=${encodeURIComponent(shop.name)}`);
    await rowWith(page, shop.name).getByRole('button', { name: 'Delete' }).click();
    await expect(confirmDialog(page)).toContainText('Its 1 product will be deleted too.');
  });

  test('pages and search come from the server and stay in the URL across reloads', async ({ page }) => {
    await registerAdmin(page);
    await page.goto('/admin/shops');
    await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(21); // the header and 20 shops
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
    await page.reload();
    await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
    await page.goBack();
    await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();

    // Any case, any part of the name.
    await search(page).fill('bean there');
    await expect(page).toHaveURL(/q=bean(\+|%20)there/);
    await expect(rowWith(page, 'Bean There Café')).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(2);
    await expect(page.getByText(/^Page 1 of 1$/)).toBeVisible();
    await page.reload();
    await expect(search(page)).toHaveValue('bean there');
    await expect(rowWith(page, 'Bean There Café')).toBeVisible();

    await search(page).fill('no shop is called this');
    await expect(page.getByText('No shops found')).toBeVisible();
  });

  test('a failed save shows the server message and stays on the form', async ({ page }) => {
    await registerAdmin(page);
    await page.goto('/admin/shops/new');
    await page.route('**/api/shops', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 400,
            json: {
              error: {
                code: 'VALIDATION',
                message: 'Floor is required',
                fields: { floorId: 'Floor is required' },
              },
            },
          })
        : route.continue(),
    );
    await page.getByLabel('Name').fill(uniqueName('Zeta Shop'));
    await page.getByLabel('Category').selectOption({ label: 'Fashion' });
    await page.getByLabel('Floor', { exact: true }).selectOption({ label: 'Ground Floor' });
    await page.getByRole('button', { name: 'Add Shop' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('Floor is required');
    await expect(page.getByLabel('Floor', { exact: true })).toHaveAccessibleDescription('Floor is required');
    await expect(page).toHaveURL('/admin/shops/new');
    await expect(toast(page, 'Shop added')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add Shop' })).toBeEnabled();
  });

  test("an unknown shop's edit page says 'Shop not found' with a way back", async ({ page }) => {
    await registerAdmin(page);
    await page.goto('/admin/shops/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'Shop not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to shops' }).click();
    await expect(page).toHaveURL('/admin/shops');
  });

  test('Cancel on the form goes back to the list without saving', async ({ page }) => {
    await registerAdmin(page);
    await page.goto('/admin/shops');
    await page.getByRole('link', { name: 'Add New Shop' }).click();
    const name = uniqueName('Zeta Shop');
    await page.getByLabel('Name').fill(name);
    await action(page, 'Cancel').click();
    await expect(page).toHaveURL('/admin/shops');
    await search(page).fill(name);
    await expect(page.getByText('No shops found')).toBeVisible();
  });

  test('at 375 px the drawer opens Manage Shops and the table fits the screen', { tag: '@phone' }, async ({
    page,
  }) => {
    await registerAdmin(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Manage Shops' }).click();
    await expect(page).toHaveURL('/admin/shops');
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
    const row = rowWith(page, 'Bean There Café');
    await expect(row).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    // The row's actions are on screen, not beyond its right edge.
    const edit = row.getByRole('link', { name: 'Edit' });
    const box = await edit.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    await expect(row.getByRole('button', { name: 'Delete' })).toBeInViewport();
    await edit.click();
    await expect(page.getByLabel('Name')).toHaveValue('Bean There Café');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  });
});
