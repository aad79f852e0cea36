// Floor plans and pins (docs/decisions/021) through the screens: an admin uploads a floor's plan, places
// a shop's pin with the mouse and an amenity's with the keyboard; a shopper sees the shop's pin as a link
// on the Floors page and the "Find it on …" view on the shop's page, and zooms by the buttons at 375 px.
// The demo mall's own plans show on its floors. E2E_SCREENSHOTS=dir saves the screens.
import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { apiCreate, registerAdmin, registerUser, scrollWidth, toast, uniqueName } from './fixtures';

async function screenshot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  // The plans load lazily: bring each into view so the full-page picture shows them.
  for (const frame of await page.getByTestId('plan-frame').all()) {
    await frame.scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        frame.locator('img').evaluate((img: unknown) => (img as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
  }
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

const planPng = () =>
  sharp({ create: { width: 800, height: 500, channels: 3, background: '#e2e8f0' } })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500"><rect x="40" y="40" width="720" height="420" fill="#fff" stroke="#64748b" stroke-width="8"/><rect x="40" y="220" width="720" height="60" fill="#fef9c3"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();

interface Pinned {
  id: string;
  pin: { x: number; y: number } | null;
}

test('an admin places pins by mouse and keyboard; a shopper finds the shop on the plan', async ({
  page,
  browser,
}) => {
  await registerAdmin(page);
  const floorName = uniqueName('Plan Floor');
  const floor = await apiCreate<{ id: string }>(page, '/api/floors', { name: floorName });
  const category = ((await (await page.request.get('/api/categories')).json()).items as { id: string }[])[0];
  const shopName = uniqueName('Pinned Shop');
  const shop = await apiCreate<{ id: string }>(page, '/api/shops', {
    name: shopName,
    categoryId: category?.id,
    floorId: floor.id,
    location: 'Unit P-01',
  });
  const lift = await apiCreate<{ id: string }>(page, '/api/amenities', { floorId: floor.id, kind: 'lift' });

  // From the Categories & Floors screen to the floor's plan page.
  await page.goto('/admin/categories');
  await page.getByRole('link', { name: `Plan of ${floorName}` }).click();
  await expect(page.getByRole('heading', { name: `Plan of ${floorName}`, level: 1 })).toBeVisible();
  await expect(page.getByText('Upload the plan first; then place the pins here.')).toBeVisible();
  await page
    .getByLabel('Floor plan', { exact: true })
    .setInputFiles({ name: 'plan.png', mimeType: 'image/png', buffer: await planPng() });
  await expect(toast(page, 'Floor plan saved')).toBeVisible();

  // Mouse: the shop is chosen first; a click on the plan places it, Save sends it.
  const frame = page.getByTestId('plan-frame');
  await expect(frame).toBeVisible();
  await expect(page.getByRole('radio', { name: new RegExp(shopName) })).toBeChecked();
  const box = await frame.boundingBox();
  if (!box) throw new Error('no plan frame');
  await frame.click({ position: { x: box.width * 0.25, y: box.height * 0.4 } });
  await expect(page.getByText('Placed: 25% across, 40% down · not saved')).toBeVisible();
  await page.getByRole('button', { name: 'Save pins' }).click();
  await expect(toast(page, 'Pin saved')).toBeVisible();
  const saved = (await (await page.request.get(`/api/shops/${shop.id}`)).json()) as Pinned;
  expect(saved.pin?.x).toBeCloseTo(0.25, 1);
  expect(saved.pin?.y).toBeCloseTo(0.4, 1);

  // Keyboard: choose the lift, put it at the centre, Shift+Arrow right twice (10 % each), Enter saves.
  const liftRadio = page.getByRole('radio', { name: /Lift/ });
  await liftRadio.focus();
  await page.keyboard.press('Space');
  await expect(liftRadio).toBeChecked();
  const centre = page.getByRole('button', { name: 'Place at the centre' });
  await centre.focus();
  await page.keyboard.press('Enter');
  const liftPin = page.getByRole('button', { name: /^Lift pin, 50% across, 50% down/ });
  await expect(liftPin).toBeFocused();
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('button', { name: /^Lift pin, 60% across, 50% down/ })).toBeFocused();
  const put = page.waitForResponse(
    (response) => response.url().endsWith('/pins') && response.request().method() === 'PUT',
  );
  await page.keyboard.press('Enter');
  expect((await put).status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Save pins' })).toBeDisabled();
  const guide = (await (await page.request.get('/api/floor-guide')).json()) as {
    floors: { id: string; amenities: Pinned[] }[];
  };
  const liftSaved = guide.floors
    .find((entry) => entry.id === floor.id)
    ?.amenities.find((a) => a.id === lift.id);
  expect(liftSaved?.pin?.x).toBeCloseTo(0.6, 3);
  expect(liftSaved?.pin?.y).toBeCloseTo(0.495, 3);
  await screenshot(page, 'floor-plans-admin-pins-1280');

  // The shop's own form: "Place on plan" opens this page with the shop chosen.
  await page.goto(`/admin/shops/${shop.id}`);
  await page.getByRole('link', { name: 'Place on plan' }).click();
  await expect(page).toHaveURL(`/admin/floors/${floor.id}/plan?shop=${shop.id}`);
  await expect(page.getByRole('radio', { name: new RegExp(shopName) })).toBeChecked();
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByTestId('plan-frame')).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  await screenshot(page, 'floor-plans-admin-pins-375');

  // A shopper: the pin is a link on the Floors page, the lift is named.
  const shopper = await browser.newPage({ baseURL: test.info().project.use.baseURL });
  await registerUser(shopper);
  await shopper.goto(`/user/floors#floor-${floor.id}`);
  const section = shopper.getByRole('region', { name: floorName });
  await expect(section.getByRole('img', { name: 'Lift, amenity' })).toBeVisible();
  const pinLink = section.getByRole('link', { name: `${shopName}, shop` });
  await expect(pinLink).toHaveAttribute('href', `/user/shops/${shop.id}`);
  await pinLink.click();
  await expect(shopper).toHaveURL(`/user/shops/${shop.id}`);
  const findIt = shopper.getByRole('region', { name: `Find it on ${floorName}` });
  await expect(findIt).toBeVisible();
  await expect(findIt.getByRole('link', { name: `${shopName}, shop` })).toHaveAttribute(
    'aria-current',
    'location',
  );

  // At 375 px: the zoom buttons zoom and reset; the pin stays a link.
  await shopper.setViewportSize({ width: 375, height: 800 });
  await findIt.getByRole('button', { name: 'Zoom in' }).click();
  await expect(findIt.getByText('Zoom 150%')).toBeVisible();
  await findIt.getByRole('button', { name: 'Zoom in' }).click();
  await expect(findIt.getByText('Zoom 225%')).toBeVisible();
  await findIt.getByRole('button', { name: 'Zoom out' }).click();
  await expect(findIt.getByText('Zoom 150%')).toBeVisible();
  await findIt.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(findIt.getByRole('button', { name: 'Reset zoom' })).toBeDisabled();
  const width = await scrollWidth(shopper);
  expect(width).toBeLessThanOrEqual(375);
  await shopper.close();
});

test('the demo mall shows its floors\u2019 plans with every shop pinned', async ({ page }) => {
  await registerUser(page);
  await page.goto('/user/floors');
  const ground = page.getByRole('region', { name: 'Ground Floor' });
  await expect(ground.getByTestId('plan-frame')).toBeVisible();
  await expect(ground.getByRole('link', { name: /, shop$/ })).toHaveCount(6);
  await expect(ground.getByRole('link', { name: 'Voltbay, shop' })).toBeVisible();
  await screenshot(page, 'floor-plans-floors-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await screenshot(page, 'floor-plans-floors-375');
  await page.goto('/user/floors');
  const first = page.getByRole('region', { name: 'First Floor' });
  await first.getByRole('link', { name: 'Pixel Point, shop' }).click();
  const findIt = page.getByRole('region', { name: 'Find it on First Floor' });
  await expect(findIt).toBeVisible();
  await findIt.scrollIntoViewIfNeeded();
  await screenshot(page, 'floor-plans-find-it-375');
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'floor-plans-find-it-1280');
});
