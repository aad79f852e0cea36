// Shared helpers for the end-to-end suite. Every test makes its own accounts (unique emails), through the
// UI, so tests never depend on each other or on their order. Elements are found by role, label and
// visible text only.
import { expect, type Locator, type Page } from '@playwright/test';
import type { Role } from '../../src/shared/roles';

export { INVITE_MESSAGES } from '../../src/shared/errors';

if (!process.env.E2E_BASE_URL) {
  throw new Error('E2E_BASE_URL is not set: run the suite with "npm run test:e2e" (scripts/test-e2e.mjs).');
}

/** The operator's admin invite code the test server was started with. */
export const ADMIN_INVITE_CODE = process.env.E2E_ADMIN_INVITE_CODE ?? '';

/** A password that passes the registration rules. */
export const PASSWORD = 'secret-pass-123';

/** The demo mall's size (MALL_DEMO_DATA=on). */
export const DEMO = { shops: 24, products: 150 } as const;

let counter = 0;
/** A fresh, lower-case email address: `prefix-<time>-<worker>-<n>@example.com`. */
export function uniqueEmail(prefix = 'e2e'): string {
  counter += 1;
  const worker = process.env.TEST_PARALLEL_INDEX ?? '0';
  const random = Math.random().toString(36).slice(2, 6);
  return `${prefix}-${Date.now().toString(36)}${random}-w${worker}-${counter}@example.com`.toLowerCase();
}

export interface Account {
  email: string;
  password: string;
  role: Role;
}

// ----- form fields -----

export const emailField = (page: Page): Locator => page.getByLabel('Email', { exact: true });
export const passwordField = (page: Page): Locator => page.getByLabel('Password', { exact: true });
export const accountTypeField = (page: Page): Locator => page.getByLabel('Account Type');
export const inviteCodeField = (page: Page): Locator => page.getByLabel('Admin invite code');
export const signInButton = (page: Page): Locator => page.getByRole('button', { name: /^Sign(ing)? in/ });
export const createAccountButton = (page: Page): Locator =>
  page.getByRole('button', { name: /^(Create Account|Creating account\.\.\.)$/ });

/** The red box above an auth form that shows the server's error message. */
export const formError = (page: Page): Locator => page.getByRole('main').getByRole('alert');

/** 'Get Started', 'Join Now' and friends may be links or buttons; either is fine. */
export function action(page: Page | Locator, name: string | RegExp): Locator {
  return page.getByRole('link', { name, exact: true }).or(page.getByRole('button', { name, exact: true }));
}

// ----- accounts -----

/** Fills in and submits /register. Does not wait for the outcome. */
export async function submitRegistration(
  page: Page,
  {
    email,
    password,
    role = 'user',
    inviteCode,
  }: { email: string; password: string; role?: Role; inviteCode?: string },
): Promise<void> {
  await page.goto('/register');
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  if (role === 'admin') {
    await accountTypeField(page).selectOption({ label: 'Admin' });
    if (inviteCode !== undefined) await inviteCodeField(page).fill(inviteCode);
  }
  await createAccountButton(page).click();
}

/**
 * Registers a new account through /register and waits for its dashboard. The page is signed in as
 * that account afterwards. Admins use the operator's invite code (E2E_ADMIN_INVITE_CODE).
 */
export async function registerUser(
  page: Page,
  { role = 'user', email = uniqueEmail(role), password = PASSWORD }: Partial<Account> = {},
): Promise<Account> {
  await submitRegistration(page, {
    email,
    password,
    role,
    inviteCode: role === 'admin' ? ADMIN_INVITE_CODE : undefined,
  });
  await expect(page).toHaveURL(`/${role}/dashboard`);
  await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();
  return { email, password, role };
}

export function registerAdmin(page: Page, account: Partial<Omit<Account, 'role'>> = {}): Promise<Account> {
  return registerUser(page, { ...account, role: 'admin' });
}

/** Forgets the session (as a new visitor would be): clears the browser's cookies. */
export async function signOutByForgetting(page: Page): Promise<void> {
  await page.context().clearCookies();
}

/** Fills in and submits /login (navigating there first unless `stay` is set). */
export async function submitLogin(
  page: Page,
  email: string,
  password: string,
  { stay = false }: { stay?: boolean } = {},
): Promise<void> {
  if (!stay) await page.goto('/login');
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await signInButton(page).click();
}

/** Delays every matching request by `ms` and then lets it through to the real server (not a mock). */
export async function delayRequests(page: Page, url: string | RegExp, ms = 500): Promise<void> {
  await page.route(url, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

/** The document's scroll width: wider than the viewport means a horizontal scroll bar. */
export function scrollWidth(page: Page): Promise<number> {
  // A string: this project's Node-side type set has no DOM types.
  return page.evaluate<number>('(document.scrollingElement ?? document.documentElement).scrollWidth');
}

// ----- admin area: records made through the API as the page's signed-in admin -----
// Setup and clean-up go through the API (page.request shares the page's session cookie); what a test is
// about goes through the screens. Names sort after the demo mall's ('Zeta …') so that pages of the demo
// data stay as they were while a test's records exist.

export type PlaceKind = 'categories' | 'floors';

export interface Named {
  id: string;
  name: string;
}

let nameCounter = 0;
/** A unique, readable name such as `Zeta Shop m1x2k9a-1`. */
export function uniqueName(prefix: string): string {
  nameCounter += 1;
  const worker = process.env.TEST_PARALLEL_INDEX ?? '0';
  const random = Math.random().toString(36).slice(2, 5);
  return `${prefix} ${Date.now().toString(36)}${random}${worker}-${nameCounter}`;
}

/** YYYY-MM-DD for today plus `days`, in the local time zone (the browser's, on this machine). */
export function localDate(days = 0): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** POSTs as the signed-in admin and returns the created record (fails the test on anything but 201). */
export async function apiCreate<T>(page: Page, path: string, data: object): Promise<T> {
  const response = await page.request.post(path, { data });
  expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(201);
  return (await response.json()) as T;
}

/** DELETEs as the signed-in admin; a record already gone is fine (clean-up after a test). */
export async function apiDelete(page: Page, path: string): Promise<void> {
  const response = await page.request.delete(path);
  expect([204, 404], `DELETE ${path}`).toContain(response.status());
}

/** A category or floor by its exact name. */
export async function placeNamed(page: Page, kind: PlaceKind, name: string): Promise<Named> {
  const response = await page.request.get(`/api/${kind}`);
  expect(response.ok()).toBe(true);
  const { items } = (await response.json()) as { items: Named[] };
  const place = items.find((item) => item.name === name);
  if (!place) throw new Error(`No ${kind} named ${name}`);
  return place;
}

/** A shop in a demo category and floor (Fashion, Ground Floor unless told). */
export async function createShop(
  page: Page,
  { name = uniqueName('Zeta Shop'), category = 'Fashion', floor = 'Ground Floor' } = {},
): Promise<Named> {
  const [categoryPlace, floorPlace] = await Promise.all([
    placeNamed(page, 'categories', category),
    placeNamed(page, 'floors', floor),
  ]);
  return apiCreate<Named>(page, '/api/shops', {
    name,
    categoryId: categoryPlace.id,
    floorId: floorPlace.id,
  });
}

export async function createProduct(
  page: Page,
  shopId: string,
  {
    name = uniqueName('Zeta Product'),
    price = 10,
    offerId,
  }: { name?: string; price?: number; offerId?: string } = {},
): Promise<Named> {
  return apiCreate<Named>(page, '/api/products', { name, price, shopId, ...(offerId ? { offerId } : {}) });
}

export async function createOffer(
  page: Page,
  shopId: string,
  {
    title = uniqueName('Zeta Offer'),
    discount = 20,
    startDate = localDate(0),
    endDate = localDate(10),
  }: { title?: string; discount?: number; startDate?: string; endDate?: string } = {},
): Promise<{ id: string; title: string }> {
  return apiCreate(page, '/api/offers', { title, discount, startDate, endDate, shopId });
}

/** The open confirmation dialog. */
export const confirmDialog = (page: Page): Locator => page.getByRole('alertdialog');

/** A sonner toast with this text. */
export const toast = (page: Page, text: string | RegExp): Locator =>
  page.getByRole('region', { name: /Notifications/ }).getByText(text);

/** The table row (or list item) that shows `text`. */
export const rowWith = (page: Page, text: string): Locator => page.getByRole('row').filter({ hasText: text });
