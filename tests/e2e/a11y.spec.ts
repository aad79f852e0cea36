// Every screen at a phone's and a desktop's width, in the states people see (filled lists, empty
// states, open dialogs, form errors), checked by axe for WCAG 2.2 AA; then what axe cannot see: each
// screen's title, focus on route changes and after in-page actions, the skip link, the admin menu drawer
// as a modal on a phone, and long names without spaces that must wrap (docs/accessibility.md).
// One sign-in per role and width; the screens are visited in turn.
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import {
  ADMIN_INVITE_CODE,
  confirmDialog,
  localDate,
  PASSWORD,
  scrollWidth,
  uniqueEmail,
  uniqueName,
} from './fixtures';
import { expectNoAxeViolations } from './support/axe';
import { AdminApi, type Named } from './user-fixtures';

const WIDTHS = [375, 1280] as const;

async function newPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: { width, height: 800 },
  });
  return context.newPage();
}

/** Signs the page's context in as a new account through the API (one request, no screens). */
async function signUp(page: Page, role: 'user' | 'admin'): Promise<void> {
  const response = await page.request.post('/api/auth/register', {
    data: {
      email: uniqueEmail(`a11y-${role}`),
      password: PASSWORD,
      role,
      ...(role === 'admin' ? { inviteCode: ADMIN_INVITE_CODE } : {}),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** The screen has its heading and nothing is loading any more (skeletons, spinners). */
async function settled(page: Page, heading?: string | RegExp): Promise<void> {
  await expect(
    page.getByRole('heading', { level: 1, ...(heading === undefined ? {} : { name: heading }) }),
  ).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole('status', { name: /^Loading/ })).toHaveCount(0);
}

/** Opens `path`, waits for it to settle (and for `ready` when given) and runs axe on it. */
/** Saves docs/screenshots/a11y-<name>-<width>.png when asked (E2E_SCREENSHOTS=1): a run leaves no files. */
async function shot(page: Page, name: string): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `docs/screenshots/a11y-${name}-${width}.png`, fullPage: true });
}

async function check(page: Page, path: string, what: string, ready?: Locator, name?: string): Promise<void> {
  await page.goto(path);
  await settled(page);
  if (ready) await expect(ready).toBeVisible();
  if (name) await shot(page, name);
  // a title of its own: "Manage Shops · Super Mall" (the landing page is the mall itself)
  if (path !== '/') await expect(page).toHaveTitle(/^.+ · Super Mall$/);
  await expectNoAxeViolations(page, `${what} (${path})`);
}

/** The accessible name of the focused element, or its tag when it has none. */
function focused(page: Page): Promise<string> {
  return page.evaluate<string>(
    `(() => { const e = document.activeElement; return !e || e === document.body ? 'BODY' : (e.getAttribute('aria-label') || e.textContent || e.tagName).trim(); })()`,
  );
}

/** The innermost elements that reach past the viewport's right edge (for a failure's message). */
function overflowing(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const wide = [...document.body.querySelectorAll('*')].filter(
      (e) => e.getBoundingClientRect().right > innerWidth + 1 && getComputedStyle(e).position !== 'fixed',
    );
    const innermost = wide.filter((e) => !wide.some((other) => other !== e && e.contains(other)));
    return innermost.slice(0, 6).map((e) => e.tagName.toLowerCase() + '.' + [...e.classList].join('.')).join(' | ');
  })()`);
}

/** 100 characters without a space: a name that must wrap, never widen the page. */
const longWord = (prefix: string, length = 100) =>
  `${prefix}${'Supercalifragilisticexpialidocious'.repeat(4)}`.slice(0, length);

test.describe('Accessibility', () => {
  test('the axe check finds what it must: a nameless button, an image without text, a field without a label, in the app and after a navigation', async ({
    page,
  }) => {
    await page.goto('/login');
    await expectNoAxeViolations(page, 'the sign-in page');
    await page.evaluate(`document.querySelector('main').insertAdjacentHTML('beforeend',
      '<button type="button"></button><img src="/favicon.svg"><input type="text">')`);
    const failure = await expectNoAxeViolations(page, 'planted').then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toContain('button-name');
    expect(failure).toContain('image-alt');
    expect(failure).toContain('label');
    // a new document: axe is put in again, and the page is clean
    await page.goto('/register');
    await expectNoAxeViolations(page, 'the registration page');
  });

  let admin: AdminApi;
  let emptyCategory: Named;
  let longShop: Named;
  let longProduct: Named;
  let otherProduct: Named;

  test.beforeAll(async ({ playwright }) => {
    admin = await AdminApi.create(playwright);
    emptyCategory = await admin.category(uniqueName('Zeta Empty'));
    // a shop whose name, category, floor, location, contact, product and offer have no spaces at all
    const category = await admin.category(longWord(`Cat${Date.now().toString(36)}`, 60));
    const floor = await admin.floor(longWord(`Flr${Date.now().toString(36)}`, 60));
    longShop = await admin.shop({
      name: longWord(`Shop${Date.now().toString(36)}`),
      categoryId: category.id,
      floorId: floor.id,
      description: longWord('Description', 200),
      location: longWord('Location', 120),
      contact: longWord('contact', 120),
      openingHours: longWord('Hours', 120),
    });
    const offer = await admin.request.post('/api/offers', {
      data: {
        title: longWord(`Offer${Date.now().toString(36)}`),
        discount: 30,
        startDate: localDate(0),
        // ends today: first among the running offers, on the dashboard and the offers page
        endDate: localDate(0),
        shopId: longShop.id,
      },
    });
    expect(offer.status(), await offer.text()).toBe(201);
    const { id: offerId } = (await offer.json()) as { id: string };
    longProduct = await admin.product({
      shopId: longShop.id,
      name: longWord(`Product${Date.now().toString(36)}`),
      description: longWord('Detail', 300),
      offerId,
      price: 12345678.9,
    });
    otherProduct = await admin.product({
      shopId: longShop.id,
      name: longWord(`Other${Date.now().toString(36)}`),
      description: longWord('Words', 300),
      price: 99,
    });
  });

  test.afterAll(async () => {
    await admin?.dispose();
  });

  for (const width of WIDTHS) {
    test(`visitors' screens pass axe at ${width} px`, async ({ browser }) => {
      const page = await newPage(browser, width);
      await check(page, '/', 'landing');
      await check(page, '/login', 'sign-in');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByText('Email is required')).toBeVisible();
      await expectNoAxeViolations(page, 'sign-in with form errors');
      await page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
      await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
      await expectNoAxeViolations(page, "sign-in with the server's error");
      await check(page, '/register', 'register');
      await page.getByLabel('Account Type').selectOption({ label: 'Admin' });
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page.getByText('Email is required')).toBeVisible();
      await expectNoAxeViolations(page, 'register as admin with form errors');
      await check(page, '/404', '404');
      await check(page, '/unauthorized', '403');
      await page.context().close();
    });

    test(`shoppers' screens pass axe at ${width} px`, async ({ browser }) => {
      test.setTimeout(90_000);
      const page = await newPage(browser, width);
      await signUp(page, 'user');
      await check(
        page,
        '/user/dashboard',
        'shopper dashboard',
        page.getByRole('region', { name: 'Featured Offers' }),
      );
      await check(page, '/user/shops', 'shops', page.getByText(/^\d+ shops$/));
      await check(
        page,
        `/user/shops?category=${encodeURIComponent(emptyCategory.name)}`,
        'shops, none in the category',
        page.getByText('No shops found'),
      );
      await check(
        page,
        `/user/shops/${longShop.id}`,
        'a shop with an offer and a product',
        page.getByText(longProduct.name),
        'shop-long-names',
      );
      await check(page, '/user/floors', 'floors with their plans', page.getByTestId('plan-frame').first());
      // A demo shop's "Find it on First Floor": its pin highlighted on the plan (docs/decisions/021).
      const guide = (await (await page.request.get('/api/floor-guide')).json()) as {
        floors: { name: string; shops: { id: string; name: string }[] }[];
      };
      const pixel = guide.floors.flatMap((floor) => floor.shops).find((shop) => shop.name === 'Pixel Point');
      await check(
        page,
        `/user/shops/${pixel?.id}`,
        'a shop with its Find it view',
        page.getByRole('region', { name: 'Find it on First Floor' }).getByTestId('plan-frame'),
      );
      await check(page, '/user/offers', 'offers');
      await check(
        page,
        '/user/compare',
        'compare, empty',
        page.getByText('No products selected for comparison'),
      );
      await page.evaluate(
        `sessionStorage.setItem('super-mall:compare', JSON.stringify(['${longProduct.id}', '${otherProduct.id}']))`,
      );
      await check(
        page,
        '/user/compare',
        'compare, two products',
        page.getByText(longProduct.name).filter({ visible: true }).first(),
        'compare-long-names',
      );
      await check(page, '/user/search?q=coffee', 'search results');
      await check(page, '/user/search?q=qqqxqqqx', 'search without results', page.getByText('Nothing found'));
      await page.context().close();
    });

    test(`admins' screens pass axe at ${width} px`, async ({ browser }) => {
      test.setTimeout(120_000);
      const page = await newPage(browser, width);
      await signUp(page, 'admin');
      await check(page, '/admin/dashboard', 'admin dashboard', page.getByText(/of \d+ total/), 'dashboard');
      await page.getByRole('button', { name: 'Create invite code' }).click();
      await expect(page.getByLabel('New invite code')).toBeFocused();
      await expectNoAxeViolations(page, 'admin dashboard with a new invite code');
      await page
        .getByRole('button', { name: /^Revoke/ })
        .first()
        .click();
      await expect(confirmDialog(page)).toBeVisible();
      await expectNoAxeViolations(page, 'revoke invite dialog');
      await confirmDialog(page).getByRole('button', { name: 'Cancel' }).click();

      // A floor's plan and its pins (docs/decisions/021).
      const floors = (await (await page.request.get('/api/floors')).json()) as {
        items: { id: string; name: string }[];
      };
      const ground = floors.items.find((floor) => floor.name === 'Ground Floor');
      await check(
        page,
        `/admin/floors/${ground?.id}/plan`,
        'a floor plan with its pins',
        page.getByRole('button', { name: /^Voltbay pin/ }),
      );

      for (const [path, what, noun] of [
        ['/admin/shops', 'shops', 'Shop'],
        ['/admin/products', 'products', 'Product'],
        ['/admin/offers', 'offers', 'Offer'],
      ] as const) {
        await check(page, path, `admin ${what}`, page.getByRole('row').nth(1), `admin-${what}`);
        await check(
          page,
          `${path}?q=qqqxqqqx`,
          `admin ${what}, none found`,
          page.getByText(`No ${what} found`),
        );
        await check(page, `${path}/new`, `new ${what} form`);
        await page.getByRole('button', { name: `Add ${noun}`, exact: true }).click();
        await expect(page.getByText(/is required|must be/).first()).toBeVisible();
        await expectNoAxeViolations(page, `new ${what} form with errors`);
      }
      await page.goto(`/admin/shops?q=${encodeURIComponent(longShop.name)}`);
      await page
        .getByRole('button', { name: /^Delete/ })
        .first()
        .click();
      await expect(confirmDialog(page)).toContainText('will be deleted too');
      await expectNoAxeViolations(page, 'delete shop dialog');
      await page.keyboard.press('Escape');
      await check(page, `/admin/shops/${longShop.id}`, 'edit shop form', page.getByLabel('Name'));
      await check(
        page,
        '/admin/categories',
        'categories and floors',
        page.getByRole('heading', { name: 'Categories', exact: true }),
      );
      await check(page, '/admin/activity', 'activity');
      await check(page, '/admin/approvals', 'approvals');
      await check(page, '/admin/mall-hours', 'mall hours');
      await check(page, '/admin/search?q=coffee', 'admin search');
      if (width < 768) {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
        await expectNoAxeViolations(page, 'admin menu drawer open');
        await shot(page, 'admin-drawer');
      }
      await page.context().close();
    });
  }

  test('long names without spaces wrap: no shopper screen is wider than a phone, nor compare than a desktop', async ({
    browser,
  }) => {
    for (const width of WIDTHS) {
      const page = await newPage(browser, width);
      await signUp(page, 'user');
      await page.goto('/user/dashboard');
      await page.evaluate(
        `sessionStorage.setItem('super-mall:compare', JSON.stringify(['${longProduct.id}', '${otherProduct.id}']))`,
      );
      const screens: Array<[string, Locator]> = [
        ['/user/dashboard', page.getByText(longShop.name).first()],
        [`/user/shops?q=${encodeURIComponent(longShop.name)}`, page.getByText('1 shop', { exact: true })],
        [`/user/shops/${longShop.id}`, page.getByText(longProduct.name)],
        ['/user/floors', page.getByRole('heading', { name: /^Flr/ })],
        ['/user/offers', page.getByText(longShop.name).first()],
        ['/user/compare', page.getByText(longProduct.name).filter({ visible: true }).first()],
        [
          `/user/search?q=${encodeURIComponent(longShop.name.slice(0, 40))}`,
          page.getByText(longShop.name).first(),
        ],
      ];
      // at 1280 px the compare table is the one that widened the page
      for (const [path, ready] of width === 375 ? screens : screens.slice(5, 6)) {
        await page.goto(path);
        await settled(page);
        await expect(ready).toBeVisible();
        expect(
          await scrollWidth(page),
          `${path} at ${width} px: ${await overflowing(page)}`,
        ).toBeLessThanOrEqual(width);
      }
      await page.context().close();
    }
  });

  test('each screen is titled; a route change focuses its heading; a skip link comes first', async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Sign in · Super Mall');
    // a loaded page keeps the browser's focus; the first Tab reaches the skip link
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
    const historyBefore = await page.evaluate<number>('history.length');
    expect(historyBefore).toBeGreaterThan(0);

    // registering goes to the dashboard: focus on its heading, and the title says where
    await page.getByRole('link', { name: 'Create one' }).click();
    await expect(page).toHaveTitle('Create Account · Super Mall');
    await expect(page.getByRole('heading', { name: 'Create Account', level: 1 })).toBeFocused();
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('a11y-focus'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL('/user/dashboard');
    await expect(page).toHaveTitle('Dashboard · Super Mall');
    await expect(page.getByRole('heading', { name: 'Welcome to Super Mall', level: 1 })).toBeFocused();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shops' }).click();
    await expect(page).toHaveTitle('Shops · Super Mall');
    await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeFocused();
    // the next Tab continues from the heading, into the page
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Compare Products');

    // a shop's page is titled with its name, once read
    await page.goto(`/user/shops?q=${encodeURIComponent(longShop.name)}`);
    await page.getByRole('link', { name: longShop.name }).click();
    await expect(page).toHaveTitle(`${longShop.name} · Super Mall`);
    await expect(page.getByRole('heading', { name: longShop.name, level: 1 })).toBeFocused();
    await page.goBack();
    await expect(page).toHaveTitle('Shops · Super Mall');
    await expect(page.getByRole('heading', { name: 'Shops', level: 1 })).toBeFocused();
  });

  test('focus after in-page actions: a new invite code, Add Category, a confirmed Delete, a cancelled dialog', async ({
    page,
  }) => {
    await signUp(page, 'admin');
    await page.goto('/admin/dashboard');
    await expect(page).toHaveTitle('Dashboard · Super Mall');
    await page.getByRole('button', { name: 'Create invite code' }).click();
    await expect(page.getByLabel('New invite code')).toBeFocused();
    // Cancel in a dialog: back to the button that opened it
    const revoke = page.getByRole('button', { name: /^Revoke/ }).first();
    await revoke.click();
    await expect(confirmDialog(page).getByRole('button', { name: 'Cancel' })).toBeFocused();
    await confirmDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(revoke).toBeFocused();

    await page.goto('/admin/categories');
    await expect(page).toHaveTitle('Categories & Floors · Super Mall');
    const categories = page.getByRole('region', { name: 'Categories', exact: true });
    const name = uniqueName('Zeta Focus');
    await categories.getByLabel('New category name').fill(name);
    await categories.getByRole('button', { name: 'Add Category' }).click();
    await expect(categories.getByRole('button', { name: `Delete ${name}` })).toBeVisible();
    await expect(categories.getByLabel('New category name')).toBeFocused();
    await expect(categories.getByLabel('New category name')).toHaveValue('');
    // a confirmed Delete: its row is gone, focus goes to the list's heading
    await categories.getByRole('button', { name: `Delete ${name}` }).click();
    await confirmDialog(page).getByRole('button', { name: 'Delete' }).click();
    await expect(categories.getByRole('button', { name: `Delete ${name}` })).toHaveCount(0);
    await expect(categories.getByRole('heading', { name: 'Categories', exact: true })).toBeFocused();
  });

  test('the admin menu drawer on a phone keeps focus inside; Escape closes it and focus returns', async ({
    browser,
  }) => {
    const page = await newPage(browser, 375);
    await signUp(page, 'admin');
    await page.goto('/admin/dashboard');
    await settled(page, 'Dashboard');
    const menu = page.getByRole('button', { name: 'Open menu' });
    await menu.click();
    const close = page.getByRole('button', { name: 'Close menu' });
    await expect(close).toBeFocused();
    const drawer = page.getByRole('navigation', { name: 'Admin' });
    // its first link is not behind the top bar's search row (a trial click checks what receives it)
    await drawer.getByRole('link', { name: 'Dashboard' }).click({ trial: true, timeout: 2_000 });
    const inside = await page.evaluate<string[]>(
      `[...document.querySelectorAll('#admin-sidebar a')].filter((a) => a.offsetParent !== null).map((a) => (a.getAttribute('aria-label') || a.textContent).trim())`,
    );
    expect(inside.length).toBeGreaterThanOrEqual(8);
    // twice round: only the close button and the drawer's links (the page outside is inert)
    const seen = new Set<string>();
    for (let step = 0; step < 2 * (inside.length + 2); step += 1) {
      await page.keyboard.press('Tab');
      const name = await focused(page);
      if (name === 'BODY') continue; // the browser's own controls, between two rounds
      seen.add(name);
    }
    expect([...seen].sort()).toEqual([...inside, 'Close menu'].sort());
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();
    // closed, the page is live again: Tab reaches the search box
    await page.getByRole('combobox', { name: /Search/ }).focus();
    await expect(page.getByRole('combobox', { name: /Search/ })).toBeFocused();
    await page.context().close();
  });
});
