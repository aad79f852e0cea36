// The mall-wide search (issue 15): the top bar's combobox (typos, keyboard, announcements), the full
// results page (/user/search, /admin/search) and the shop list's name search, at 1280 and 375 px.
import { expect, type Page, test } from '@playwright/test';
import { registerAdmin, registerUser, scrollWidth } from './fixtures';
import { card } from './user-fixtures';

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search the mall' });
const listbox = (page: Page) => page.getByRole('listbox', { name: 'Search results' });
/** Set E2E_SCREENSHOTS=1 to write docs/screenshots/search-*.png. */
async function shot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/search-${name}.png` });
}

test.describe('Search at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a typo in the top bar finds the shop; arrows and Enter open it, Escape closes', async ({ page }) => {
    await registerUser(page);
    const box = searchBox(page);
    await box.fill('pixl point');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    const option = listbox(page).getByRole('option', { name: /^Pixel Point/ });
    await expect(option).toBeVisible();
    // the counts are announced in a polite live region
    await expect(
      page.getByRole('status').filter({ hasText: /^1 shop, \d+ products? and \d+ offers? found$/ }),
    ).toHaveCount(1);
    await shot(page, 'dropdown-1280');
    // Escape closes the list, a second Escape empties the box
    await box.press('Escape');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await box.press('Escape');
    await expect(box).toHaveValue('');
    await box.fill('pixl point');
    await expect(option).toBeVisible();
    await box.press('ArrowDown');
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id')) ?? '');
    await box.press('ArrowUp');
    await expect(box).not.toHaveAttribute('aria-activedescendant', /./);
    await box.press('ArrowDown');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/user\/shops\/[0-9a-f-]+$/);
    await expect(page.getByRole('heading', { name: 'Pixel Point', level: 1 })).toBeVisible();
  });

  test('Enter opens the full results, shareable, paged per group; a product opens its shop', async ({
    page,
  }) => {
    await registerUser(page);
    await searchBox(page).fill('hedphones');
    await expect(listbox(page).getByRole('option', { name: /^Over-Ear Headphones/ })).toBeVisible();
    await searchBox(page).press('Enter');
    await expect(page).toHaveURL('/user/search?q=hedphones');
    await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
    const products = page.getByRole('region', { name: /^Products/ });
    await expect(products.getByRole('link', { name: /^Over-Ear Headphones/ })).toBeVisible();
    await shot(page, 'results-1280');
    // a shared link shows the same, and the Products tab pages that group alone
    await page.goto('/user/search?q=e&kind=products');
    await expect(
      page.getByRole('navigation', { name: 'Result kinds' }).getByRole('link', { name: /^Products/ }),
    ).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('navigation', { name: 'Products pages' })).toBeVisible();
    await page
      .getByRole('navigation', { name: 'Products pages' })
      .getByRole('button', { name: /Next/ })
      .click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await page.goto('/user/search?q=hedphones');
    await products.getByRole('link', { name: /^Over-Ear Headphones/ }).click();
    await expect(page.getByRole('heading', { name: 'Circuit House', level: 1 })).toBeVisible();
  });

  test('nothing found offers "Did you mean" from the mall\'s words', async ({ page }) => {
    await registerUser(page);
    await page.goto('/user/search?q=kofee');
    await expect(page.getByText('Nothing found')).toBeVisible();
    await page.getByRole('link', { name: 'coffee' }).click();
    await expect(page).toHaveURL('/user/search?q=coffee');
    await expect(
      page.getByRole('region', { name: /^Shops/ }).getByRole('link', { name: /^Bean There Café/ }),
    ).toBeVisible();
  });

  test('the shop list searches by name together with the category filter, in the URL', async ({ page }) => {
    await registerUser(page);
    await page.goto('/user/dashboard');
    await page.goto('/user/shops?category=Electronics');
    await page.getByLabel('Shop name').fill('pix');
    await expect(page).toHaveURL(/q=pix/);
    expect(new URL(page.url()).searchParams.get('category')).toBe('Electronics');
    await expect(page.getByText('1 shop', { exact: true })).toBeVisible();
    await expect(card(page, 'Pixel Point')).toBeVisible();
    await shot(page, 'shops-1280');
    // typing replaced the history entry: Back leaves the list, not one letter
    await page.goBack();
    await expect(page).toHaveURL('/user/dashboard');
    await page.goForward();
    await expect(page.getByLabel('Shop name')).toHaveValue('pix');
    await page.getByRole('combobox', { name: 'Category', exact: true }).selectOption('');
    await expect(page).toHaveURL('/user/shops?q=pix');
  });

  test("the admin's top bar finds a shop with a typo and opens its edit screen", async ({ page }) => {
    await registerAdmin(page);
    await searchBox(page).fill('samsng');
    const option = listbox(page).getByRole('option', { name: /^Samsung Galaxy A55/ });
    await expect(option).toBeVisible();
    await option.click();
    await expect(page).toHaveURL(/\/admin\/products\/[0-9a-f-]+$/);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Samsung Galaxy A55');
    await searchBox(page).fill('cofee');
    await searchBox(page).press('Enter');
    await expect(page).toHaveURL('/admin/search?q=cofee');
    await expect(
      page.getByRole('region', { name: /^Products/ }).getByRole('link', { name: /^Filter Coffee/ }),
    ).toHaveAttribute('href', /^\/admin\/products\//);
    await shot(page, 'admin-1280');
  });
});

test.describe('Search at 375 px', { tag: '@phone' }, () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the top bar search finds a typo and a tap opens the shop, with no sideways scroll', async ({
    page,
  }) => {
    await registerUser(page);
    await searchBox(page).fill('samsng');
    const option = listbox(page).getByRole('option', { name: /^Samsung Galaxy A55/ });
    await expect(option).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await shot(page, 'dropdown-375');
    await option.click();
    await expect(page.getByRole('heading', { name: 'Voltbay', level: 1 })).toBeVisible();
    await page.goto('/user/search?q=cofee');
    await expect(
      page.getByRole('region', { name: /^Products/ }).getByRole('link', { name: /^Filter Coffee/ }),
    ).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await shot(page, 'results-375');
    await page.goto('/user/shops?floor=First%20Floor&q=point');
    await expect(card(page, 'Pixel Point')).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await shot(page, 'shops-375');
  });

  test("the admin's search has its own row under the bar", async ({ page }) => {
    await registerAdmin(page);
    await searchBox(page).fill('pixl');
    await expect(listbox(page).getByRole('option', { name: /^Pixel Point/ })).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await shot(page, 'admin-375');
  });
});
