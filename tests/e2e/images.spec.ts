// Images (issue 16) through the screens: an admin uploads a shop's logo from a phone photo carrying GPS
// (the served variants carry none, checked with sharp), replaces it, sees a non-image and an oversized
// file refused in words, and removes it; shoppers see the logo, then the monogram.
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { IMAGE_MESSAGES } from '../../src/shared/errors';
import { confirmDialog, createShop, registerAdmin, registerUser, toast, uniqueName } from './fixtures';

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
  await logo.setInputFiles({
    name: 'huge.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.alloc(11 * 1024 * 1024),
  });
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
