// Opening hours with a fixed clock: the browser's clock (Playwright's page.clock) and the server's clock
// as the browser learns it (GET /api/settings' `now`, answered for the fixed instant), so "Open now ·
// closes 18:00" and "Closed · opens 12:30" are known answers; then time moves on with the page open.
import { expect, type Page, test } from '@playwright/test';
import { everyDay } from '../../src/shared/hours-core';
import { addDays, wallClock, weekdayOf, zonedInstant } from '../../src/shared/hours-status';
import { registerAdmin, registerUser } from './fixtures';
import { AdminApi, BASE_URL, card, type Named } from './user-fixtures';

let admin: AdminApi;
let category: Named;
let early: Named;
let late: Named;
let textOnly: Named;
let timeZone: string;
/** A Wednesday at 12:00 in the mall's zone, a few days from now. */
let noon: number;

test.beforeAll(async ({ playwright }) => {
  admin = await AdminApi.create(playwright);
  const settings = await (await admin.request.get(`${BASE_URL}/api/settings`)).json();
  timeZone = settings.timeZone;
  let day = addDays(wallClock(Date.now(), timeZone).date, 1);
  while (weekdayOf(day) !== 'wed') day = addDays(day, 1);
  noon = zonedInstant(day, 12 * 60, timeZone);
  category = await admin.category();
  const floor = await admin.floor();
  const post = async (name: string, fields: object) => {
    const response = await admin.request.post('/api/shops', {
      data: { name: `${category.name} ${name}`, categoryId: category.id, floorId: floor.id, ...fields },
    });
    expect(response.status(), await response.text()).toBe(201);
    const shop = (await response.json()) as Named;
    return shop;
  };
  early = await post('Early Bird', {
    openingHours: '09:00 – 18:00 daily',
    hours: everyDay('09:00', '18:00'),
  });
  late = await post('Night Owl', { openingHours: '12:30 – 23:00 daily', hours: everyDay('12:30', '23:00') });
  textOnly = await post('Text Only', { openingHours: 'Mon–Sat 10am–9pm, Sun closed' });
});

test.afterAll(async () => {
  for (const shop of [early, late, textOnly]) if (shop) await admin.request.delete(`/api/shops/${shop.id}`);
  await admin?.dispose();
});

/** The page's clock at `at`, and the server's clock as the page learns it (GET /api/settings) too. */
async function fixClock(page: Page, at: number) {
  await page.clock.install({ time: at });
  await page.route('**/api/settings', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    const now = await pageNow(page);
    await route.fulfill({
      response,
      json: { ...body, now: new Date(now).toISOString(), today: wallClock(now, body.timeZone).date },
    });
  });
}

/** The page's (fake) clock; asked again if a navigation replaced the document meanwhile. */
async function pageNow(page: Page): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await page.evaluate(() => Date.now());
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const status = (page: Page, name: string) => card(page, name).getByTestId('open-status');

for (const width of [375, 1280]) {
  test(`shop cards say open or closed and stay right as time passes (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await fixClock(page, noon);
    await registerUser(page);
    await page.goto(`/user/shops?category=${encodeURIComponent(category.name)}`);
    await expect(status(page, early.name)).toHaveText('Open now · closes 18:00');
    await expect(status(page, late.name)).toHaveText('Closed · opens 12:30');
    // Text only: no verdict, the free text on its page speaks.
    await expect(card(page, textOnly.name)).toBeVisible();
    await expect(status(page, textOnly.name)).toHaveCount(0);
    if (width === 375)
      await page.screenshot({ path: 'docs/screenshots/hours-shops-375.png', fullPage: true });

    // Forty minutes on, no reload: the night owl has opened.
    await page.clock.fastForward('40:00');
    await expect(status(page, late.name)).toHaveText('Open now · closes 23:00');
    // 17:40: the early bird closes in 20 minutes; at 18:00 it is closed until tomorrow.
    await page.clock.fastForward('05:00:00');
    await expect(status(page, early.name)).toHaveText('Closes in 20 min');
    if (width === 1280)
      await page.screenshot({ path: 'docs/screenshots/hours-shops-1280.png', fullPage: true });
    await page.clock.fastForward('20:00');
    await expect(status(page, early.name)).toHaveText('Closed · opens tomorrow 09:00');
  });
}

test('the Open now filter lists the shops open at the mall clock, kept in the URL with the category', async ({
  page,
}) => {
  await fixClock(page, noon);
  await registerUser(page);
  await page.goto(`/user/shops?category=${encodeURIComponent(category.name)}`);
  await expect(card(page, late.name)).toBeVisible();
  // A controlled box: its state follows the URL, a moment after the click.
  await page.getByRole('checkbox', { name: 'Open now' }).click();
  await expect(page.getByRole('checkbox', { name: 'Open now' })).toBeChecked();
  await expect(page).toHaveURL(/open=now/);
  await expect(page).toHaveURL(/category=/);
  await expect(card(page, early.name)).toBeVisible();
  await expect(card(page, late.name)).toHaveCount(0);
  await expect(card(page, textOnly.name)).toHaveCount(0);
  await expect(page.getByText('1 shop', { exact: true })).toBeVisible();
  // An hour on, the night owl is open too: the list follows the clock, not a cached answer.
  await page.clock.fastForward('01:00:00');
  await expect(card(page, late.name)).toBeVisible();
  await expect(page.getByText('2 shops', { exact: true })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Open now' }).click();
  await expect(page.getByRole('checkbox', { name: 'Open now' })).not.toBeChecked();
  await expect(card(page, textOnly.name)).toBeVisible();
});

test("the shop page and the dashboard show the hours; the landing page the mall's today", async ({
  page,
}) => {
  await fixClock(page, noon);
  await page.goto('/');
  await expect(page.getByText(/Mall hours today:/)).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'docs/screenshots/hours-landing-375.png' });
  await registerUser(page);
  await expect(page.getByText(/Mall hours today:/)).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/hours-dashboard-375.png' });
  await page.goto(`/user/shops/${early.id}`);
  await expect(page.getByTestId('open-status')).toHaveText('Open now · closes 18:00');
  await expect(page.getByRole('heading', { name: 'Weekly hours' })).toBeVisible();
  await expect(page.getByText('Mon–Sun')).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/hours-shop-375.png', fullPage: true });
});

test('the admin form offers free text as structured hours, and saves them only when confirmed', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await registerAdmin(page);
  await page.goto(`/admin/shops/${textOnly.id}`);
  const offer = page.getByRole('region', { name: 'Suggested hours' });
  await expect(offer).toContainText('Mon–Sat');
  await expect(offer).toContainText('Sun');
  // Nothing is converted until the admin says so.
  expect((await (await admin.request.get(`/api/shops/${textOnly.id}`)).json()).hours).toBeNull();
  await offer.getByRole('button', { name: 'Use these hours' }).click();
  await expect(page.getByLabel('Monday opens')).toHaveValue('10:00');
  await expect(page.getByLabel('Saturday closes')).toHaveValue('21:00');
  await expect(page.getByLabel('Closed on Sunday')).toBeChecked();
  // A second interval on Monday, then a special day.
  await page.getByRole('button', { name: 'Add interval on Monday' }).click();
  await page.getByLabel('Monday closes (interval 1)').fill('14:00');
  await page.getByLabel('Monday opens (interval 2)').fill('16:00');
  await page.getByLabel('Monday closes (interval 2)').fill('21:00');
  await page.getByRole('button', { name: 'Add special day' }).click();
  await page.getByLabel('Date', { exact: true }).fill('2027-01-01');
  await page.getByLabel('Note (shown to shoppers)').fill("New Year's Day");
  await page.screenshot({ path: 'docs/screenshots/hours-admin-shop-1280.png', fullPage: true });
  await page.getByRole('button', { name: 'Update Shop' }).click();
  await expect(page).toHaveURL(/\/admin\/shops(\?|$)/);
  const saved = (await (await admin.request.get(`/api/shops/${textOnly.id}`)).json()).hours;
  expect(saved.weekly.mon).toEqual([
    { open: '10:00', close: '14:00' },
    { open: '16:00', close: '21:00' },
  ]);
  expect(saved.weekly.sun).toEqual([]);
  expect(saved.special).toEqual([{ date: '2027-01-01', intervals: [], note: "New Year's Day" }]);
  expect((await (await admin.request.get(`/api/shops/${textOnly.id}`)).json()).openingHours).toBe(
    'Mon–Sat 10am–9pm, Sun closed',
  );
});

test('the admin Mall hours screen shows and refuses bad hours with a message (375 px)', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 900 });
  await registerAdmin(page);
  await page.goto('/admin/dashboard');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation').getByRole('link', { name: 'Mall hours' }).click();
  await expect(page.getByRole('heading', { name: 'Mall hours' })).toBeVisible();
  await expect(page.getByLabel('Monday opens')).toHaveValue('07:00');
  await page.getByLabel('Tuesday closes').fill('07:00');
  await page.getByRole('button', { name: 'Save mall hours' }).click();
  await expect(page.getByText('Closing time must differ from opening time').first()).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/hours-admin-mall-375.png', fullPage: true });
  // Nothing was saved.
  const mall = (await (await admin.request.get('/api/mall-hours')).json()).hours;
  expect(mall.weekly.tue).toEqual([{ open: '07:00', close: '23:30' }]);
});
