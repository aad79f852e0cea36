// The public directory (issue 33, docs/decisions/034): /shops, a shop's page, /offers, /floors and
// /search, rendered on the server and hydrated, for anyone without an account. At a phone's and a
// desktop's width: with JavaScript the pages hydrate without an error (a hydration mismatch is one), are
// axe-clean and filter as the shopper's screens do; without it they still show the shops, their hours
// and offers, and the GET form and the page links still work. A signed-in shopper gets a way back to
// their own area in the top bar; the landing page leads to the directory. The demo mall's Bean There
// Café (Food & Dining, Ground Floor, the Morning Brew Hours offer) is the shop looked at.
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { PASSWORD, scrollWidth, uniqueEmail } from './fixtures';
import { expectNoAxeViolations } from './support/axe';
import { card, shopCards } from './user-fixtures';

const WIDTHS = [375, 1280] as const;
const SHOP = { name: 'Bean There Café', slug: 'bean-there-cafe', offer: 'Morning Brew Hours' };
/** A demo category with a few shops, none of them Bean There Café; the tests add no shop to it. */
const CATEGORY = 'Books & Stationery';

const PAGES = [
  { path: '/shops', heading: 'Shops', shot: 'shops' },
  { path: `/shops/${SHOP.slug}`, heading: SHOP.name, shot: 'shop' },
  { path: '/offers', heading: 'Current Offers', shot: 'offers' },
  { path: '/floors', heading: 'Floors', shot: 'floors' },
  { path: '/search?q=cofee', heading: 'Search', shot: 'search' },
] as const;

/** The screenshots docs/screenshots/ keeps (E2E_SCREENSHOTS=1): page, width, JavaScript. */
const SHOTS = new Set([
  'shops-375',
  'shop-1280',
  'offers-375',
  'shops-nojs-1280',
  'shop-nojs-375',
  'floors-nojs-1280',
]);

async function newContext(
  browser: Browser,
  width: number,
  javaScriptEnabled = true,
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: { width, height: 800 },
    javaScriptEnabled,
  });
}

/** Saves docs/screenshots/public-<name>.png when asked (E2E_SCREENSHOTS=1) and listed: a run leaves no files. */
async function shot(page: Page, name: string): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS || !SHOTS.has(name)) return;
  await page.screenshot({ path: `docs/screenshots/public-${name}.png` });
}

/** Console errors and uncaught exceptions of the page from now on (React reports a hydration mismatch so). */
function problemsOf(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** React has hydrated the server's page: #root is a React root now, and the page's reads are done. */
async function hydrated(page: Page): Promise<void> {
  // page.evaluate, not waitForFunction: the page's CSP refuses the eval() a string predicate is run with
  await expect
    .poll(() =>
      page.evaluate<boolean>(
        `Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer'))`,
      ),
    )
    .toBe(true);
  await page.waitForLoadState('networkidle');
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const categorySelect = (page: Page) => page.getByRole('combobox', { name: 'Category', exact: true });
const shopCount = (page: Page) => page.getByRole('region', { name: 'Results' }).getByText(/^\d+ shops?$/);
/** Links to the shop's public page, by its slug. */
const shopLink = (page: Page) => page.getByRole('main').locator(`a[href="/shops/${SHOP.slug}"]`);
const openStatus = (page: Page) =>
  page
    .getByRole('main')
    .getByText(/^(Open now|Closes in|Closed)/)
    .first();

test.describe('Public directory, with JavaScript', () => {
  for (const width of WIDTHS) {
    test(`every page renders, hydrates without an error and is axe-clean at ${width} px`, async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const context = await newContext(browser, width);
      const page = await context.newPage();
      const problems = problemsOf(page);
      for (const { path, heading: name, shot: shotName } of PAGES) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        await expect(heading(page, name)).toBeVisible();
        await hydrated(page);
        await expect(page).toHaveTitle(/ · Super Mall$/);
        expect(await scrollWidth(page), `${path}: no horizontal scroll`).toBeLessThanOrEqual(width);
        await shot(page, `${shotName}-${width}`);
        await expectNoAxeViolations(page, `${path} at ${width} px`);
        expect(problems, `${path} at ${width} px: console and page errors`).toEqual([]);
      }
      // What each page is about, drawn on the server and kept by the browser's first render.
      await page.goto(`/shops/${SHOP.slug}`);
      await expect(page.getByRole('region', { name: 'Current Offers' }).getByText(SHOP.offer)).toBeVisible();
      await page.goto('/search?q=cofee');
      await expect(page.getByText('for “coffee”')).toBeVisible();
      await expect(shopLink(page).first()).toBeVisible();
      expect(problems).toEqual([]);
      await context.close();
    });

    test(`the filters go into the address, a card opens its shop, Back to shops returns (${width} px)`, async ({
      browser,
    }) => {
      const context = await newContext(browser, width);
      const page = await context.newPage();
      const problems = problemsOf(page);
      await page.goto('/shops');
      await hydrated(page);

      // A shop card opens the shop's page by its slug; Back to shops returns to the list.
      await card(page, SHOP.name).getByRole('link', { name: SHOP.name }).click();
      await expect(page).toHaveURL(`/shops/${SHOP.slug}`);
      await expect(heading(page, SHOP.name)).toBeVisible();
      await page.getByRole('link', { name: 'Back to shops' }).click();
      await expect(page).toHaveURL('/shops');
      await expect(heading(page, 'Shops')).toBeVisible();

      // Choosing a category: the address names it, the list changes to its shops.
      const all = await shopCount(page).textContent();
      await categorySelect(page).selectOption({ label: CATEGORY });
      await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBe(CATEGORY);
      await expect(shopCount(page)).not.toHaveText(all ?? '');
      await expect(card(page, SHOP.name)).toHaveCount(0);
      const cards = shopCards(page);
      expect(await cards.count()).toBeGreaterThan(0);
      for (const shopCard of await cards.all())
        await expect(shopCard.getByText(CATEGORY, { exact: true })).toBeVisible();

      // A card of the filtered list, and back to the filtered list.
      const first = cards.first().getByRole('heading').getByRole('link');
      const name = (await first.textContent()) ?? '';
      const href = (await first.getAttribute('href')) ?? '';
      expect(href).toMatch(/^\/shops\/[a-z0-9]+(?:-[a-z0-9]+)*$/);
      await first.click();
      await expect(page).toHaveURL(href);
      await expect(heading(page, name)).toBeVisible();
      await page.getByRole('link', { name: 'Back to shops' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBe(CATEGORY);
      await expect(categorySelect(page)).toHaveValue(CATEGORY);
      await expect(card(page, name)).toBeVisible();
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

test.describe('Public directory, without JavaScript', () => {
  for (const width of WIDTHS) {
    test(`the pages read, the GET form filters and the page links turn pages (${width} px)`, async ({
      browser,
    }) => {
      const context = await newContext(browser, width, false);
      const page = await context.newPage();

      // The shop: its name, its hours with their status, its offers; and a visitor's ways in.
      await page.goto(`/shops/${SHOP.slug}`);
      await expect(heading(page, SHOP.name)).toBeVisible();
      await expect(openStatus(page)).toBeVisible();
      await expect(page.getByText('08:00 – 23:00 daily')).toBeVisible();
      await expect(page.getByRole('region', { name: 'Current Offers' }).getByText(SHOP.offer)).toBeVisible();
      await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
      await shot(page, `shop-nojs-${width}`);

      // The list: the shops' names and statuses.
      await page.goto('/shops');
      await expect(card(page, SHOP.name)).toBeVisible();
      await expect(card(page, SHOP.name).getByText(/^(Open now|Closes in|Closed)/)).toBeVisible();
      await shot(page, `shops-nojs-${width}`);
      const all = await shopCount(page).textContent();

      // Page links: Next is a link to ?page=2, and page 2 lists other shops.
      const pages = page.getByRole('navigation', { name: 'Shop pages' });
      await expect(pages.getByText(/^Page 1 of \d+$/)).toBeVisible();
      const firstOnPage1 = await shopCards(page).first().getByRole('heading').textContent();
      await pages.getByRole('link', { name: 'Next' }).click();
      await expect(page).toHaveURL('/shops?page=2');
      await expect(pages.getByText(/^Page 2 of \d+$/)).toBeVisible();
      await expect(shopCards(page).first().getByRole('heading')).not.toHaveText(firstOnPage1 ?? '');
      await pages.getByRole('link', { name: 'Previous' }).click();
      await expect(page).toHaveURL(/\/shops(\?page=1)?$/);
      await expect(pages.getByText(/^Page 1 of \d+$/)).toBeVisible();

      // The GET form: a category chosen and sent lists that category's shops.
      await categorySelect(page).selectOption({ label: CATEGORY });
      await page.getByRole('button', { name: 'Show shops' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBe(CATEGORY);
      await expect(categorySelect(page)).toHaveValue(CATEGORY);
      await expect(shopCount(page)).not.toHaveText(all ?? '');
      await expect(card(page, SHOP.name)).toHaveCount(0);
      expect(await shopCards(page).count()).toBeGreaterThan(0);
      for (const shopCard of await shopCards(page).all())
        await expect(shopCard.getByText(CATEGORY, { exact: true })).toBeVisible();
      // and a card is a plain link to the shop's page
      await shopCards(page).first().getByRole('heading').getByRole('link').click();
      await expect(page).toHaveURL(/^[^?]*\/shops\/[a-z0-9-]+$/);

      // The running offers, the floors and the search.
      await page.goto('/offers');
      await expect(heading(page, 'Current Offers')).toBeVisible();
      await expect(page.getByRole('main').getByText(SHOP.offer)).toBeVisible();
      await shot(page, `offers-nojs-${width}`);
      await page.goto('/floors');
      await expect(heading(page, 'Floors')).toBeVisible();
      await expect(page.getByRole('heading', { name: /^Ground Floor/ })).toBeVisible();
      await expect(shopLink(page).first()).toBeVisible();
      await shot(page, `floors-nojs-${width}`);
      await page.goto('/search?q=cofee');
      await expect(page.getByText('for “coffee”')).toBeVisible();
      await expect(shopLink(page).first()).toBeVisible();
      await context.close();
    });
  }
});

test.describe('Public directory, signed in', () => {
  for (const width of WIDTHS) {
    test(`a shopper sees My dashboard and Logout in the top bar (${width} px)`, async ({ browser }) => {
      const context = await newContext(browser, width);
      const page = await context.newPage();
      const email = uniqueEmail('public');
      const response = await page.request.post('/api/auth/register', {
        data: { email, password: PASSWORD, role: 'user' },
      });
      expect(response.status(), await response.text()).toBe(201);
      const problems = problemsOf(page);
      await page.goto('/shops');
      const header = page.getByRole('banner');
      await expect(header.getByRole('link', { name: 'My dashboard' })).toBeVisible();
      await expect(header.getByRole('link', { name: 'My dashboard' })).toHaveAttribute(
        'href',
        '/user/dashboard',
      );
      await expect(header.getByRole('button', { name: 'Logout' })).toBeVisible();
      await expect(header.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
      // the greeting where the row has room for it
      if (width >= 1280) await expect(header.getByText('Welcome,')).toBeVisible();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
      await expectNoAxeViolations(page, `/shops signed in at ${width} px`);
      await header.getByRole('link', { name: 'My dashboard' }).click();
      await expect(page).toHaveURL('/user/dashboard');
      await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});

test.describe('Landing page', () => {
  for (const width of WIDTHS) {
    test(`links to the public directory (${width} px)`, async ({ browser }) => {
      for (const javaScriptEnabled of [true, false]) {
        const context = await newContext(browser, width, javaScriptEnabled);
        const page = await context.newPage();
        await page.goto('/');
        const browse = page.getByRole('main').getByRole('link', { name: 'Browse the shops', exact: true });
        await expect(browse).toBeVisible();
        await expect(browse).toHaveAttribute('href', '/shops');
        await browse.click();
        await expect(page).toHaveURL('/shops');
        await expect(heading(page, 'Shops')).toBeVisible();
        await expect(card(page, SHOP.name)).toBeVisible();
        await context.close();
      }
    });
  }
});
