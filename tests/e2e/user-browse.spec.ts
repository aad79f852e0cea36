import { expect, type Page, test } from '@playwright/test';
import { delayRequests, registerUser, scrollWidth } from './fixtures';
import { AdminApi, card, type Named, shopCards, shownDate, startsWith } from './user-fixtures';

const DEMO_CATEGORIES = [
  'Fashion',
  'Electronics',
  'Food & Dining',
  'Home & Living',
  'Beauty & Health',
  'Sports & Outdoors',
  'Books & Stationery',
  'Kids & Toys',
];

const categorySelect = (page: Page) => page.getByRole('combobox', { name: 'Category', exact: true });
const floorSelect = (page: Page) => page.getByRole('combobox', { name: 'Floor', exact: true });

/** Query parameter `name` of the page's URL. */
const param = (url: string, name: string) => new URL(url).searchParams.get(name);

test.describe('Shopper: dashboard and shops', () => {
  // A category of our own with exactly three shops (two on a floor of our own), so counts do not depend
  // on what other tests add to the demo mall meanwhile.
  let admin: AdminApi;
  let category: Named;
  let floor: Named;
  let shops: Named[];

  test.beforeAll(async ({ playwright }) => {
    admin = await AdminApi.create(playwright);
    category = await admin.category();
    floor = await admin.floor();
    const ground = await admin.place('floors', 'Ground Floor');
    shops = [
      await admin.shop({ name: `${category.name} Alpha`, categoryId: category.id, floorId: floor.id }),
      await admin.shop({ name: `${category.name} Beta`, categoryId: category.id, floorId: floor.id }),
      await admin.shop({ name: `${category.name} Gamma`, categoryId: category.id, floorId: ground.id }),
    ];
  });

  test.afterAll(async () => {
    await admin?.dispose();
  });

  test('the dashboard shows 3 featured offers, View all offers and a tile per category', async ({ page }) => {
    await registerUser(page);
    const featured = page.getByRole('region', { name: 'Featured Offers' });
    await expect(featured.getByRole('article')).toHaveCount(3);
    for (const offer of await featured.getByRole('article').all()) {
      await expect(offer.getByText(/^\d+% OFF$/)).toBeVisible();
    }
    const tiles = page.getByRole('region', { name: 'Shop by Category' });
    for (const name of DEMO_CATEGORIES) {
      await expect(tiles.getByRole('link', { name: startsWith(name) })).toHaveAttribute(
        'href',
        `/user/shops?category=${encodeURIComponent(name)}`,
      );
    }
    await page.getByRole('link', { name: 'View all offers' }).click();
    await expect(page).toHaveURL('/user/offers');
    await expect(page.getByRole('heading', { name: 'Current Offers', level: 1 })).toBeVisible();
  });

  test('a category tile opens the filtered shops; reload and back keep the filter', async ({ page }) => {
    await registerUser(page);
    await page
      .getByRole('region', { name: 'Shop by Category' })
      .getByRole('link', { name: startsWith(category.name) })
      .click();
    await expect(page).toHaveURL(/\/user\/shops\?category=/);
    expect(param(page.url(), 'category')).toBe(category.name);
    await expect(categorySelect(page)).toHaveValue(category.name);
    await expect(floorSelect(page)).toHaveValue('');
    await expect(page.getByText('3 shops', { exact: true })).toBeVisible();
    await expect(shopCards(page)).toHaveCount(3);
    for (const shop of shops) {
      const shopCard = card(page, shop.name);
      await expect(shopCard.getByText(category.name, { exact: true })).toBeVisible();
    }
    await expect(card(page, shops[0]?.name ?? '').getByText(floor.name)).toBeVisible();
    await expect(card(page, shops[2]?.name ?? '').getByText('Ground Floor')).toBeVisible();

    await page.reload();
    await expect(categorySelect(page)).toHaveValue(category.name);
    await expect(shopCards(page)).toHaveCount(3);

    // The floor filter joins the URL too.
    await floorSelect(page).selectOption({ label: floor.name });
    await expect.poll(() => param(page.url(), 'floor')).toBe(floor.name);
    expect(param(page.url(), 'category')).toBe(category.name);
    await expect(page.getByText('2 shops', { exact: true })).toBeVisible();
    await expect(shopCards(page)).toHaveCount(2);

    // A shop and back: the filters are still there.
    await page.getByRole('link', { name: shops[0]?.name, exact: true }).click();
    await expect(page.getByRole('heading', { name: shops[0]?.name, level: 1 })).toBeVisible();
    await page.goBack();
    await expect(categorySelect(page)).toHaveValue(category.name);
    await expect(floorSelect(page)).toHaveValue(floor.name);
    await expect(shopCards(page)).toHaveCount(2);

    // One page of shops: no pager (the admin lists say 'Page 1 of 1').
    await expect(page.getByRole('navigation', { name: 'Shop pages' })).toHaveCount(0);

    // Back once more: the dashboard the list was opened from. Choosing the floor replaced the list's
    // history entry instead of adding one (a select changes at every arrow key).
    await page.goBack();
    await expect(page).toHaveURL('/user/dashboard');
    await page.goForward();
    await expect(floorSelect(page)).toHaveValue(floor.name);
    await expect(shopCards(page)).toHaveCount(2);

    // 'Back to shops' on a shop's page returns to the list it came from.
    await page.getByRole('link', { name: shops[1]?.name, exact: true }).click();
    await page.getByRole('link', { name: 'Back to shops' }).click();
    await expect(categorySelect(page)).toHaveValue(category.name);
    expect(param(page.url(), 'category')).toBe(category.name);
  });

  test('arrowing through the category and floor filters replaces the history entry', async ({ page }) => {
    await registerUser(page);
    await page.goto('/user/shops');
    await expect(page.getByText(/^\d+ shops$/)).toBeVisible();
    const before = await page.evaluate<number>('history.length');
    await categorySelect(page).focus();
    for (const _ of [1, 2, 3]) {
      const shown = await categorySelect(page).inputValue();
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => param(page.url(), 'category')).not.toBe(shown || null);
      // the next step from the option the list shows now
      await expect(categorySelect(page)).toHaveValue(param(page.url(), 'category') ?? '');
    }
    await floorSelect(page).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => param(page.url(), 'floor')).not.toBeNull();
    expect(param(page.url(), 'category')).not.toBeNull();
    expect(await page.evaluate<number>('history.length')).toBe(before);
    // Back leaves the list: to the dashboard it was opened after.
    await page.goBack();
    await expect(page).toHaveURL('/user/dashboard');
  });

  test('filters that match nothing show No shops found and a way to clear them', async ({ page }) => {
    await registerUser(page);
    await page.goto(`/user/shops?category=${encodeURIComponent(category.name)}`);
    await expect(shopCards(page)).toHaveCount(3);
    await floorSelect(page).selectOption({ label: 'Third Floor' });
    await expect(page.getByText('No shops found')).toBeVisible();
    await expect(shopCards(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL('/user/shops');
    await expect(categorySelect(page)).toHaveValue('');
    await expect(floorSelect(page)).toHaveValue('');
    await expect(page.getByText(/^\d+ shops$/)).toBeVisible();
  });

  test('an unknown category name in the URL means no filter', async ({ page }) => {
    await registerUser(page);
    await page.goto('/user/shops?category=No%20Such%20Category');
    await expect(categorySelect(page)).toHaveValue('');
    await expect(page).toHaveURL('/user/shops');
    await expect(page.getByText(/^\d+ shops$/)).toBeVisible();
    await expect(shopCards(page).first()).toBeVisible();
  });

  test('all shops are paginated by the server with the total count', async ({ page }) => {
    await registerUser(page);
    await page.goto('/user/shops');
    await expect(page.getByText(/^\d+ shops$/)).toBeVisible();
    const total = Number((await page.getByText(/^\d+ shops$/).textContent())?.split(' ')[0]);
    expect(total).toBeGreaterThanOrEqual(24);
    const pages = Math.ceil(total / 12);
    const pager = page.getByRole('navigation', { name: 'Shop pages' });
    await expect(pager.getByText(`Page 1 of ${pages}`)).toBeVisible();
    await expect(shopCards(page)).toHaveCount(12);
    await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();
    const firstPageShop = await shopCards(page).first().getByRole('heading').textContent();

    // A link to the next page (it works before any script has run: decision 034), turning it in place.
    await pager.getByRole('link', { name: 'Next' }).click();
    // Other tests may add or remove shops meanwhile: the page count may change, the page may not.
    await expect(pager.getByText(/^Page 2 of \d+$/)).toBeVisible();
    await expect.poll(() => param(page.url(), 'page')).toBe('2');
    await expect(card(page, firstPageShop ?? '')).toHaveCount(0);

    await page.goBack();
    await expect(pager.getByText(/^Page 1 of \d+$/)).toBeVisible();
    await expect(card(page, firstPageShop ?? '')).toBeVisible();
  });

  test("a spinner named 'Loading shops' shows while shops load; Compare Products links to compare", async ({
    page,
  }) => {
    await registerUser(page);
    await delayRequests(page, /\/api\/shops(\?|$)/, 1_000);
    await page.goto('/user/shops');
    await expect(page.getByRole('status', { name: 'Loading shops' })).toBeVisible();
    await expect(page.getByText(/^\d+ shops$/)).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading shops' })).toBeHidden();
    await page.getByRole('link', { name: 'Compare Products' }).click();
    await expect(page).toHaveURL('/user/compare');
  });

  test("a shop's page: badges, details, Current Offers and Products with ₹ prices and offers", async ({
    page,
  }) => {
    await registerUser(page);
    await page.goto('/user/shops?category=Fashion');
    await page.getByRole('link', { name: 'Threadline Studio', exact: true }).click();
    await expect(page).toHaveURL(/\/user\/shops\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: 'Threadline Studio', level: 1 })).toBeVisible();
    const header = page.getByRole('region', { name: 'Threadline Studio' });
    await expect(header.getByText('Fashion', { exact: true })).toBeVisible();
    await expect(header.getByText('Ground Floor', { exact: true })).toBeVisible();
    await expect(header.getByText('Unit G-04, beside the main atrium')).toBeVisible();
    await expect(header.getByText('10:00 – 22:00 daily')).toBeVisible();
    await expect(header.getByText('Contact')).toBeVisible();

    const offers = page.getByRole('region', { name: 'Current Offers' });
    const monsoon = card(offers, 'Monsoon Sale');
    await expect(monsoon.getByText('25% OFF')).toBeVisible();
    await expect(monsoon.getByText('Flat discount on linen shirts, kurtas and trousers.')).toBeVisible();
    const shopId = page.url().split('/').pop() ?? '';
    const response = await page.request.get(`/api/offers?shopId=${shopId}&active=true`);
    const { items } = (await response.json()) as { items: Array<{ title: string; endDate: string }> };
    const endDate = items.find((offer) => offer.title === 'Monsoon Sale')?.endDate ?? '';
    await expect(monsoon.getByText(`Valid until ${await shownDate(page, endDate)}`)).toBeVisible();

    const products = page.getByRole('region', { name: 'Products' });
    const linen = card(products, 'Linen Shirt');
    await expect(linen.getByText('On Offer', { exact: true })).toBeVisible();
    await expect(linen.getByText('Breathable linen shirt in a relaxed fit.')).toBeVisible();
    // 25% off ₹1,499.00, beside the struck-through original.
    await expect(linen.getByText('₹1,124.25')).toBeVisible();
    await expect(linen.locator('s')).toHaveText(/₹1,499\.00/);
    await expect(linen.getByRole('button', { name: 'Compare' })).toBeEnabled();

    const chinos = card(products, 'Chino Trousers');
    await expect(chinos.getByText('₹1,799.00')).toBeVisible();
    await expect(chinos.getByText('On Offer')).toHaveCount(0);
    await expect(chinos.locator('s')).toHaveCount(0);
    await expect(products.getByRole('article')).toHaveCount(7);
  });

  test('a shop with no products and no offers shows both empty states', async ({ page }) => {
    // In a category of its own: the other tests count the shops of ours.
    const emptyCategory = await admin.category();
    const empty = await admin.shop({
      categoryId: emptyCategory.id,
      floorId: floor.id,
      description: 'Opening soon.',
    });
    await registerUser(page);
    await page.goto(`/user/shops/${empty.id}`);
    await expect(page.getByRole('heading', { name: empty.name, level: 1 })).toBeVisible();
    await expect(page.getByText('No products available in this shop.')).toBeVisible();
    await expect(page.getByText('No current offers at this shop.')).toBeVisible();
    // Its details were left blank.
    await expect(page.getByText('Not listed')).toHaveCount(3);
  });

  for (const [what, id] of [
    ['an unknown id', '00000000-0000-4000-8000-000000000000'],
    ['an id that is not a uuid', 'not-a-shop'],
  ] as const) {
    test(`${what} shows Shop not found with Back to shops`, async ({ page }) => {
      await registerUser(page);
      await page.goto(`/user/shops/${id}`);
      await expect(page.getByRole('heading', { name: 'Shop not found' })).toBeVisible();
      await page.getByRole('link', { name: 'Back to shops' }).click();
      await expect(page).toHaveURL('/user/shops');
      await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeVisible();
    });
  }

  test('at 375 px the shops page has no horizontal scroll', { tag: '@phone' }, async ({ page }) => {
    await registerUser(page);
    await page.goto(`/user/shops?category=${encodeURIComponent(category.name)}`);
    await expect(shopCards(page)).toHaveCount(3);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await page.goto('/user/shops');
    await expect(page.getByText(/^\d+ shops$/)).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    // Tap targets: the filters and the pager's buttons are at least 40 px high.
    for (const control of [
      categorySelect(page),
      floorSelect(page),
      page.getByRole('link', { name: 'Next' }),
    ]) {
      const box = await control.boundingBox();
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(40);
    }
  });
});
