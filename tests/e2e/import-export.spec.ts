import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { apiDelete, createShop, registerAdmin, uniqueName } from './fixtures';

const createdShops: string[] = [];
test.afterEach(async ({ page }) => {
  for (const id of createdShops.splice(0)) await apiDelete(page, `/api/shops/${id}`);
});

/** Picks a CSV file made of `text` and asks for its preview; resolves on the run's page. */
async function checkFile(page: Page, name: string, text: string) {
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.getByRole('button', { name: 'Check the file' }).click();
  await expect(page).toHaveURL(/\/admin\/imports\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Preview' })).toBeVisible();
}

const count = (page: Page, label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');

/** docs/screenshots, only when asked (E2E_SCREENSHOTS=1): at 1280 px, and the same screen at 375 px. */
async function shot(page: Page, name: string) {
  if (!process.env.E2E_SCREENSHOTS) return;
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: `docs/screenshots/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 740 });
  await page.screenshot({ path: `docs/screenshots/${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

const productsOf = async (page: Page, shopId: string) =>
  ((await (await page.request.get(`/api/products?shopId=${shopId}`)).json()) as { total: number }).total;

test('template, an import with errors writes nothing, the corrected file imports and shows in Activity, an export re-imported changes nothing', async ({
  page,
}) => {
  test.slow();
  await registerAdmin(page);
  const shop = await createShop(page);
  createdShops.push(shop.id);

  // From the products list to the import page, and the template.
  await page.goto('/admin/products');
  await page.getByRole('link', { name: 'Import' }).click();
  await expect(page.getByRole('heading', { name: 'Import products' })).toBeVisible();
  await shot(page, 'import-new');
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download the template' }).click();
  const template = await readFile((await (await downloading).path()) as string, 'utf8');
  expect(template.startsWith('\uFEFFshop_code,shop,code,name,price,category,description,offer')).toBe(true);
  expect(template).toContain('Reading lamp');

  // A file with a bad price: the preview shows it, the import cannot run, nothing is written.
  const lamp = uniqueName('Lamp');
  const chair = uniqueName('Chair');
  await checkFile(
    page,
    'first.csv',
    `shop,code,name,price\n${shop.name},L1,${lamp},12.50\n${shop.name},C1,${chair},twelve\n`,
  );
  await expect(count(page, 'Created')).toHaveText('1');
  await expect(count(page, 'Refused')).toHaveText('1');
  const refused = page.getByRole('table', { name: 'Refused rows' });
  await expect(refused.getByRole('row', { name: /3 price Valid price is required/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import 1 row' })).toBeDisabled();
  await shot(page, 'import-preview-errors');
  expect(await productsOf(page, shop.id)).toBe(0);

  // The corrected file: two created, and the run is in Activity.
  await page.getByRole('link', { name: 'Import another file' }).click();
  await checkFile(
    page,
    'corrected.csv',
    `shop,code,name,price\n${shop.name},L1,${lamp},12.50\n${shop.name},C1,${chair},40\n`,
  );
  await expect(count(page, 'Created')).toHaveText('2');
  await expect(count(page, 'Refused')).toHaveText('0');
  await page.getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported: 2 created, 0 updated' })).toBeVisible({
    timeout: 30_000,
  });
  expect(await productsOf(page, shop.id)).toBe(2);
  await shot(page, 'import-done');
  await page.getByRole('link', { name: 'See it in Activity' }).click();
  const run = page.getByRole('list', { name: 'Changes, newest first' }).getByRole('listitem').first();
  await expect(run).toContainText('Created import');
  await expect(run).toContainText('corrected.csv');

  // The shop's products exported from the filtered list, and read back: nothing to change.
  await page.goto(`/admin/products?shopId=${shop.id}`);
  const exporting = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export the products shown' }).click();
  const exported = await readFile((await (await exporting).path()) as string, 'utf8');
  expect(exported).toContain(lamp);
  await page.goto('/admin/imports/new?kind=products');
  await checkFile(page, 'exported.csv', exported);
  await expect(count(page, 'Unchanged')).toHaveText('2');
  await expect(count(page, 'Created')).toHaveText('0');
  await expect(count(page, 'Updated')).toHaveText('0');
  await expect(page.getByRole('button', { name: 'Nothing to import' })).toBeDisabled();
});
