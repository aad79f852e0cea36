#!/usr/bin/env node
// Load-and-soak test (issue #6): minutes of mixed load on PostgreSQL — many shoppers browsing while
// admins write several times a second — with zero 5xx, latency percentiles reported, no acknowledged
// write lost and the server's memory flat.
//
//   node scripts/stress/soak.mjs [--minutes 10] [--shoppers 40] [--writes-per-second 5] [--seed N] [--out FILE]
//
// Needs the built server (npm run build); builds nothing. It
//  1. starts a throwaway PostgreSQL cluster (scripts/pg-cluster.mjs) and `dist/server/main.js` on it
//     (demo mall on, rate limits off, a known admin invite code); registers two admins and up to ten
//     shoppers (role user);
//  2. for --minutes, at the same time:
//     - shoppers: autocannon with --shoppers connections, each looping through a shopper's visit with
//       one shopper's session cookie: who am I, categories, floors, shops by category (and floor), by
//       floor, pages of all shops or a name search, a shop's detail, its products, the active offers,
//       a product search by name, a product's detail — one in ten of those a stale link (404);
//     - admins: --writes-per-second writes (open loop, at most MAX_WRITES_IN_FLIGHT at once): create
//       shops, products (some with one of their shop's offers) and offers, update prices, delete shops
//       with their products and offers (the cascade), create/rename/delete empty categories. Only the
//       harness's own shops and categories are touched, one write at a time per shop, so every
//       acknowledged write has exactly one right answer;
//     - the server's RSS (/proc/<pid>/status VmRSS) every 5 s;
//  3. checks the server is still healthy, then that every acknowledged write is reflected: the shops,
//     products (with their last price and offer), offers and categories created are there, the deleted
//     ones are gone (a deleted shop's products and offers too);
//  4. prints a summary and writes it to bench/soak.md (--out) with the date, machine, Node version and
//     duration.
//
// Expected statuses: every shopper read 200, except the stale product link (404); admin creates 201,
// updates 200, deletes 204. Anything else is unexpected and fails the run, as do a 5xx, a connection
// error or timeout, a lost acknowledged write and, for runs of 2 minutes or more, memory that is not
// flat (see MEMORY_* below). Exits 0 only when all is well.
//
// The server runs from a copy of dist/server under .tmp/ (a rebuild during the run cannot change it);
// the cluster, the server and the temp folders are removed at the end, on failure and on Ctrl-C.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startThrowawayCluster } from '../pg-cluster.mjs';
import {
  Api,
  HarnessError,
  installCleanup,
  isInterrupted,
  makeRandom,
  numberOption,
  parseOptions,
  percentile,
  printFailure,
  registerAccount,
  repoRoot,
  requireBuiltServer,
  runLimited,
  Server,
  seconds,
  seedOption,
  serverEnv,
  serverWorkspace,
  sleep,
  startWatchdog,
  tail,
  today,
  writeRepoFile,
} from './lib.mjs';

const INVITE_CODE = 'soak-admin-invite-code';
const PASSWORD = 'soak-password';
const ADMINS = 2;
const MAX_SHOPPER_ACCOUNTS = 10;
const START_TIMEOUT_MS = 60_000;
/** autocannon's per-request timeout, in seconds: a read slower than this counts as a failure. */
const READ_TIMEOUT_S = 10;
const WRITE_TIMEOUT_MS = 10_000;
const MAX_WRITES_IN_FLIGHT = 16;
const RSS_SAMPLE_MS = 5_000;
const CHECK_CONCURRENCY = 8;
/** The harness keeps between these many shops of its own alive (creating and deleting around them). */
const OWN_SHOPS = { min: 5, max: 30 };
const OWN_CATEGORIES_MAX = 6;
const STALE_LINK_SHARE = 0.1;

/**
 * "Memory flat": the end RSS may exceed the start RSS (both taken under load, after warm-up) by at most
 * MEMORY_GROWTH_RATIO × start + MEMORY_GROWTH_SLACK_MB. Under steady load a healthy Node server's RSS
 * still drifts up for a while after warm-up: V8 sizes its old space from the allocation rate and
 * keeps the room, the pg pool opens its last connections, and glibc's malloc arenas (one per thread:
 * libuv's pool threads do scrypt and crypto) keep freed memory; and it saw-tooths with each major GC by
 * tens of MB. 25% covers the proportional part (heap sizing), 30 MB the fixed steps (a young
 * generation resize, an arena, a sample taken just before a GC). A real leak is far bigger: even 1 KB
 * per request at a few hundred requests a second is 100+ MB over a 10-minute run. Runs under
 * MEMORY_JUDGED_FROM_MINUTES are too short for the heap to settle: their memory is reported, not judged.
 */
const MEMORY_GROWTH_RATIO = 0.25;
const MEMORY_GROWTH_SLACK_MB = 30;
const MEMORY_JUDGED_FROM_MINUTES = 2;

// ---------------------------------------------------------------------------------------------------
// Options

const USAGE = `Usage: node scripts/stress/soak.mjs [--minutes 10] [--shoppers 40] [--writes-per-second 5] [--seed N] [--out FILE]

  --minutes N             how long the load runs (default 10; fractions allowed, e.g. 0.5)
  --shoppers N            concurrent shopper connections (default 40), each signed in as one of
                          up to 10 shopper accounts
  --writes-per-second N   admin writes a second (default 5)
  --seed N                seed of the workload's choices (default: random, printed)
  --out FILE              where the summary is written (default bench/soak.md)`;

const options = parseOptions(USAGE, {
  minutes: { type: 'string', default: '10' },
  shoppers: { type: 'string', default: '40' },
  'writes-per-second': { type: 'string', default: '5' },
  seed: { type: 'string' },
  out: { type: 'string', default: path.join('bench', 'soak.md') },
});
const option = (name, limits) => numberOption(name, options[name], { ...limits, usage: USAGE });
const minutes = option('minutes', { min: 0.1, max: 24 * 60, integer: false });
const shoppers = option('shoppers', { min: 1, max: 1000 });
const writesPerSecond = option('writes-per-second', { min: 0.1, max: 1000, integer: false });
const seed = seedOption(options.seed);
const outFile = path.resolve(repoRoot, options.out);
const durationMs = minutes * 60_000;
/** RSS "start": after warm-up — 10% of the run, at least 20 s, at most half of it. */
const warmupMs = Math.min(Math.max(0.1 * durationMs, 20_000), durationMs / 2);
const judgeMemory = minutes >= MEMORY_JUDGED_FROM_MINUTES;

requireBuiltServer();

// Clean-up of the server and temp folders at exit, on failure and on Ctrl-C (scripts/stress/lib.mjs);
// installed before the cluster's own handlers, so the server stops before the cluster.
installCleanup();

// ---------------------------------------------------------------------------------------------------
// Small helpers

const mb = (kb) => kb / 1024;
const fmtMb = (kb) => (Number.isFinite(kb) ? `${mb(kb).toFixed(1)} MB` : 'n/a');
const fmtMs = (ms) => (Number.isFinite(ms) ? `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms` : 'n/a');
const median = (values) => percentile(values, 50);
const increment = (map, key, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
const byStatus = (map) =>
  [...map]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, count]) => `${status} × ${count}`)
    .join(', ') || 'none';

/** The server's resident memory in kB, from /proc/<pid>/status; undefined when unreadable. */
function readRssKb(pid) {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Shoppers: autocannon, one visit after another on each connection.

/**
 * The shopper's visit: autocannon requests, in order. Each connection gets its own copy with one
 * shopper's cookie (setupClient). The visit's context (reset by autocannon at each new visit) holds
 * the shop looked at and the status the product detail expects.
 */
function makeVisit(cookie, catalog, random, tally) {
  const step = (name, pathOf, expect = () => 200) => ({
    method: 'GET',
    setupRequest: (request, context) => ({
      ...request,
      path: pathOf(context),
      headers: { ...request.headers, cookie },
    }),
    onResponse: (status, _body, context) => tally(name, status, expect(context)),
  });
  const pick = random.pick;
  return [
    step('me', () => '/api/auth/me'),
    step('categories', () => '/api/categories'),
    step('floors', () => '/api/floors'),
    step('shops by category', () => {
      const floor = random.chance(0.3) ? `&floorId=${pick(catalog.floorIds)}` : '';
      return `/api/shops?categoryId=${pick(catalog.categoryIds)}${floor}&page=1&pageSize=12`;
    }),
    step('shops by floor', () => `/api/shops?floorId=${pick(catalog.floorIds)}&page=${random.int(1, 2)}`),
    step('shop pages', () =>
      random.chance(0.3)
        ? `/api/shops?q=${encodeURIComponent(pick(catalog.shopTerms))}`
        : `/api/shops?page=${random.int(1, 3)}&pageSize=10`,
    ),
    step('shop detail', (context) => {
      context.shopId = pick(catalog.shopIds);
      return `/api/shops/${context.shopId}`;
    }),
    step('products of a shop', (context) => `/api/products?shopId=${context.shopId}&page=1`),
    step('active offers', () =>
      random.chance(0.2)
        ? `/api/offers?active=true&shopId=${pick(catalog.shopIds)}`
        : `/api/offers?active=true&page=${random.int(1, 2)}`,
    ),
    step('product search', () => {
      const onOffer = random.chance(0.25) ? '&onOffer=true' : '';
      return `/api/products?q=${encodeURIComponent(pick(catalog.productTerms))}${onOffer}&pageSize=20`;
    }),
    step(
      'product detail',
      (context) => {
        context.stale = random.chance(STALE_LINK_SHARE);
        return `/api/products/${context.stale ? randomUUID() : pick(catalog.productIds)}`;
      },
      (context) => (context.stale ? 404 : 200),
    ),
  ];
}

class ShopperLoad {
  constructor({ port, cookies, catalog, random, connections, durationS }) {
    this.statuses = new Map();
    /** name → Map(status → count), for the unexpected ones */
    this.unexpected = new Map();
    this.served = 0;
    const tally = (name, status, expected) => {
      this.served += 1;
      increment(this.statuses, status);
      if (status !== expected) {
        if (!this.unexpected.has(name)) this.unexpected.set(name, new Map());
        increment(this.unexpected.get(name), `${status} (expected ${expected})`);
      }
    };
    let next = 0;
    this.instance = autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      duration: durationS,
      timeout: READ_TIMEOUT_S,
      // Replaced per connection below; autocannon wants a valid list up front.
      requests: makeVisit(cookies[0], catalog, random, tally),
      setupClient: (client) => {
        client.setRequests(makeVisit(cookies[next++ % cookies.length], catalog, random, tally));
      },
    });
    // No progress bar or table: the harness prints its own summary.
    this.done = new Promise((resolve, reject) => {
      this.instance.then(resolve, reject);
    });
  }

  stop() {
    this.instance.stop();
  }
}

// ---------------------------------------------------------------------------------------------------
// Admins: an open loop of writes on the harness's own shops and categories.

const WRITE_WEIGHTS = [
  ['createShop', 10],
  ['createProduct', 32],
  ['createOffer', 12],
  ['updatePrice', 26],
  ['deleteShop', 8],
  ['createCategory', 4],
  ['renameCategory', 4],
  ['deleteCategory', 4],
];
const EXPECTED_WRITE_STATUS = { POST: 201, PATCH: 200, DELETE: 204 };

class AdminWriter {
  constructor({ admins, catalog, random, rate }) {
    this.admins = admins;
    this.catalog = catalog;
    this.random = random;
    this.rate = rate;
    this.counter = 0;
    /** id → { name, busy, products: Map(id → { price, offerId }), offers: Set } */
    this.shops = new Map();
    /** Shops deleted with an acknowledged DELETE, with what they had: { id, products, offers } */
    this.deletedShops = [];
    /** id → { name, busy } */
    this.categories = new Map();
    this.deletedCategories = [];
    /** Shops/categories whose state is unknown after an unexpected answer: not checked. */
    this.inDoubt = 0;
    this.sent = 0;
    this.acknowledged = 0;
    this.inFlight = 0;
    this.skipped = 0;
    this.latencies = [];
    this.statuses = new Map();
    this.kinds = new Map();
    /** "createShop → 500 {...}" lines */
    this.unexpected = [];
    this.errors = [];
    this.stopped = false;
  }

  uniqueName(prefix) {
    this.counter += 1;
    return `${prefix} ${this.counter}`;
  }

  idleShop(filter = () => true) {
    const candidates = [...this.shops].filter(([, shop]) => !shop.busy && filter(shop));
    return this.random.pick(candidates);
  }

  /**
   * The next write, or undefined when none fits right now (everything busy). A write is
   * { kind, method, path, body?, lock?, apply(answer), doubt?() }: `lock` (a shop or category of the
   * harness) is busy while it runs, so nothing else writes to it meanwhile.
   */
  plan() {
    for (let attempt = 0; attempt < 10; attempt++) {
      let kind = this.random.weighted(WRITE_WEIGHTS, 'createShop');
      if (this.shops.size < OWN_SHOPS.min) kind = 'createShop';
      const op = this.#make(kind);
      if (op) return op;
    }
    return undefined;
  }

  #make(kind) {
    const random = this.random;
    switch (kind) {
      case 'createShop': {
        if (this.shops.size >= OWN_SHOPS.max) return undefined;
        const name = this.uniqueName('Soak Shop');
        const body = {
          name,
          categoryId: random.pick(this.catalog.categoryIds),
          floorId: random.pick(this.catalog.floorIds),
          description: 'Made by the soak test',
          location: `Unit S${this.counter}`,
          openingHours: '10:00–21:00',
        };
        return {
          kind,
          method: 'POST',
          path: '/api/shops',
          body,
          apply: (created) =>
            this.shops.set(created.id, { name, busy: false, products: new Map(), offers: new Set() }),
        };
      }
      case 'createProduct': {
        const [shopId, shop] = this.idleShop() ?? [];
        if (!shop) return undefined;
        const offerId = random.chance(0.5) ? (random.pick([...shop.offers]) ?? null) : null;
        const price = random.int(0, 500_000) / 100;
        return {
          kind,
          lock: shop,
          method: 'POST',
          path: '/api/products',
          body: {
            name: this.uniqueName('Soak Product'),
            price,
            shopId,
            category: 'Soak',
            ...(offerId ? { offerId } : {}),
          },
          apply: (created) => shop.products.set(created.id, { price: price.toFixed(2), offerId }),
        };
      }
      case 'createOffer': {
        const [shopId, shop] = this.idleShop() ?? [];
        if (!shop) return undefined;
        return {
          kind,
          lock: shop,
          method: 'POST',
          path: '/api/offers',
          body: {
            title: this.uniqueName('Soak Offer'),
            discount: random.int(1, 70),
            startDate: today(-random.int(1, 5)),
            endDate: today(random.int(1, 30)),
            shopId,
          },
          apply: (created) => shop.offers.add(created.id),
        };
      }
      case 'updatePrice': {
        const [, shop] = this.idleShop((candidate) => candidate.products.size > 0) ?? [];
        if (!shop) return undefined;
        const productId = random.pick([...shop.products.keys()]);
        const price = random.int(0, 500_000) / 100;
        return {
          kind,
          lock: shop,
          method: 'PATCH',
          path: `/api/products/${productId}`,
          body: { price },
          apply: () => {
            shop.products.get(productId).price = price.toFixed(2);
          },
        };
      }
      case 'deleteShop': {
        if (this.shops.size <= OWN_SHOPS.min) return undefined;
        const [shopId, shop] = this.idleShop((candidate) => candidate.products.size > 0) ?? [];
        if (!shop) return undefined;
        return {
          kind,
          lock: shop,
          method: 'DELETE',
          path: `/api/shops/${shopId}`,
          apply: () => {
            this.shops.delete(shopId);
            this.deletedShops.push({
              id: shopId,
              products: [...shop.products.keys()],
              offers: [...shop.offers],
            });
          },
          doubt: () => this.shops.delete(shopId),
        };
      }
      case 'createCategory': {
        if (this.categories.size >= OWN_CATEGORIES_MAX) return undefined;
        const name = this.uniqueName('Soak Category');
        return {
          kind,
          method: 'POST',
          path: '/api/categories',
          body: { name },
          apply: (created) => this.categories.set(created.id, { name, busy: false }),
        };
      }
      case 'renameCategory':
      case 'deleteCategory': {
        const idle = [...this.categories].filter(([, category]) => !category.busy);
        const [id, category] = random.pick(idle) ?? [];
        if (!category) return undefined;
        if (kind === 'renameCategory') {
          const name = this.uniqueName('Soak Category renamed');
          return {
            kind,
            lock: category,
            method: 'PATCH',
            path: `/api/categories/${id}`,
            body: { name },
            apply: () => {
              category.name = name;
            },
          };
        }
        // Never used by a shop: the delete must succeed (a used one would be refused 409 by design).
        return {
          kind,
          lock: category,
          method: 'DELETE',
          path: `/api/categories/${id}`,
          apply: () => {
            this.categories.delete(id);
            this.deletedCategories.push(id);
          },
          doubt: () => this.categories.delete(id),
        };
      }
      default:
        throw new Error(`unknown write ${kind}`);
    }
  }

  async #write(op) {
    const admin = this.admins[this.sent % this.admins.length];
    this.sent += 1;
    increment(this.kinds, op.kind);
    this.inFlight += 1;
    if (op.lock) op.lock.busy = true;
    const started = performance.now();
    try {
      const { status, body } = await admin.send(op.method, op.path, op.body, WRITE_TIMEOUT_MS);
      this.latencies.push(performance.now() - started);
      increment(this.statuses, status);
      const expected = EXPECTED_WRITE_STATUS[op.method];
      if (status === expected) {
        this.acknowledged += 1;
        op.apply(body);
      } else {
        this.unexpected.push(
          `${op.kind} ${op.method} ${op.path} → ${status} (expected ${expected}): ${JSON.stringify(body).slice(0, 200)}`,
        );
        if (op.doubt) {
          op.doubt();
          this.inDoubt += 1;
        }
      }
    } catch (error) {
      this.errors.push(`${op.kind} ${op.method} ${op.path}: ${error.message}`);
      if (op.doubt) {
        op.doubt();
        this.inDoubt += 1;
      }
    } finally {
      if (op.lock) op.lock.busy = false;
      this.inFlight -= 1;
    }
  }

  /** Writes at `rate` a second until stop(); resolves when the last write is answered. */
  async run() {
    const interval = 1000 / this.rate;
    const pending = new Set();
    let due = performance.now();
    while (!this.stopped) {
      if (this.inFlight >= MAX_WRITES_IN_FLIGHT) {
        this.skipped += 1;
      } else {
        const op = this.plan();
        if (op) {
          const write = this.#write(op);
          pending.add(write);
          write.finally(() => pending.delete(write));
        } else {
          this.skipped += 1;
        }
      }
      due += interval;
      await sleep(Math.max(0, due - performance.now()));
    }
    await Promise.all(pending);
  }

  stop() {
    this.stopped = true;
  }

  /** Every acknowledged write is reflected. Returns the problems found. */
  async verify(api) {
    const problems = [];
    const tasks = [];
    for (const [shopId, shop] of this.shops) {
      tasks.push(async () => {
        const { status, body } = await api.get(`/api/shops/${shopId}`);
        if (status !== 200) {
          problems.push(`shop ${shopId} "${shop.name}" (acknowledged): GET → HTTP ${status}`);
          return;
        }
        if (body.name !== shop.name)
          problems.push(`shop ${shopId}: named "${body.name}", expected "${shop.name}"`);
        if (body.productCount !== shop.products.size || body.offerCount !== shop.offers.size)
          problems.push(
            `shop ${shopId}: ${body.productCount} products/${body.offerCount} offers, expected ${shop.products.size}/${shop.offers.size}`,
          );
        const [products, offers] = await Promise.all([
          api.all(`/api/products?shopId=${shopId}`),
          api.all(`/api/offers?shopId=${shopId}`),
        ]);
        const found = new Map(products.items.map((product) => [product.id, product]));
        for (const [productId, expected] of shop.products) {
          const product = found.get(productId);
          if (!product) problems.push(`product ${productId} of shop ${shopId} (acknowledged) is missing`);
          else if (product.price !== expected.price)
            problems.push(`product ${productId}: price ${product.price}, expected ${expected.price}`);
          else if ((product.offerId ?? null) !== expected.offerId)
            problems.push(`product ${productId}: offer ${product.offerId}, expected ${expected.offerId}`);
        }
        for (const product of products.items)
          if (!shop.products.has(product.id))
            problems.push(`shop ${shopId} has unknown product ${product.id}`);
        const offerIds = new Set(offers.items.map((offer) => offer.id));
        for (const offerId of shop.offers)
          if (!offerIds.has(offerId))
            problems.push(`offer ${offerId} of shop ${shopId} (acknowledged) is missing`);
        for (const offer of offers.items)
          if (!shop.offers.has(offer.id)) problems.push(`shop ${shopId} has unknown offer ${offer.id}`);
      });
    }
    for (const deleted of this.deletedShops) {
      tasks.push(async () => {
        const shop = await api.get(`/api/shops/${deleted.id}`);
        if (shop.status !== 404)
          problems.push(`deleted shop ${deleted.id}: GET → HTTP ${shop.status}, expected 404`);
        const products = await api.get(`/api/products?shopId=${deleted.id}&pageSize=1`);
        if (products.status !== 200 || products.body.total !== 0)
          problems.push(
            `deleted shop ${deleted.id}: ${products.body?.total} products left (HTTP ${products.status})`,
          );
        const offers = await api.get(`/api/offers?shopId=${deleted.id}&pageSize=1`);
        if (offers.status !== 200 || offers.body.total !== 0)
          problems.push(
            `deleted shop ${deleted.id}: ${offers.body?.total} offers left (HTTP ${offers.status})`,
          );
        // One of its products by id, as a shopper's old link would ask.
        const productId = deleted.products[0];
        if (productId) {
          const product = await api.get(`/api/products/${productId}`);
          if (product.status !== 404)
            problems.push(
              `product ${productId} of deleted shop ${deleted.id}: GET → HTTP ${product.status}, expected 404`,
            );
        }
      });
    }
    tasks.push(async () => {
      const { status, body } = await api.get('/api/categories');
      if (status !== 200) {
        problems.push(`GET /api/categories → HTTP ${status}`);
        return;
      }
      const found = new Map(body.items.map((category) => [category.id, category]));
      for (const [id, category] of this.categories) {
        if (!found.has(id)) problems.push(`category ${id} "${category.name}" (acknowledged) is missing`);
        else if (found.get(id).name !== category.name)
          problems.push(`category ${id}: named "${found.get(id).name}", expected "${category.name}"`);
      }
      for (const id of this.deletedCategories)
        if (found.has(id)) problems.push(`deleted category ${id} is back`);
    });
    await runLimited(tasks, CHECK_CONCURRENCY);
    return problems;
  }
}

// ---------------------------------------------------------------------------------------------------
// Set-up

async function register(api, email, role) {
  const account = {
    email,
    password: PASSWORD,
    role,
    ...(role === 'admin' ? { inviteCode: INVITE_CODE } : {}),
  };
  await registerAccount(api, account, `${email} (${role})`, { needCookie: true });
}

/** What the shoppers browse: the demo mall's categories, floors, shops and products at the start. */
async function loadCatalog(api) {
  const [categories, floors, shops, products] = await Promise.all([
    api.get('/api/categories'),
    api.get('/api/floors'),
    api.all('/api/shops'),
    api.all('/api/products'),
  ]);
  if (categories.status !== 200 || floors.status !== 200)
    throw new HarnessError(
      `GET /api/categories or /api/floors failed: ${categories.status}/${floors.status}`,
    );
  const words = (names) => [
    ...new Set(
      names.flatMap((name) =>
        name
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter((word) => word.length >= 4),
      ),
    ),
  ];
  const catalog = {
    categoryIds: categories.body.items.map((item) => item.id),
    floorIds: floors.body.items.map((item) => item.id),
    shopIds: shops.items.map((item) => item.id),
    productIds: products.items.map((item) => item.id),
    shopTerms: words(shops.items.map((item) => item.name)).slice(0, 40),
    productTerms: words(products.items.map((item) => item.name)).slice(0, 60),
  };
  for (const [key, list] of Object.entries(catalog))
    if (list.length === 0)
      throw new HarnessError(`the demo mall has no ${key}: is MALL_DEMO_DATA=on working?`);
  return catalog;
}

// ---------------------------------------------------------------------------------------------------
// The run

async function soak(random) {
  const workspace = serverWorkspace('super-mall-soak-', 'soak-');
  const { logPath } = workspace;
  const env = await serverEnv({
    TMPDIR: workspace.serverTmp,
    MALL_DATA_DIR: undefined,
    MALL_DEMO_DATA: 'on',
    MALL_ADMIN_INVITE_CODE: INVITE_CODE,
  });

  let cluster;
  let server;
  const apis = [];
  const samples = [];
  let sampler;
  try {
    const clusterStart = performance.now();
    cluster = await startThrowawayCluster();
    env.DATABASE_URL = cluster.url;
    console.log(
      `soak: throwaway PostgreSQL ${cluster.version} (${seconds(performance.now() - clusterStart)})`,
    );

    server = new Server({ label: 'soak', mainJs: workspace.mainJs, env, logPath });
    const startMs = await server.start(START_TIMEOUT_MS);

    const admins = Array.from(
      { length: ADMINS },
      () => new Api(server.port, { maxSockets: MAX_WRITES_IN_FLIGHT }),
    );
    const shopperAccounts = Array.from(
      { length: Math.min(shoppers, MAX_SHOPPER_ACCOUNTS) },
      () => new Api(server.port),
    );
    apis.push(...admins, ...shopperAccounts);
    const runId = Date.now().toString(36);
    await runLimited(
      [
        ...admins.map((api, i) => () => register(api, `soak.admin${i + 1}.${runId}@example.com`, 'admin')),
        ...shopperAccounts.map(
          (api, i) => () => register(api, `soak.shopper${i + 1}.${runId}@example.com`, 'user'),
        ),
      ],
      3,
    );
    const catalog = await loadCatalog(admins[0]);
    console.log(
      `soak: server ready in ${seconds(startMs)} on port ${server.port} (pid ${server.pid}); ${ADMINS} admins and ` +
        `${shopperAccounts.length} shoppers registered; demo mall: ${catalog.shopIds.length} shops, ` +
        `${catalog.productIds.length} products, ${catalog.categoryIds.length} categories, ${catalog.floorIds.length} floors`,
    );

    // Load
    const idleRssKb = readRssKb(server.pid);
    const loadStart = performance.now();
    const sample = () => {
      const kb = readRssKb(server.pid);
      if (kb !== undefined) samples.push({ t: (performance.now() - loadStart) / 1000, kb });
    };
    sample();
    sampler = setInterval(sample, RSS_SAMPLE_MS);

    console.log(
      `soak: ${minutes} min of load: ${shoppers} shopper connections, ${writesPerSecond} admin writes/s; ` +
        `RSS every ${RSS_SAMPLE_MS / 1000} s (idle ${fmtMb(idleRssKb)})`,
    );
    const shopperLoad = new ShopperLoad({
      port: server.port,
      cookies: shopperAccounts.map((api) => api.cookie),
      catalog,
      random,
      connections: shoppers,
      durationS: durationMs / 1000,
    });
    const writer = new AdminWriter({ admins, catalog, random, rate: writesPerSecond });
    const writing = writer.run();

    const progressEveryMs = durationMs >= 120_000 ? 30_000 : 10_000;
    const progress = setInterval(() => {
      const elapsed = performance.now() - loadStart;
      const last = samples.at(-1);
      console.log(
        `  ${String(Math.round(elapsed / 1000)).padStart(4)} s: ${shopperLoad.served} reads, ${writer.acknowledged}/${writer.sent} writes acknowledged, ` +
          `RSS ${fmtMb(last?.kb)}${server.isRunning() ? '' : ' — THE SERVER IS GONE'}`,
      );
      if (!server.isRunning()) shopperLoad.stop();
    }, progressEveryMs);

    let result;
    try {
      result = await shopperLoad.done;
    } finally {
      clearInterval(progress);
      writer.stop();
    }
    sample();
    clearInterval(sampler);
    sampler = undefined;
    await writing;
    const loadMs = performance.now() - loadStart;

    // After the load
    const alive = server.isRunning();
    let healthy = false;
    if (alive) {
      try {
        healthy = (await admins[0].send('GET', '/api/health', undefined, 5_000)).status === 200;
      } catch {
        healthy = false;
      }
    }
    const checkStart = performance.now();
    const lost = alive ? await writer.verify(admins[0]) : ['the server died: nothing could be checked'];
    const checkMs = performance.now() - checkStart;
    const endRssAfterCheck = alive ? readRssKb(server.pid) : undefined;
    for (const api of apis) api.close();
    const stopCode = alive ? await server.stop() : null;

    return {
      cluster,
      pid: server.pid,
      startMs,
      loadMs,
      checkMs,
      result,
      shopperLoad,
      writer,
      samples,
      idleRssKb,
      endRssAfterCheck,
      alive,
      healthy,
      lost,
      stopCode,
      serverLog: tail(logPath, 60),
    };
  } finally {
    if (sampler) clearInterval(sampler);
    for (const api of apis) api.close();
    if (server?.isRunning()) await server.kill();
    await cluster?.stop();
    workspace.remove();
  }
}

// ---------------------------------------------------------------------------------------------------
// The verdict and the report

function memoryVerdict(samples) {
  const underLoad = samples.filter((s) => s.t * 1000 <= durationMs + RSS_SAMPLE_MS);
  const startWindow = underLoad.filter((s) => s.t * 1000 >= warmupMs - RSS_SAMPLE_MS / 10).slice(0, 3);
  const endWindow = underLoad.slice(-3);
  const startKb = median(startWindow.map((s) => s.kb));
  const endKb = median(endWindow.map((s) => s.kb));
  const peakKb = samples.length > 0 ? Math.max(...samples.map((s) => s.kb)) : Number.NaN;
  const limitKb = startKb * (1 + MEMORY_GROWTH_RATIO) + MEMORY_GROWTH_SLACK_MB * 1024;
  const flat = Number.isFinite(startKb) && Number.isFinite(endKb) && endKb <= limitKb;
  return { startKb, endKb, peakKb, limitKb, flat, startAt: startWindow[0]?.t, count: samples.length };
}

function summarize(run) {
  const { result, shopperLoad, writer } = run;
  const failures = [];
  const readTotal = shopperLoad.served;
  const loadS = run.loadMs / 1000;
  const read5xx = [...shopperLoad.statuses]
    .filter(([status]) => status >= 500)
    .reduce((n, [, c]) => n + c, 0);
  const write5xx = [...writer.statuses].filter(([status]) => status >= 500).reduce((n, [, c]) => n + c, 0);
  const fiveXx = read5xx + write5xx;
  if (fiveXx > 0) failures.push(`${fiveXx} answers were 5xx`);
  const unexpectedReads = [...shopperLoad.unexpected].map(([name, counts]) => `${name}: ${byStatus(counts)}`);
  if (unexpectedReads.length > 0) failures.push('shopper reads got unexpected statuses');
  if (writer.unexpected.length > 0)
    failures.push(`${writer.unexpected.length} admin writes got unexpected statuses`);
  if (result.errors > 0)
    failures.push(`${result.errors} shopper connection errors (${result.timeouts} timeouts)`);
  if (writer.errors.length > 0) failures.push(`${writer.errors.length} admin writes got no answer`);
  if (!run.alive) failures.push('the server died during the load');
  else if (!run.healthy) failures.push('GET /api/health was not 200 after the load');
  if (run.lost.length > 0) failures.push(`${run.lost.length} problems with acknowledged writes`);
  if (readTotal === 0) failures.push('no shopper read was answered');
  const memory = memoryVerdict(run.samples);
  if (memory.count === 0) failures.push(`the server's RSS could not be read (/proc/${run.pid}/status)`);
  else if (judgeMemory && !memory.flat) failures.push('memory is not flat');

  const writeP = (p) => percentile(writer.latencies, p);
  const lines = [
    `Soak test on PostgreSQL ${run.cluster.version}: ${minutes} min (${loadS.toFixed(1)} s of load), ` +
      `${shoppers} shopper connections, ${writesPerSecond} admin writes/s, seed ${seed}`,
    `Shopper reads : ${readTotal} answered, ${(readTotal / loadS).toFixed(1)} req/s; latency p50 ${fmtMs(result.latency.p50)}, ` +
      `p99 ${fmtMs(result.latency.p99)}, max ${fmtMs(result.latency.max)}`,
    `  by status   : ${byStatus(shopperLoad.statuses)} (404: the stale product links, ${STALE_LINK_SHARE * 100}% of product details)`,
    `  errors      : ${result.errors} connection errors, ${result.timeouts} timeouts (> ${READ_TIMEOUT_S} s)`,
    `Admin writes  : ${writer.sent} sent (${(writer.sent / loadS).toFixed(2)}/s), ${writer.acknowledged} acknowledged; ` +
      `latency p50 ${fmtMs(writeP(50))}, p99 ${fmtMs(writeP(99))}, max ${fmtMs(Math.max(...writer.latencies))}` +
      (writer.skipped
        ? `; ${writer.skipped} ticks skipped (${MAX_WRITES_IN_FLIGHT} in flight or nothing to write)`
        : ''),
    `  by kind     : ${[...writer.kinds].map(([kind, count]) => `${kind} ${count}`).join(', ')}`,
    `  by status   : ${byStatus(writer.statuses)}${writer.errors.length ? `, no answer × ${writer.errors.length}` : ''}`,
    `All requests  : ${readTotal + writer.sent} (${((readTotal + writer.sent) / loadS).toFixed(1)}/s)`,
    `5xx           : ${fiveXx}`,
    `Unexpected    : ${unexpectedReads.length + writer.unexpected.length === 0 ? 'none' : [...unexpectedReads, ...writer.unexpected.slice(0, 10)].join('; ')}`,
    `Acknowledged  : ${writer.acknowledged} writes checked in ${seconds(run.checkMs)} (${writer.shops.size} shops of the harness alive, ` +
      `${writer.deletedShops.length} deleted, ${writer.categories.size} categories alive, ${writer.deletedCategories.length} deleted): ` +
      `${run.lost.length} problems${writer.inDoubt ? ` (${writer.inDoubt} in doubt after unexpected answers, not checked)` : ''}`,
    `Memory (RSS)  : idle ${fmtMb(run.idleRssKb)}; start ${fmtMb(memory.startKb)} (at ${memory.startAt?.toFixed(0) ?? '?'} s, after warm-up); ` +
      `end ${fmtMb(memory.endKb)}; peak ${fmtMb(memory.peakKb)}; after the check ${fmtMb(run.endRssAfterCheck)}; ${memory.count} samples`,
    judgeMemory
      ? `  flat?       : ${memory.flat ? 'yes' : 'NO'} — end ${fmtMb(memory.endKb)} vs limit ${fmtMb(memory.limitKb)} ` +
        `(start + ${MEMORY_GROWTH_RATIO * 100}% + ${MEMORY_GROWTH_SLACK_MB} MB)`
      : `  flat?       : not judged — runs under ${MEMORY_JUDGED_FROM_MINUTES} min are too short for the heap to settle ` +
        `(limit would be ${fmtMb(memory.limitKb)})`,
    `Server        : started in ${seconds(run.startMs)}; ${run.alive ? 'alive' : 'DEAD'} after the load; ` +
      `SIGTERM stop exit code ${run.stopCode ?? 'n/a'}`,
    `Result        : ${failures.length === 0 ? 'PASS' : `FAIL — ${failures.join('; ')}`}`,
  ];
  return { lines, failures, memory };
}

function writeReport(run, summary) {
  const cpus = os.cpus();
  const machine =
    `${cpus[0]?.model?.trim() ?? 'unknown CPU'} × ${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB RAM, ` +
    `${os.type()} ${os.release()} (${os.arch()}), load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`;
  const rssSeries = run.samples.map((s) => `${s.t.toFixed(0)} s ${mb(s.kb).toFixed(0)}`).join(', ');
  const text = [
    '# Soak test',
    '',
    'Written by `node scripts/stress/soak.mjs` (see its header for what it does); each run replaces this file.',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machine}`,
    `- Node: ${process.version}; PostgreSQL ${run.cluster.version} (throwaway cluster, fsync off)`,
    `- Duration: ${minutes} min of load; ${shoppers} shopper connections; ${writesPerSecond} admin writes/s; seed ${seed}`,
    `- Result: **${summary.failures.length === 0 ? 'PASS' : 'FAIL'}**`,
    '',
    '```text',
    ...summary.lines,
    '```',
    '',
    `RSS samples (seconds into the load, MB): ${rssSeries}`,
    '',
    ...(run.lost.length > 0
      ? [
          'Problems with acknowledged writes (first 20):',
          '',
          ...run.lost.slice(0, 20).map((l) => `- ${l}`),
          '',
        ]
      : []),
  ].join('\n');
  writeRepoFile(outFile, text);
}

// ---------------------------------------------------------------------------------------------------

/** A hard ceiling, whatever hangs: the load plus 5 minutes for set-up, the check and clean-up. */
const watchdog = startWatchdog('soak', durationMs + 5 * 60_000);

console.log(
  `soak: ${minutes} min, ${shoppers} shoppers, ${writesPerSecond} writes/s, seed ${seed}, Node ${process.version}`,
);
let exitCode = 0;
try {
  const run = await soak(makeRandom(seed));
  const summary = summarize(run);
  console.log(`\n${summary.lines.join('\n')}\n`);
  if (run.lost.length > 0) for (const line of run.lost.slice(0, 20)) console.error(`  lost: ${line}`);
  for (const line of run.writer.unexpected.slice(0, 10)) console.error(`  unexpected: ${line}`);
  for (const line of run.writer.errors.slice(0, 10)) console.error(`  no answer: ${line}`);
  if (summary.failures.length > 0) console.error(`--- server output (last lines) ---\n${run.serverLog}`);
  writeReport(run, summary);
  console.log(`soak: summary written to ${path.relative(repoRoot, outFile)}`);
  exitCode = summary.failures.length === 0 ? 0 : 1;
} catch (error) {
  if (!isInterrupted()) printFailure('soak FAILED: ', error);
  exitCode = 1;
}
clearTimeout(watchdog);
process.exit(exitCode);
