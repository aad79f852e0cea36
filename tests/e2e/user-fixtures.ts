// Helpers for the shopper-area specs (user-*.spec.ts). Records a test needs (a category, a floor, shops,
// products) are made through the real API by an admin registered in a separate request context with the
// operator's invite code, so the shopper's browser session stays a plain user's.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { ADMIN_INVITE_CODE, PASSWORD, uniqueEmail, uniqueName } from './fixtures';

export interface Named {
  id: string;
  name: string;
}

/** The base URL of the suite's server (set by scripts/test-e2e.mjs). */
export const BASE_URL = process.env.E2E_BASE_URL ?? '';

/**
 * An API client signed in as a new admin, separate from any page's cookies. Dispose it when done
 * (`await admin.dispose()`), after deleting what it made.
 */
export class AdminApi {
  private readonly shops: string[] = [];
  private readonly places: string[] = [];

  private constructor(readonly request: APIRequestContext) {}

  static async create(playwright: { request: { newContext(options: object): Promise<APIRequestContext> } }) {
    const request = await playwright.request.newContext({ baseURL: BASE_URL });
    const response = await request.post('/api/auth/register', {
      data: { email: uniqueEmail('admin'), password: PASSWORD, role: 'admin', inviteCode: ADMIN_INVITE_CODE },
    });
    expect(response.status(), `admin registration: ${await response.text()}`).toBe(201);
    return new AdminApi(request);
  }

  private async post<T>(url: string, data: object): Promise<T> {
    const response = await this.request.post(url, { data });
    expect(response.status(), `POST ${url}: ${await response.text()}`).toBe(201);
    return (await response.json()) as T;
  }

  async category(name = uniqueName('Zeta Category')): Promise<Named> {
    const place = await this.post<Named>('/api/categories', { name });
    this.places.push(`/api/categories/${place.id}`);
    return place;
  }

  async floor(name = uniqueName('Zeta Floor')): Promise<Named> {
    const place = await this.post<Named>('/api/floors', { name });
    this.places.push(`/api/floors/${place.id}`);
    return place;
  }

  /** A demo-mall category or floor by name. */
  async place(kind: 'categories' | 'floors', name: string): Promise<Named> {
    const response = await this.request.get(`/api/${kind}`);
    expect(response.ok()).toBe(true);
    const { items } = (await response.json()) as { items: Named[] };
    const place = items.find((item) => item.name === name);
    if (!place) throw new Error(`No ${kind} named ${name}`);
    return place;
  }

  async shop(fields: {
    name?: string;
    categoryId: string;
    floorId: string;
    description?: string;
    location?: string;
    contact?: string;
    openingHours?: string;
  }): Promise<Named> {
    const shop = await this.post<Named>('/api/shops', { name: uniqueName('Zeta Shop'), ...fields });
    this.shops.unshift(shop.id);
    return shop;
  }

  product(fields: { shopId: string; name?: string; price?: number; description?: string; offerId?: string }) {
    return this.post<Named>('/api/products', { name: uniqueName('Zeta Product'), price: 10, ...fields });
  }

  /** Deletes the shops (their products and offers go with them), then the categories and floors. */
  async dispose(): Promise<void> {
    for (const id of this.shops.splice(0)) {
      const response = await this.request.delete(`/api/shops/${id}`);
      expect([204, 404]).toContain(response.status());
    }
    for (const url of this.places.splice(0).reverse()) {
      const response = await this.request.delete(url);
      expect([204, 404]).toContain(response.status());
    }
    await this.request.dispose();
  }
}

/** RegExp matching text that starts with `text` literally. */
export function startsWith(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}

/** A card (article) named by its heading: a shop, a product or an offer. */
export const card = (scope: Page | Locator, name: string): Locator =>
  scope.getByRole('article', { name, exact: true });

/** The user navigation's Compare link, whatever its count. */
export const compareNavLink = (page: Page): Locator =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Compare/ });

/** The shop cards of the shops page. */
export const shopCards = (page: Page): Locator =>
  page.getByRole('region', { name: 'Results' }).getByRole('article');

/** Today's local date format of an ISO calendar date, as the browser writes it. */
export function shownDate(page: Page, isoDate: string): Promise<string> {
  const [y, m, d] = isoDate.split('-').map(Number);
  return page.evaluate<string>(`new Date(${y}, ${(m ?? 1) - 1}, ${d}).toLocaleDateString()`);
}

// ----- a second, empty mall (MALL_DEMO_DATA=off) -----

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('Could not pick a free port'))));
    });
  });
}

export interface EmptyMall {
  baseURL: string;
  /** A browser context whose relative URLs go to this mall. */
  newContext(browser: Browser): Promise<BrowserContext>;
  stop(): Promise<void>;
}

/**
 * Starts the same built server (dist/server/main.js, or E2E_SERVER_ENTRY) on a free port with a fresh
 * embedded database and no demo data: a real mall with nothing in it, for the states the shared demo
 * mall can never show (no active offers at all). Not a mock: the same code answers.
 */
export async function startEmptyMall(): Promise<EmptyMall> {
  const entry = path.resolve(process.env.E2E_SERVER_ENTRY ?? 'dist/server/main.js');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-e2e-empty-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MALL_DATA_DIR: dataDir,
    MALL_DEMO_DATA: 'off',
    MALL_RATE_LIMIT: 'off',
    // No event-loop check (as the API suite's servers, test/harness.ts): this server starts while the
    // suite loads both cores, and its own start-up (the page renderer loaded once it listens) starved
    // that long made the guard answer its first sign-up 503 OVERLOADED in two CI runs. The guard has its
    // own tests (src/server/overload.api.test.ts); this one is about an empty mall's screens.
    MALL_MAX_EVENT_LOOP_DELAY_MS: '0',
    MALL_PASSWORD_HASHING: 'fast-for-tests',
  };
  delete env.DATABASE_URL;
  delete env.MALL_ADMIN_INVITE_CODE;
  let output = '';
  const server: ChildProcess = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  server.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

  async function stop() {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`The empty mall's server exited (${server.exitCode}):\n${output}`);
    }
    try {
      const response = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The empty mall's server was not ready in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    baseURL,
    newContext: (browser) => browser.newContext({ baseURL }),
    stop,
  };
}
