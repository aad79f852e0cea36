// Floors in level order and their amenities (docs/decisions/018), as a shopper and an admin meet them:
// the /user/shops floor filter and the Floors page from Lower Ground up, an amenity shown with its icon's
// text, a shop's phone and email as links; at 1280 and 375 px. E2E_SCREENSHOTS=dir saves the screens.
import { expect, type Page, test } from '@playwright/test';
import { registerAdmin, registerUser, scrollWidth, uniqueName } from './fixtures';

/** The demo mall's floors, lowest first (their names alone sort "First, Ground, Lower Ground…"). */
const DEMO_FLOORS = ['Lower Ground', 'Ground Floor', 'First Floor', 'Second Floor', 'Third Floor'];
/** The demo's Ground Floor shops by unit: G-02, G-04, G-07, G-09, G-11, G-15. */
const GROUND_BY_UNIT = [
  'Voltbay',
  'Threadline Studio',
  'Glow Apothecary',
  'Mirror Mirror Beauty',
  'Saffron & Silk',
  'Bean There Café',
];

async function screenshot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

async function shopperWalk(page: Page, width: number) {
  await registerUser(page);

  // The shops filter lists the floors by level; floors other tests add go above them.
  await page.goto('/user/shops');
  const options = page.getByRole('combobox', { name: 'Floor', exact: true }).locator('option');
  await expect
    .poll(async () => (await options.allTextContents()).slice(0, DEMO_FLOORS.length + 1))
    .toEqual(['All Floors', ...DEMO_FLOORS]);

  // The top bar's Floors link: every floor from the lowest up.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Floors' }).click();
  await expect(page).toHaveURL('/user/floors');
  await expect(page.getByRole('heading', { name: 'Floors', level: 1 })).toBeVisible();
  const floors = page.getByRole('list', { name: 'Floors from the lowest up' });
  await expect
    .poll(async () =>
      (await floors.getByRole('heading', { level: 2 }).allTextContents()).slice(0, DEMO_FLOORS.length),
    )
    .toEqual(DEMO_FLOORS);

  // The Lower Ground has no shops, and its parking entrance, lift and ATM.
  const lower = page.getByRole('region', { name: 'Lower Ground' });
  await expect(lower.getByText('Level \u22121')).toBeVisible();
  await expect(lower.getByText('No shops on this floor yet.')).toBeVisible();
  const lowerAmenities = lower.getByRole('list', { name: 'Amenities on Lower Ground' });
  await expect(lowerAmenities.getByText('Parking entrance', { exact: true })).toBeVisible();
  await expect(lowerAmenities.getByText('Car park ramp, south side')).toBeVisible();

  // The Ground Floor's shops by unit (G-2 before G-11), each a link to its page.
  const ground = page.getByRole('list', { name: 'Shops on Ground Floor' });
  const names = await ground.getByRole('link').allTextContents();
  expect(names.filter((name) => GROUND_BY_UNIT.includes(name))).toEqual(GROUND_BY_UNIT);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
  await screenshot(page, `floors-${width}`);

  // The shop's contact: its phone and email are links (the demo's "+91 80 4000 1175 · hello@voltbay.example").
  await ground.getByRole('link', { name: 'Voltbay' }).click();
  await expect(page.getByRole('heading', { name: 'Voltbay', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: '+91 80 4000 1175' })).toHaveAttribute(
    'href',
    'tel:+918040001175',
  );
  await expect(page.getByRole('link', { name: 'hello@voltbay.example' })).toHaveAttribute(
    'href',
    'mailto:hello@voltbay.example',
  );
  expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
  await screenshot(page, `floors-shop-contact-${width}`);
}

test.describe('Floors', () => {
  test('a shopper finds the floors in level order, their amenities and a shop to call', async ({ page }) => {
    await shopperWalk(page, 1280);
  });

  test('the same at 375 px, nothing wider than the screen', { tag: '@phone' }, async ({ page }) => {
    await shopperWalk(page, 375);
  });

  test('an admin sets a floor level, adds an amenity the shoppers then see, and deletes it after confirming', async ({
    page,
  }) => {
    await registerAdmin(page);
    await page.goto('/admin/categories');
    const floorsList = page.getByRole('list', { name: 'Floors' });
    await expect(floorsList.getByRole('listitem').first()).toContainText('Lower Ground');
    await expect(floorsList.getByRole('listitem').first()).toContainText('Level \u22121');

    // A level another floor holds is refused, naming it.
    const floorName = uniqueName('Zeta Deck');
    await page.getByLabel('New floor name').fill(floorName);
    await page.getByLabel('Level', { exact: true }).fill('0');
    await page.getByRole('button', { name: 'Add Floor' }).click();
    await expect(page.getByText('Ground Floor is already at level 0')).toBeVisible();
    // Without a level it goes one above the highest, at the end of the list.
    await page.getByLabel('Level', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Add Floor' }).click();
    await expect(floorsList.getByRole('listitem').last()).toContainText(floorName);

    const location = uniqueName('By the east doors');
    const form = page.getByRole('form', { name: 'Add an amenity' });
    await form.getByLabel('Floor', { exact: true }).selectOption({ label: 'Lower Ground' });
    await form.getByLabel('Kind').selectOption({ label: 'Information desk' });
    await form.getByLabel('Location').fill(location);
    await form.getByRole('button', { name: 'Add Amenity' }).click();
    await expect(page.getByText('Amenity added')).toBeVisible();
    const onLower = page.getByRole('list', { name: 'Amenities on Lower Ground' });
    await expect(onLower.getByText(location)).toBeVisible();
    await screenshot(page, 'floors-admin-1280');

    // The shoppers' page shows it (the admin reads it through the API the page uses).
    const guide = await (await page.request.get('/api/floor-guide')).json();
    const lowerGround = guide.floors.find((floor: { name: string }) => floor.name === 'Lower Ground');
    expect(lowerGround.amenities).toContainEqual(
      expect.objectContaining({ kind: 'information-desk', location }),
    );

    // Delete asks first; Cancel keeps it, Delete removes it.
    const row = onLower.getByRole('listitem').filter({ hasText: location });
    await row.getByRole('button', { name: /Delete/ }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete Information desk (Lower Ground)?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(onLower.getByText(location)).toBeVisible();
    await row.getByRole('button', { name: /Delete/ }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Amenity deleted')).toBeVisible();
    await expect(onLower.getByText(location)).toHaveCount(0);

    // Clean-up: the floor this test added.
    const floors = (await (await page.request.get('/api/floors')).json()).items as Array<{
      id: string;
      name: string;
    }>;
    const added = floors.find((floor) => floor.name === floorName);
    if (added) await page.request.delete(`/api/floors/${added.id}`);
  });

  test('the admin screen with levels and amenities fits 375 px', { tag: '@phone' }, async ({ page }) => {
    await registerAdmin(page);
    await page.goto('/admin/categories');
    await expect(
      page
        .getByRole('list', { name: 'Amenities on Lower Ground' })
        .getByText('Parking entrance', { exact: true }),
    ).toBeVisible();
    await expect(page.getByRole('form', { name: 'Add an amenity' }).getByLabel('Kind')).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await screenshot(page, 'floors-admin-375');
  });
});
