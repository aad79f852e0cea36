// Images (issue 16) through the screens: an admin uploads a shop's logo from a phone photo carrying GPS
// (the served variants carry none, checked with sharp), replaces it, sees a non-image and an oversized
// file refused in words, and removes it; shoppers see the logo, then the monogram.
import { expect, type Locator, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { IMAGE_MESSAGES } from '../../src/shared/errors';
import {
  confirmDialog,
  createShop,
  registerAdmin,
  registerUser,
  scrollWidth,
  toast,
  uniqueName,
} from './fixtures';

const gpsJpeg = () =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: '#2a7' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .toBuffer();

test('upload, replace, refuse, remove a shop logo; shoppers see it and no GPS reaches them', async ({
  page,
  browser,
}) => {
  await registerAdmin(page);
  const name = uniqueName('Pixel Shop');
  const shop = await createShop(page, { name });
  await page.goto(`/admin/shops/${shop.id}`);
  const logo = page.getByLabel('Logo', { exact: true });

  const photo = await gpsJpeg();
  expect((await sharp(photo).metadata()).exif).toBeDefined();
  await logo.setInputFiles({ name: 'phone.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(toast(page, 'Logo saved')).toBeVisible();
  const key = (await (await page.request.get(`/api/shops/${shop.id}`)).json()).logo as string;
  expect(key).toMatch(/-800x600$/);
  for (const variant of ['160.webp', '480.avif', '1200.webp']) {
    const served = await page.request.get(`/api/images/${key}/${variant}`);
    expect(served.status()).toBe(200);
    const metadata = await sharp(await served.body()).metadata();
    expect(metadata.exif, variant).toBeUndefined();
    expect(metadata.xmp, variant).toBeUndefined();
  }

  // Refused, in words, and the logo stays.
  await logo.setInputFiles({
    name: 'notes.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('not a picture'),
  });
  await expect(page.getByRole('alert').filter({ hasText: IMAGE_MESSAGES.notAnImage })).toBeVisible();
  // 11 MB handed to the browser over the DevTools protocol: slow on a busy machine, so more than the
  // default 10 s for this one action.
  await logo.setInputFiles(
    { name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(11 * 1024 * 1024) },
    { timeout: 30_000 },
  );
  await expect(page.getByRole('alert').filter({ hasText: IMAGE_MESSAGES.tooLarge })).toBeVisible();

  // Replaced by a PNG.
  const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/logo') && response.request().method() === 'PUT',
  );
  await logo.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  expect((await saved).status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Replace logo' })).toBeEnabled();
  const replaced = (await (await page.request.get(`/api/shops/${shop.id}`)).json()).logo as string;
  expect(replaced).toMatch(/-300x300$/);
  expect((await page.request.get(`/api/images/${key}/160.webp`)).status()).toBe(404);

  // Shoppers: the logo on the shop's page, with the shop's name as its alt text and its size reserved.
  const shopper = await browser.newPage({ baseURL: test.info().project.use.baseURL });
  await registerUser(shopper);
  await shopper.goto(`/user/shops/${shop.id}`);
  const img = shopper.locator(`main img[alt="${name}"]`).first();
  await expect(img).toHaveAttribute('width', '300');
  await expect(img).toHaveAttribute('height', '300');
  await expect
    .poll(() =>
      img.evaluate((element: unknown) => (element as unknown as { naturalWidth: number }).naturalWidth),
    )
    .toBeGreaterThan(0);

  // Removed: the monogram instead.
  await page.goto(`/admin/shops/${shop.id}`);
  await page.getByRole('button', { name: 'Remove logo' }).click();
  await confirmDialog(page).getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, 'Logo removed')).toBeVisible();
  expect((await (await page.request.get(`/api/shops/${shop.id}`)).json()).logo).toBeNull();
  await shopper.reload();
  await expect(shopper.locator('main img')).toHaveCount(0);
  await expect(shopper.getByRole('main').getByRole('img', { name, exact: true })).toBeVisible();
});

/** Every image in `scope` has loaded (a lazy one once scrolled to): a broken or missing file has no width. */
async function expectLoaded(images: Locator) {
  await expect(images.first()).toBeAttached();
  const count = await images.count();
  for (let i = 0; i < count; i++) {
    const image = images.nth(i);
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
  }
}

/** Set E2E_SCREENSHOTS=1 to write docs/screenshots/images-<name>-375.png and -1280.png. */
async function shoot(page: Page, name: string, before?: () => Promise<void>) {
  if (!process.env.E2E_SCREENSHOTS) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await before?.();
    await page.screenshot({ path: `docs/screenshots/images-${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the demo mall's pictures: shop cards, a shop's page, search results and compare", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await registerUser(page);

  // Shop cards: each shop's generated logo, its name as the alt text, its size reserved.
  await page.goto('/user/shops?category=Electronics');
  const voltbay = page.getByRole('article', { name: 'Voltbay' });
  const logo = voltbay.locator('img[alt="Voltbay"]');
  await expect(logo).toHaveAttribute('width', '240');
  await expect(logo).toHaveAttribute('height', '240');
  await expectLoaded(page.getByRole('main').locator('article img'));
  await shoot(page, 'shop-cards');

  // The shop's page: its cover and logo, and its products' photos.
  await voltbay.getByRole('link', { name: 'Voltbay' }).click();
  await expect(page.getByRole('heading', { name: 'Voltbay', level: 1 })).toBeVisible();
  await expect(page.getByRole('main').locator('img[alt="Voltbay"]')).toHaveCount(2);
  await expectLoaded(page.getByRole('main').locator('img[alt="Voltbay"]'));
  const products = page.getByRole('region', { name: 'Products' });
  await expectLoaded(products.locator('img[alt="Samsung Galaxy A55"]'));
  await shoot(page, 'shop-page', () =>
    page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0)),
  );

  // Compare: the products' photos and the shop's logo.
  for (const name of ['Samsung Galaxy A55', 'AirBook 14 Laptop']) {
    await products
      .getByRole('article', { name })
      .getByRole('button', { name: 'Compare', exact: true })
      .click();
  }
  await page.goto('/user/compare');
  const table = page.getByRole('table', { name: 'Products selected for comparison' });
  await expectLoaded(table.locator('img[alt="Voltbay"]'));
  await expectLoaded(table.locator('img[alt="AirBook 14 Laptop"]'));
  await shoot(page, 'compare');

  // The top bar's search: a logo beside each shop, a photo beside each product (decorative: the option
  // is named by its text alone).
  const box = page.getByRole('combobox', { name: 'Search the mall' });
  await box.fill('volt');
  const option = page.getByRole('option', { name: /^Voltbay/ });
  await expect(option).toBeVisible();
  await expectLoaded(option.locator('img[alt=""]'));
  await expect(option).toHaveAccessibleName('Voltbay Electronics · Ground Floor');
  await shoot(page, 'search', async () => {
    await box.fill('');
    await box.fill('volt');
    await expect(option).toBeVisible();
    await expectLoaded(option.locator('img'));
  });
});

test("the cover photo's buttons stay on one line each, at 375 and 1280 px", async ({ page }) => {
  await registerAdmin(page);
  const shop = await createShop(page, { name: uniqueName('Cover Shop') });
  const png = await sharp({ create: { width: 960, height: 360, channels: 3, background: '#468' } })
    .png()
    .toBuffer();
  await page.goto(`/admin/shops/${shop.id}`);
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/cover') && response.request().method() === 'PUT',
  );
  await page.getByLabel('Cover photo', { exact: true }).setInputFiles({
    name: 'cover.png',
    mimeType: 'image/png',
    buffer: png,
  });
  expect((await saved).status()).toBe(200);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const zone = page.getByTestId('drop-Cover photo');
    const zoneBox = await zone.boundingBox();
    for (const name of ['Replace cover photo', 'Remove cover photo']) {
      const button = page.getByRole('button', { name });
      await expect(button).toBeVisible();
      const box = await button.boundingBox();
      // One line of text: as tall as a small button, its text not cut or spilling out.
      expect(box?.height, `${name} at ${width}px`).toBeLessThanOrEqual(40);
      expect(await button.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(
        (zoneBox?.x ?? 0) + (zoneBox?.width ?? 0),
      );
    }
    expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
    if (process.env.E2E_SCREENSHOTS) {
      await zone.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: `docs/screenshots/images-admin-cover-${width}.png` });
    }
  }
});
