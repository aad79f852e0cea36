import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  apiCreate,
  apiDelete,
  confirmDialog,
  createShop,
  type Named,
  type PlaceKind,
  registerAdmin,
  rowWith,
  toast,
  uniqueName,
} from './fixtures';

const cleanup: string[] = [];
test.afterEach(async ({ page }) => {
  // Shops first: a category or floor in use cannot go.
  for (const path of cleanup.splice(0)) await apiDelete(page, path);
});

const list = (page: Page, title: 'Categories' | 'Floors'): Locator => page.getByRole('list', { name: title });
const item = (page: Page, title: 'Categories' | 'Floors', name: string): Locator =>
  list(page, title).getByRole('listitem').filter({ hasText: name });

async function createPlace(page: Page, kind: PlaceKind, name: string): Promise<Named> {
  const place = await apiCreate<Named>(page, `/api/${kind}`, { name });
  cleanup.push(`/api/${kind}/${place.id}`);
  return place;
}

test.describe('Admin: Categories & Floors', () => {
  test('an admin adds, renames and deletes a category', async ({ page }) => {
    await registerAdmin(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Categories & Floors' }).click();
    await expect(page).toHaveURL('/admin/categories');
    await expect(page.getByRole('heading', { name: 'Categories', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Floors', exact: true })).toBeVisible();
    await expect(item(page, 'Categories', 'Fashion')).toBeVisible();

    const input = page.getByLabel('New category name');
    await expect(input).toHaveAttribute('placeholder', 'Add Category');
    // Only spaces: ignored, nothing is sent.
    const before = await list(page, 'Categories').getByRole('listitem').count();
    let posted = false;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/categories')) posted = true;
    });
    await input.fill('   ');
    await page.getByRole('button', { name: 'Add Category' }).click();
    await expect(list(page, 'Categories').getByRole('listitem')).toHaveCount(before);
    expect(posted).toBe(false);

    const name = uniqueName('Zeta Category');
    await input.fill(`  ${name}  `);
    await page.getByRole('button', { name: 'Add Category' }).click();
    await expect(toast(page, 'Category added')).toBeVisible();
    await expect(input).toHaveValue('');
    await expect(item(page, 'Categories', name)).toContainText('0 shops');
    const created = (await (await page.request.get('/api/categories')).json()) as { items: Named[] };
    const id = created.items.find((place) => place.name === name)?.id;
    expect(id).toBeTruthy();
    cleanup.push(`/api/categories/${id}`);

    // The same name in another case is a duplicate.
    await input.fill(name.toUpperCase());
    await page.getByRole('button', { name: 'Add Category' }).click();
    await expect(page.getByText('A category with this name already exists')).toBeVisible();

    // Escape leaves the name as it was.
    await item(page, 'Categories', name).getByRole('button', { name: 'Edit' }).click();
    const rename = page.getByLabel(`Rename ${name}`);
    await expect(rename).toBeFocused();
    await rename.fill('Something else');
    await rename.press('Escape');
    await expect(rename).toBeHidden();
    await expect(item(page, 'Categories', name)).toBeVisible();

    // Enter saves.
    const renamed = `${name} Two`;
    await item(page, 'Categories', name).getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel(`Rename ${name}`).fill(renamed);
    await page.getByLabel(`Rename ${name}`).press('Enter');
    await expect(toast(page, 'Category updated')).toBeVisible();
    await expect(item(page, 'Categories', renamed)).toBeVisible();

    // Cancel in the confirmation deletes nothing; Delete does.
    await item(page, 'Categories', renamed).getByRole('button', { name: 'Delete' }).click();
    const dialog = confirmDialog(page);
    await expect(dialog.getByRole('heading', { name: `Delete ${renamed}?` })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(item(page, 'Categories', renamed)).toBeVisible();
    await item(page, 'Categories', renamed).getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Category deleted')).toBeVisible();
    await expect(item(page, 'Categories', renamed)).toHaveCount(0);
  });

  test('an admin adds, renames (Update) and deletes a floor', async ({ page }) => {
    await registerAdmin(page);
    await page.goto('/admin/categories');
    const input = page.getByLabel('New floor name');
    await expect(input).toHaveAttribute('placeholder', 'Add Floor');
    const name = uniqueName('Zeta Floor');
    await input.fill(name);
    await input.press('Enter');
    await expect(toast(page, 'Floor added')).toBeVisible();
    await expect(item(page, 'Floors', name)).toContainText('0 shops');

    await item(page, 'Floors', name).getByRole('button', { name: 'Edit' }).click();
    const renamed = `${name} Mezzanine`;
    await page.getByLabel(`Rename ${name}`).fill(renamed);
    await list(page, 'Floors').getByRole('button', { name: 'Update' }).click();
    await expect(toast(page, 'Floor updated')).toBeVisible();
    await expect(item(page, 'Floors', renamed)).toBeVisible();

    await item(page, 'Floors', renamed).getByRole('button', { name: 'Edit' }).click();
    await list(page, 'Floors').getByRole('button', { name: 'Cancel' }).click();
    await expect(item(page, 'Floors', renamed)).toBeVisible();

    await item(page, 'Floors', renamed).getByRole('button', { name: 'Delete' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Floor deleted')).toBeVisible();
    await expect(item(page, 'Floors', renamed)).toHaveCount(0);
  });

  test('renaming a category shows at once on the shops table', async ({ page }) => {
    await registerAdmin(page);
    const category = await createPlace(page, 'categories', uniqueName('Zeta Category'));
    const shop = await createShop(page, { category: category.name });
    cleanup.unshift(`/api/shops/${shop.id}`);

    await page.goto('/admin/categories');
    await expect(item(page, 'Categories', category.name)).toContainText('1 shop');
    await item(page, 'Categories', category.name).getByRole('button', { name: 'Edit' }).click();
    const renamed = `${category.name} Renamed`;
    await page.getByLabel(`Rename ${category.name}`).fill(renamed);
    await page.getByLabel(`Rename ${category.name}`).press('Enter');
    await expect(toast(page, 'Category updated')).toBeVisible();

    await page.getByRole('navigation').getByRole('link', { name: 'Manage Shops' }).click();
    await page.getByLabel('Search shops').fill(shop.name);
    await expect(rowWith(page, shop.name).getByRole('cell', { name: renamed, exact: true })).toBeVisible();
  });

  test("deleting a category that shops use shows the server's message and keeps it", async ({ page }) => {
    await registerAdmin(page);
    const category = await createPlace(page, 'categories', uniqueName('Zeta Category'));
    const shop = await createShop(page, { category: category.name });
    cleanup.unshift(`/api/shops/${shop.id}`);

    await page.goto('/admin/categories');
    await item(page, 'Categories', category.name).getByRole('button', { name: 'Delete' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Delete' }).click();
    await expect(
      toast(page, `${category.name} is used by 1 shop. Move it to another category first.`),
    ).toBeVisible();
    await expect(toast(page, 'Category deleted')).toHaveCount(0);
    await expect(item(page, 'Categories', category.name)).toBeVisible();
  });

  test('the lists scroll within 400 px', async ({ page }) => {
    await registerAdmin(page);
    await page.goto('/admin/categories');
    await expect(item(page, 'Categories', 'Fashion')).toBeVisible();
    const box = await list(page, 'Categories').boundingBox();
    expect(box?.height ?? 0).toBeLessThanOrEqual(400);
    await expect(list(page, 'Categories')).toHaveCSS('overflow-y', 'auto');
  });
});
