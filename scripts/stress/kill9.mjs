#!/usr/bin/env node
// Kill -9 durability harness (issue #6): acknowledged writes must survive the server being killed.
//
//   node scripts/stress/kill9.mjs [--kills 50] [--embedded] [--postgres] [--seed N] [--verbose]
//
// Needs the built server (npm run build); builds nothing. For each database (both when neither
// --embedded nor --postgres is given):
//  1. starts `dist/server/main.js` on 127.0.0.1: embedded on a fresh temp MALL_DATA_DIR, or on a
//     throwaway PostgreSQL cluster (scripts/pg-cluster.mjs) with DATABASE_URL; demo mall on, rate
//     limits off, a known admin invite code; registers an admin;
//  2. embedded: a second server on the same MALL_DATA_DIR must exit non-zero saying it is "already
//     using the data directory" (checked at the start and at the end);
//  3. --kills times: sends a burst of concurrent writes (create category/floor/shop/product/offer,
//     renames, deletes of shops that have products and offers — the cascade), SIGKILLs the server
//     50–800 ms into it, restarts it on the same data (healthy within 10 s or the run fails), and checks
//     every acknowledged (2xx) write of the burst through the API: creates exist, renames show the new
//     name, deleted shops are gone with all their products and offers. Writes cut off by the kill may or
//     may not have happened; a shop delete among them must have happened completely or not at all.
//     After each restart everything acknowledged so far is checked again from the full lists, with the
//     constraints: every product's shop exists, every product's offer is one of its shop's.
// Every acknowledged write must also have its audit log entry (written in the same transaction).
// Prints a line per kill, a summary per database and `kill9: N kills, M acknowledged writes checked,
// L lost`; exits 1 on any loss (or failure), 0 otherwise.
//
// Each burst's writes touch disjoint things (a shop being deleted gets no new products, an entity is
// renamed at most once), so every acknowledged write has exactly one right answer after the restart.
//
// The server runs from a copy of dist/server under .tmp/ (a rebuild during the run cannot change it),
// in its own process group, with TMPDIR inside the run's temp folder (a killed server leaves its
// socket folder behind). Everything is removed at the end, on failure and on Ctrl-C.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startThrowawayCluster } from '../pg-cluster.mjs';
import {
  Api,
  distServer,
  HarnessError,
  installCleanup,
  isInterrupted,
  killGroup,
  makeRandom,
  makeTempDir,
  percentile,
  removeTempDir,
  repoRoot,
  runLimited,
  Server,
  seconds,
  sleep,
  tail,
} from './lib.mjs';

const INVITE_CODE = 'kill9-admin-invite-code';
const ADMIN = { email: 'kill9.admin@example.com', password: 'kill9-password' };
const FIRST_START_TIMEOUT_MS = 60_000;
const RESTART_TIMEOUT_MS = 10_000;
const SECOND_SERVER_TIMEOUT_MS = 30_000;
const KILL_WINDOW_MS = [50, 800];
const WRITERS = 6;
const CHECK_CONCURRENCY = 8;
const MIN_SHOPS = 12;
const MAX_DELETES_PER_BURST = 3;

// ---------------------------------------------------------------------------------------------------
// Options

const USAGE = `Usage: node scripts/stress/kill9.mjs [--kills N] [--embedded] [--postgres] [--seed N] [--verbose]

  --kills N     kills per database (default 50)
  --embedded    run on the embedded database (PGlite)
  --postgres    run on a throwaway PostgreSQL cluster
                (neither: both, embedded first)
  --seed N      seed of the workload's choices (default: random, printed)
  --verbose     print every loss in full and the servers' output on failure`;

let options;
try {
  options = parseArgs({
    options: {
      kills: { type: 'string', default: '50' },
      embedded: { type: 'boolean', default: false },
      postgres: { type: 'boolean', default: false },
      seed: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
} catch (error) {
  console.error(`${error.message}\n\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const kills = Number(options.kills);
if (!Number.isInteger(kills) || kills < 1 || kills > 10_000) {
  console.error(`--kills must be a whole number from 1 to 10000 (got "${options.kills}")\n\n${USAGE}`);
  process.exit(2);
}
const seed = options.seed !== undefined ? Number(options.seed) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isInteger(seed)) {
  console.error(`--seed must be a whole number (got "${options.seed}")`);
  process.exit(2);
}
const databases = [];
if (options.embedded || !options.postgres) databases.push('embedded');
if (options.postgres || !options.embedded) databases.push('postgres');

// Clean-up of the servers and temp folders at exit, on failure and on Ctrl-C (scripts/stress/lib.mjs).
installCleanup();

// ---------------------------------------------------------------------------------------------------
// The embedded database's lock

/** A second server on the same MALL_DATA_DIR must refuse to start (exit ≠ 0, "already using the data directory"). */
async function checkSecondServerRefused(server, workDir) {
  const port = await freePort();
  const logPath = path.join(workDir, `second-server-${Date.now()}.log`);
  const child = server.spawnProcess({ ...server.env, PORT: String(port) }, logPath);
  const code = await Promise.race([
    new Promise((resolve) => child.once('exit', (exitCode, signal) => resolve(exitCode ?? signal))),
    sleep(SECOND_SERVER_TIMEOUT_MS).then(() => 'timeout'),
  ]);
  if (code === 'timeout') {
    killGroup(child, 'SIGKILL');
    throw new HarnessError(
      `[${server.label}] a second server on the same MALL_DATA_DIR was still running after ${seconds(SECOND_SERVER_TIMEOUT_MS)}`,
    );
  }
  const output = tail(logPath, 20);
  if (code === 0 || !output.includes('already using the data directory')) {
    throw new HarnessError(
      `[${server.label}] a second server on the same MALL_DATA_DIR should exit non-zero saying "already using the data directory"; it exited with ${code}:\n${output}`,
    );
  }
  if (!server.isRunning())
    throw new HarnessError(`[${server.label}] the first server died during that check`);
  return `second server refused (exit code ${code})`;
}

// ---------------------------------------------------------------------------------------------------
// What the harness believes is in the database: everything acknowledged, minus what was deleted.

/**
 * @typedef {{ name: string | null, categoryId: string, floorId: string, products: Set<string>, offers: Set<string> }} ShopModel
 * @typedef {{
 *   categories: Map<string, { name: string | null }>,
 *   floors: Map<string, { name: string | null }>,
 *   shops: Map<string, ShopModel>,
 *   products: Map<string, { name: string | null, shopId: string, offerId: string | null }>,
 *   offers: Map<string, { title: string | null, shopId: string }>,
 *   deletedShops: Set<string>,
 * }} Model
 */

async function loadModel(api) {
  /** @type {Model} */
  const model = {
    categories: new Map(),
    floors: new Map(),
    shops: new Map(),
    products: new Map(),
    offers: new Map(),
    deletedShops: new Set(),
  };
  for (const [kind, map] of [
    ['categories', model.categories],
    ['floors', model.floors],
  ]) {
    const { status, body } = await api.get(`/api/${kind}`);
    if (status !== 200) throw new HarnessError(`GET /api/${kind}: HTTP ${status}`);
    for (const item of body.items) map.set(item.id, { name: item.name });
  }
  for (const shop of (await api.all('/api/shops')).items) {
    model.shops.set(shop.id, {
      name: shop.name,
      categoryId: shop.categoryId,
      floorId: shop.floorId,
      products: new Set(),
      offers: new Set(),
    });
  }
  for (const offer of (await api.all('/api/offers')).items) {
    model.offers.set(offer.id, { title: offer.title, shopId: offer.shopId });
    model.shops.get(offer.shopId)?.offers.add(offer.id);
  }
  for (const product of (await api.all('/api/products')).items) {
    model.products.set(product.id, { name: product.name, shopId: product.shopId, offerId: product.offerId });
    model.shops.get(product.shopId)?.products.add(product.id);
  }
  return model;
}

function removeShopFromModel(model, shopId) {
  const shop = model.shops.get(shopId);
  if (!shop) return;
  for (const id of shop.products) model.products.delete(id);
  for (const id of shop.offers) model.offers.delete(id);
  model.shops.delete(shopId);
  model.deletedShops.add(shopId);
}

// ---------------------------------------------------------------------------------------------------
// The burst: concurrent writes over disjoint things.

const WEIGHTS = [
  ['createCategory', 4],
  ['createFloor', 3],
  ['createShop', 12],
  ['createProduct', 28],
  ['createOffer', 14],
  ['renameCategory', 3],
  ['renameFloor', 2],
  ['renameShop', 7],
  ['renameProduct', 9],
  ['renameOffer', 6],
  ['deleteShop', 8],
];
const WEIGHT_TOTAL = WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);

function today(offsetDays = 0) {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

class BurstPlanner {
  /** @param {Model} model */
  constructor(model, random, tag) {
    this.model = model;
    this.random = random;
    this.tag = tag;
    this.counter = 0;
    /** shopId → 'use' | 'delete' */
    this.claims = new Map();
    this.renamed = new Set();
    /** Offers created and acknowledged in this burst, by shop: new products may take them. */
    this.freshOffers = new Map();
    this.shopIds = [...model.shops.keys()];
    this.productIds = [...model.products.keys()];
    this.offerIds = [...model.offers.keys()];
    this.categoryIds = [...model.categories.keys()];
    this.floorIds = [...model.floors.keys()];
  }

  uniqueName(prefix) {
    this.counter += 1;
    return `${prefix} ${this.tag}-${this.counter}`;
  }

  /** A shop nobody deletes in this burst, claimed for use. */
  usableShop() {
    for (let attempt = 0; attempt < 20; attempt++) {
      const id = this.random.pick(this.shopIds);
      if (id === undefined) return undefined;
      if (this.claims.get(id) === 'delete') continue;
      this.claims.set(id, 'use');
      return id;
    }
    return undefined;
  }

  /** Something of `ids` not renamed yet in this burst whose shop (if any) is not being deleted. */
  renamable(ids, shopOf) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const id = this.random.pick(ids);
      if (id === undefined) return undefined;
      if (this.renamed.has(id)) continue;
      const shopId = shopOf?.(id);
      if (shopId !== undefined && this.claims.get(shopId) === 'delete') continue;
      if (shopId !== undefined) this.claims.set(shopId, 'use');
      this.renamed.add(id);
      return id;
    }
    return undefined;
  }

  deletableShop() {
    const deleting = [...this.claims.values()].filter((claim) => claim === 'delete').length;
    if (deleting >= MAX_DELETES_PER_BURST || this.model.shops.size - deleting <= MIN_SHOPS) return undefined;
    for (let attempt = 0; attempt < 30; attempt++) {
      const id = this.random.pick(this.shopIds);
      if (id === undefined) return undefined;
      if (this.claims.has(id)) continue;
      const shop = this.model.shops.get(id);
      if (!shop || shop.products.size === 0 || shop.offers.size === 0) continue;
      this.claims.set(id, 'delete');
      return id;
    }
    return undefined;
  }

  next() {
    for (let attempt = 0; attempt < 10; attempt++) {
      const op = this.#make(this.#kind());
      if (op) return op;
    }
    return this.#make('createCategory');
  }

  #kind() {
    let roll = this.random.next() * WEIGHT_TOTAL;
    for (const [kind, weight] of WEIGHTS) {
      roll -= weight;
      if (roll < 0) return kind;
    }
    return 'createProduct';
  }

  #make(kind) {
    const m = this.model;
    switch (kind) {
      case 'createCategory':
      case 'createFloor': {
        const name = this.uniqueName(kind === 'createCategory' ? 'K9 Category' : 'K9 Floor');
        const collection = kind === 'createCategory' ? 'categories' : 'floors';
        return { kind, method: 'POST', path: `/api/${collection}`, body: { name }, name };
      }
      case 'createShop': {
        const categoryId = this.random.pick(this.categoryIds);
        const floorId = this.random.pick(this.floorIds);
        if (!categoryId || !floorId) return undefined;
        const name = this.uniqueName('K9 Shop');
        return {
          kind,
          method: 'POST',
          path: '/api/shops',
          body: { name, categoryId, floorId, description: 'Made by the kill -9 harness', location: 'K9' },
          name,
          categoryId,
          floorId,
        };
      }
      case 'createProduct': {
        const shopId = this.usableShop();
        if (!shopId) return undefined;
        const offers = [...(m.shops.get(shopId)?.offers ?? []), ...(this.freshOffers.get(shopId) ?? [])];
        const offerId = this.random.chance(0.6) ? (this.random.pick(offers) ?? null) : null;
        const name = this.uniqueName('K9 Product');
        const price = this.random.int(0, 999_999) / 100;
        return {
          kind,
          method: 'POST',
          path: '/api/products',
          body: { name, price, shopId, category: 'K9', ...(offerId ? { offerId } : {}) },
          name,
          shopId,
          offerId,
        };
      }
      case 'createOffer': {
        const shopId = this.usableShop();
        if (!shopId) return undefined;
        const title = this.uniqueName('K9 Offer');
        return {
          kind,
          method: 'POST',
          path: '/api/offers',
          body: {
            title,
            discount: this.random.int(1, 100),
            startDate: today(-this.random.int(0, 5)),
            endDate: today(this.random.int(0, 30)),
            shopId,
          },
          name: title,
          shopId,
        };
      }
      case 'renameCategory':
      case 'renameFloor': {
        const isCategory = kind === 'renameCategory';
        const id = this.renamable(isCategory ? this.categoryIds : this.floorIds);
        if (!id) return undefined;
        const name = this.uniqueName(isCategory ? 'K9 Category renamed' : 'K9 Floor renamed');
        const collection = isCategory ? 'categories' : 'floors';
        return { kind, method: 'PATCH', path: `/api/${collection}/${id}`, body: { name }, id, name };
      }
      case 'renameShop': {
        const id = this.renamable(this.shopIds, (shopId) => shopId);
        if (!id) return undefined;
        const name = this.uniqueName('K9 Shop renamed');
        return { kind, method: 'PATCH', path: `/api/shops/${id}`, body: { name }, id, name };
      }
      case 'renameProduct': {
        const id = this.renamable(this.productIds, (productId) => m.products.get(productId)?.shopId);
        if (!id) return undefined;
        const name = this.uniqueName('K9 Product renamed');
        return { kind, method: 'PATCH', path: `/api/products/${id}`, body: { name }, id, name };
      }
      case 'renameOffer': {
        const id = this.renamable(this.offerIds, (offerId) => m.offers.get(offerId)?.shopId);
        if (!id) return undefined;
        const title = this.uniqueName('K9 Offer renamed');
        return { kind, method: 'PATCH', path: `/api/offers/${id}`, body: { title }, id, name: title };
      }
      case 'deleteShop': {
        const id = this.deletableShop();
        if (!id) return undefined;
        const shop = m.shops.get(id);
        return {
          kind,
          method: 'DELETE',
          path: `/api/shops/${id}`,
          id,
          products: [...(shop?.products ?? [])],
          offers: [...(shop?.offers ?? [])],
        };
      }
      default:
        throw new Error(`unknown kind ${kind}`);
    }
  }

  acknowledged(record) {
    if (record.op.kind === 'createOffer' && record.body?.id) {
      const list = this.freshOffers.get(record.op.shopId) ?? [];
      list.push(record.body.id);
      this.freshOffers.set(record.op.shopId, list);
    }
  }
}

const is2xx = (status) => status !== undefined && status >= 200 && status < 300;

/**
 * Runs WRITERS concurrent writers until `killAt` ms, then kills the server. Each record is
 * { op, status?, body?, error? }: acknowledged when a 2xx status arrived.
 */
async function burst(api, server, planner, killAt) {
  const records = [];
  let killed = false;
  const writer = async () => {
    while (!killed) {
      const op = planner.next();
      const record = { op };
      records.push(record);
      try {
        const { status, body } = await api.send(op.method, op.path, op.body);
        record.status = status;
        record.body = body;
        if (is2xx(status)) planner.acknowledged(record);
      } catch (error) {
        record.error = error.message;
        if (error.status !== undefined) record.status = error.status;
        if (!killed) record.beforeKill = true;
        return;
      }
    }
  };
  const started = performance.now();
  const writers = Array.from({ length: WRITERS }, writer);
  await sleep(Math.max(0, killAt - (performance.now() - started)));
  killed = true;
  await server.kill();
  await Promise.all(writers);
  return records;
}

// ---------------------------------------------------------------------------------------------------
// Checks after a restart

async function ensureAdmin(api) {
  const me = await api.get('/api/auth/me');
  if (me.status === 200 && me.body?.user?.role === 'admin') return false;
  const login = await api.send('POST', '/api/auth/login', ADMIN);
  if (login.status !== 200) {
    throw new HarnessError(
      `signing in as the admin failed after the restart: HTTP ${login.status} ${JSON.stringify(login.body)}`,
    );
  }
  return true;
}

const COLLECTION = {
  Category: 'categories',
  Floor: 'floors',
  Shop: 'shops',
  Product: 'products',
  Offer: 'offers',
};
const entityOf = (kind) => kind.replace(/^(create|rename|delete)/, '');

/** Applies an acknowledged write to the model. */
function applyToModel(model, record) {
  const { op, body } = record;
  switch (op.kind) {
    case 'createCategory':
      model.categories.set(body.id, { name: op.name });
      break;
    case 'createFloor':
      model.floors.set(body.id, { name: op.name });
      break;
    case 'createShop':
      model.shops.set(body.id, {
        name: op.name,
        categoryId: op.categoryId,
        floorId: op.floorId,
        products: new Set(),
        offers: new Set(),
      });
      break;
    case 'createProduct':
      model.products.set(body.id, { name: op.name, shopId: op.shopId, offerId: op.offerId });
      model.shops.get(op.shopId)?.products.add(body.id);
      break;
    case 'createOffer':
      model.offers.set(body.id, { title: op.name, shopId: op.shopId });
      model.shops.get(op.shopId)?.offers.add(body.id);
      break;
    case 'renameCategory':
    case 'renameFloor':
    case 'renameShop':
    case 'renameProduct': {
      const map = {
        renameCategory: model.categories,
        renameFloor: model.floors,
        renameShop: model.shops,
        renameProduct: model.products,
      }[op.kind];
      const entry = map.get(op.id);
      if (entry) entry.name = op.name;
      break;
    }
    case 'renameOffer': {
      const entry = model.offers.get(op.id);
      if (entry) entry.title = op.name;
      break;
    }
    case 'deleteShop':
      removeShopFromModel(model, op.id);
      break;
  }
}

/** A write cut off by the kill: what it changed is unknown until checked. */
function forgetInDoubt(model, record) {
  const { op } = record;
  const map = {
    renameCategory: model.categories,
    renameFloor: model.floors,
    renameShop: model.shops,
    renameProduct: model.products,
  }[op.kind];
  if (map?.get(op.id)) map.get(op.id).name = null;
  if (op.kind === 'renameOffer' && model.offers.get(op.id)) model.offers.get(op.id).title = null;
}

/** The shop is gone, and so is every product and offer of it: none left half-deleted. */
async function checkShopGone(api, op, lost, what) {
  const shop = await api.get(`/api/shops/${op.id}`);
  if (shop.status !== 404) lost.push(`${what}: GET /api/shops/${op.id} → HTTP ${shop.status}, expected 404`);
  const products = await api.get(`/api/products?shopId=${op.id}&pageSize=1`);
  if (products.status !== 200 || products.body.total !== 0)
    lost.push(`${what}: GET /api/products?shopId=${op.id} → total ${products.body?.total}, expected 0`);
  const offers = await api.get(`/api/offers?shopId=${op.id}&pageSize=1`);
  if (offers.status !== 200 || offers.body.total !== 0)
    lost.push(`${what}: GET /api/offers?shopId=${op.id} → total ${offers.body?.total}, expected 0`);
  await runLimited(
    [
      ...op.products.map((id) => async () => {
        const { status } = await api.get(`/api/products/${id}`);
        if (status !== 404) lost.push(`${what}: its product ${id} still answers HTTP ${status}`);
      }),
      ...op.offers.map((id) => async () => {
        const { status } = await api.get(`/api/offers/${id}`);
        if (status !== 404) lost.push(`${what}: its offer ${id} still answers HTTP ${status}`);
      }),
    ],
    CHECK_CONCURRENCY,
  );
}

/** A shop delete that did not happen left the shop whole: every product and offer it had is still there. */
async function checkShopWhole(api, op, lost, what) {
  const [products, offers] = await Promise.all([
    api.all(`/api/products?shopId=${op.id}`),
    api.all(`/api/offers?shopId=${op.id}`),
  ]);
  const productIds = new Set(products.items.map((item) => item.id));
  const offerIds = new Set(offers.items.map((item) => item.id));
  const missing = [
    ...op.products.filter((id) => !productIds.has(id)).map((id) => `product ${id}`),
    ...op.offers.filter((id) => !offerIds.has(id)).map((id) => `offer ${id}`),
  ];
  if (missing.length > 0)
    lost.push(`${what}: the shop is still there but not its ${missing.join(', ')} (half-applied cascade)`);
}

/**
 * The audit log has the acknowledged write's entry (written in the write's own transaction): an entry
 * of its kind of record, its action, and for a create or rename, the new name.
 */
async function checkAudited(api, op, id, lost, what) {
  const entityType = entityOf(op.kind).toLowerCase();
  const action = op.kind.startsWith('create') ? 'create' : op.kind.startsWith('delete') ? 'delete' : 'update';
  const { status, body } = await api.get(`/api/audit?entityType=${entityType}&entityId=${id}&pageSize=100`);
  if (status !== 200) {
    lost.push(`${what}: GET /api/audit → HTTP ${status}`);
    return;
  }
  const named = (entry) => action === 'delete' || entry.entityName === op.name;
  if (!body.items.some((entry) => entry.action === action && named(entry)))
    lost.push(`${what}: no audit entry "${action}" for it (${body.items.length} entries for the record)`);
}

/** Checks one acknowledged write; pushes what is wrong to `lost`. */
async function checkAcknowledged(api, record, lost) {
  const { op, body } = record;
  const entity = entityOf(op.kind);
  const what = `acknowledged ${op.method} ${op.path} (${op.kind} "${op.name ?? op.id}", HTTP ${record.status})`;
  if (op.kind === 'deleteShop') {
    await checkAudited(api, op, op.id, lost, what);
    return checkShopGone(api, op, lost, what);
  }

  const id = op.id ?? body?.id;
  if (!id) {
    // The status arrived but the body was cut off: find the new thing by its unique name.
    const found = await findByName(api, entity, op.name);
    if (found.length !== 1) lost.push(`${what}: found ${found.length} with that name, expected 1`);
    else await checkAudited(api, op, found[0].id, lost, what);
    return;
  }
  await checkAudited(api, op, id, lost, what);
  const { status, body: current } = await api.get(`/api/${COLLECTION[entity]}/${id}`);
  if (status !== 200) {
    lost.push(`${what}: GET /api/${COLLECTION[entity]}/${id} → HTTP ${status}`);
    return;
  }
  const name = entity === 'Offer' ? current.title : current.name;
  if (name !== op.name) lost.push(`${what}: the name is "${name}", expected "${op.name}"`);
  if (op.kind === 'createShop' && (current.categoryId !== op.categoryId || current.floorId !== op.floorId))
    lost.push(`${what}: category/floor ${current.categoryId}/${current.floorId} differ`);
  if ((op.kind === 'createProduct' || op.kind === 'createOffer') && current.shopId !== op.shopId)
    lost.push(`${what}: shopId ${current.shopId}, expected ${op.shopId}`);
  if (op.kind === 'createProduct') {
    if ((current.offerId ?? null) !== op.offerId || (current.offer?.id ?? null) !== op.offerId)
      lost.push(`${what}: offer ${current.offerId}/${current.offer?.id}, expected ${op.offerId}`);
    if (current.offer?.id) {
      const offer = await api.get(`/api/offers/${current.offer.id}`);
      if (offer.status !== 200 || offer.body.shopId !== current.shopId)
        lost.push(
          `${what}: its offer ${current.offer.id} (HTTP ${offer.status}) belongs to shop ${offer.body?.shopId}, not the product's ${current.shopId}`,
        );
    }
  }
}

async function findByName(api, entity, name) {
  if (entity === 'Category' || entity === 'Floor') {
    const { body } = await api.get(`/api/${COLLECTION[entity]}`);
    return body.items.filter((item) => item.name === name);
  }
  const { items } = await api.all(`/api/${COLLECTION[entity]}?q=${encodeURIComponent(name)}`);
  return items.filter((item) => (entity === 'Offer' ? item.title : item.name) === name);
}

/** A write cut off by the kill: a shop delete happened completely or not at all. */
async function resolveInDoubt(api, model, record, lost) {
  const { op } = record;
  if (op.kind !== 'deleteShop') return undefined;
  const what = `shop delete cut off by the kill (${op.path})`;
  const shop = await api.get(`/api/shops/${op.id}`);
  if (shop.status === 404) {
    await checkShopGone(api, op, lost, what);
    removeShopFromModel(model, op.id);
    return 'applied';
  }
  if (shop.status !== 200) throw new HarnessError(`${what}: GET → HTTP ${shop.status}`);
  await checkShopWhole(api, op, lost, what);
  return 'not applied';
}

/**
 * Everything acknowledged so far is there (the model), nothing deleted came back, and the
 * constraints hold over the whole directory. Returns the number of entities compared.
 */
async function checkWholeDirectory(api, model, lost) {
  const [categories, floors, shops, offers, products] = await Promise.all([
    api.get('/api/categories'),
    api.get('/api/floors'),
    api.all('/api/shops'),
    api.all('/api/offers'),
    api.all('/api/products'),
  ]);
  const byId = (items) => new Map(items.map((item) => [item.id, item]));
  const dbCategories = byId(categories.body.items);
  const dbFloors = byId(floors.body.items);
  const dbShops = byId(shops.items);
  const dbOffers = byId(offers.items);
  const dbProducts = byId(products.items);

  const compare = (label, model, db, nameOf) => {
    for (const [id, expected] of model) {
      const found = db.get(id);
      if (!found) lost.push(`${label} ${id} (acknowledged earlier) is missing`);
      else if (expected.name !== undefined && expected.name !== null && nameOf(found) !== expected.name)
        lost.push(`${label} ${id} is named "${nameOf(found)}", expected "${expected.name}"`);
    }
  };
  compare('category', model.categories, dbCategories, (item) => item.name);
  compare('floor', model.floors, dbFloors, (item) => item.name);
  compare('shop', model.shops, dbShops, (item) => item.name);
  compare('product', model.products, dbProducts, (item) => item.name);
  compare(
    'offer',
    new Map([...model.offers].map(([id, offer]) => [id, { name: offer.title }])),
    dbOffers,
    (item) => item.title,
  );
  for (const id of model.deletedShops) if (dbShops.has(id)) lost.push(`deleted shop ${id} is back`);

  // Lists join products and offers to their shop while `total` counts the table alone: an orphan
  // (a product or offer whose shop is gone) shows as a difference.
  if (products.total !== products.items.length)
    lost.push(`products: total ${products.total} but ${products.items.length} listed (orphans?)`);
  if (offers.total !== offers.items.length)
    lost.push(`offers: total ${offers.total} but ${offers.items.length} listed (orphans?)`);
  if (shops.total !== shops.items.length)
    lost.push(`shops: total ${shops.total} but ${shops.items.length} listed`);

  for (const offer of offers.items) {
    if (!dbShops.has(offer.shopId)) lost.push(`offer ${offer.id} belongs to missing shop ${offer.shopId}`);
  }
  for (const product of products.items) {
    if (!dbShops.has(product.shopId))
      lost.push(`product ${product.id} belongs to missing shop ${product.shopId}`);
    const expected = model.products.get(product.id);
    if (expected && expected.shopId !== product.shopId)
      lost.push(`product ${product.id} moved to shop ${product.shopId}`);
    if (product.offerId === null) continue;
    const offer = dbOffers.get(product.offerId);
    if (!offer || product.offer?.id !== product.offerId)
      lost.push(`product ${product.id} points at offer ${product.offerId}, which does not exist`);
    else if (offer.shopId !== product.shopId)
      lost.push(
        `product ${product.id} of shop ${product.shopId} has offer ${offer.id} of shop ${offer.shopId} (constraint violated)`,
      );
  }
  return (
    model.categories.size + model.floors.size + model.shops.size + model.products.size + model.offers.size
  );
}

// ---------------------------------------------------------------------------------------------------
// One database

async function runDatabase(kind, random) {
  const label = kind;
  const started = performance.now();
  const workDir = makeTempDir(os.tmpdir(), `super-mall-kill9-${kind}-`);
  const serverCopy = makeTempDir(path.join(repoRoot, '.tmp'), `kill9-${kind}-`);
  fs.cpSync(distServer, path.join(serverCopy, 'server'), { recursive: true });
  const serverTmp = path.join(workDir, 'tmp');
  fs.mkdirSync(serverTmp);
  const logPath = path.join(workDir, 'server.log');

  let cluster;
  const env = {
    ...process.env,
    TMPDIR: serverTmp,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    MALL_DATA_DIR: path.join(workDir, 'data'),
    MALL_DEMO_DATA: 'on',
    MALL_ADMIN_INVITE_CODE: INVITE_CODE,
    MALL_RATE_LIMIT: 'off',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  let server;
  let api;
  const stats = {
    kills: 0,
    checked: 0,
    lost: 0,
    problems: 0,
    restarts: [],
    acknowledged: 0,
    inDoubt: 0,
    applied: 0,
    notApplied: 0,
  };
  try {
    if (kind === 'postgres') {
      const clusterStart = performance.now();
      cluster = await startThrowawayCluster();
      env.DATABASE_URL = cluster.url;
      console.log(
        `[${label}] throwaway PostgreSQL ${cluster.version} at ${cluster.url} (${seconds(performance.now() - clusterStart)})`,
      );
    }
    server = new Server({
      label,
      mainJs: path.join(serverCopy, 'server', 'main.js'),
      env,
      logPath,
    });
    const firstStart = await server.start(FIRST_START_TIMEOUT_MS);
    api = new Api(server.port);
    const register = await api.send('POST', '/api/auth/register', {
      ...ADMIN,
      role: 'admin',
      inviteCode: INVITE_CODE,
    });
    if (register.status !== 201)
      throw new HarnessError(
        `registering the admin failed: HTTP ${register.status} ${JSON.stringify(register.body)}`,
      );
    const model = await loadModel(api);
    const notes = [];
    if (kind === 'embedded') notes.push(await checkSecondServerRefused(server, workDir));
    console.log(
      `[${label}] server ready in ${seconds(firstStart)} on port ${server.port}: ${model.shops.size} shops, ` +
        `${model.products.size} products, ${model.offers.size} offers${notes.length ? `; ${notes.join('; ')}` : ''}`,
    );

    for (let run = 1; run <= kills; run++) {
      const planner = new BurstPlanner(model, random, `r${run}`);
      const killAt = random.int(KILL_WINDOW_MS[0], KILL_WINDOW_MS[1]);
      const records = await burst(api, server, planner, killAt);
      stats.kills += 1;

      const restartMs = await server.start(RESTART_TIMEOUT_MS);
      stats.restarts.push(restartMs);
      api.reconnect(server.port);
      const signedInAgain = await ensureAdmin(api);
      const checkStart = performance.now();

      const acknowledged = records.filter((record) => is2xx(record.status));
      const rejected = records.filter((record) => record.status !== undefined && !is2xx(record.status));
      const inDoubt = records.filter((record) => record.status === undefined);
      const lost = [];
      for (const record of rejected) {
        lost.push(
          `unexpected HTTP ${record.status} for ${record.op.method} ${record.op.path}: ${JSON.stringify(record.body ?? record.error).slice(0, 300)}`,
        );
      }
      for (const record of inDoubt.filter((r) => r.beforeKill))
        lost.push(`${record.op.method} ${record.op.path} failed before the kill: ${record.error}`);

      let lostWrites = 0;
      let lostWriteLines = 0;
      await runLimited(
        acknowledged.map((record) => async () => {
          const problems = [];
          await checkAcknowledged(api, record, problems);
          if (problems.length > 0) {
            lostWrites += 1;
            lostWriteLines += problems.length;
            lost.push(...problems);
          }
        }),
        CHECK_CONCURRENCY,
      );
      for (const record of acknowledged) if (record.body?.id || record.op.id) applyToModel(model, record);
      let applied = 0;
      for (const record of inDoubt) {
        forgetInDoubt(model, record);
        const outcome = await resolveInDoubt(api, model, record, lost);
        if (outcome === 'applied') applied += 1;
        if (outcome === 'not applied') stats.notApplied += 1;
      }
      const modelSize = await checkWholeDirectory(api, model, lost);
      const checkMs = performance.now() - checkStart;

      stats.checked += acknowledged.length;
      stats.acknowledged += acknowledged.length;
      stats.inDoubt += inDoubt.length;
      stats.applied += applied;
      const counts = {};
      for (const record of acknowledged) {
        const verb = record.op.kind.match(/^(create|rename|delete)/)[1];
        counts[verb] = (counts[verb] ?? 0) + 1;
      }
      const mix = ['create', 'rename', 'delete'].map((verb) => `${counts[verb] ?? 0} ${verb}`).join('/');
      console.log(
        `[${label}] kill ${String(run).padStart(String(kills).length)}/${kills} at ${String(killAt).padStart(3)} ms: ` +
          `${records.length} sent, ${acknowledged.length} acked (${mix}), ${inDoubt.length} cut off` +
          `${applied ? ` (${applied} shop delete${applied > 1 ? 's' : ''} had happened)` : ''}; ` +
          `restart ${seconds(restartMs)}${signedInAgain ? ' (signed in again)' : ''}; ` +
          `checked in ${seconds(checkMs)} (and all ${modelSize} known things); ` +
          `${lost.length === 0 ? 'ok' : `${lostWrites} LOST, ${lost.length - lostWriteLines} other problems`}`,
      );
      if (lost.length > 0) {
        stats.lost += lostWrites;
        stats.problems += lost.length - lostWriteLines;
        const shown = options.verbose ? lost : lost.slice(0, 20);
        for (const line of shown) console.error(`    ${line}`);
        if (shown.length < lost.length)
          console.error(`    … and ${lost.length - shown.length} more (--verbose)`);
        if (options.verbose) console.error(`--- server output ---\n${tail(logPath, 80)}`);
        break;
      }
    }

    if (stats.lost + stats.problems === 0 && kind === 'embedded') {
      const note = await checkSecondServerRefused(server, workDir);
      console.log(`[${label}] after the kills: ${note}`);
    }
    const code = await server.stop();
    if (code !== 0)
      console.warn(`[${label}] warning: the server's SIGTERM stop ended with ${code ?? 'a SIGKILL'}`);
  } finally {
    api?.close();
    if (server?.isRunning()) await server.kill();
    await cluster?.stop();
    removeTempDir(serverCopy);
    removeTempDir(workDir);
  }
  const p50 = percentile(stats.restarts, 50);
  const max = Math.max(...stats.restarts);
  console.log(
    `kill9 [${label}]: ${stats.kills} kills, ${stats.checked} acknowledged writes checked, ${stats.lost} lost` +
      `${stats.problems ? `, ${stats.problems} other problems` : ''}; ` +
      `${stats.inDoubt} writes cut off, ${stats.applied + stats.notApplied} of them shop deletes ` +
      `(${stats.applied} had happened, ${stats.notApplied} had not; each whole); ` +
      `restart p50 ${seconds(p50)}, max ${seconds(max)}; ${seconds(performance.now() - started)} in all`,
  );
  return stats;
}

// ---------------------------------------------------------------------------------------------------

const mainJs = path.join(distServer, 'main.js');
if (!fs.existsSync(mainJs)) {
  console.error(`${path.relative(repoRoot, mainJs)} is missing: run "npm run build" first.`);
  process.exit(1);
}

/** A hard ceiling per database, whatever hangs: a minute to start plus 20 s a kill. */
const deadlineMs = databases.length * (90_000 + kills * 20_000);
const watchdog = setTimeout(() => {
  console.error(`kill9: gave up after ${seconds(deadlineMs)} (the run took too long); cleaning up.`);
  process.exit(1);
}, deadlineMs);

console.log(
  `kill9: ${kills} kill${kills > 1 ? 's' : ''} per database on ${databases.join(' and ')}, seed ${seed}, Node ${process.version}`,
);
const random = makeRandom(seed);
let totalKills = 0;
let totalChecked = 0;
let totalLost = 0;
let totalProblems = 0;
let exitCode = 0;
for (const kind of databases) {
  try {
    const stats = await runDatabase(kind, random);
    totalKills += stats.kills;
    totalChecked += stats.checked;
    totalLost += stats.lost;
    totalProblems += stats.problems;
    if (stats.lost + stats.problems > 0) exitCode = 1;
  } catch (error) {
    if (isInterrupted()) break;
    console.error(`kill9 [${kind}] FAILED: ${error instanceof Error ? error.message : error}`);
    if (!(error instanceof HarnessError) && error instanceof Error) console.error(error.stack);
    exitCode = 1;
  }
}
clearTimeout(watchdog);
console.log(
  `kill9: ${totalKills} kills, ${totalChecked} acknowledged writes checked, ${totalLost} lost` +
    (totalProblems ? `, ${totalProblems} other problems (see above)` : ''),
);
if (exitCode !== 0 && totalLost + totalProblems === 0) console.error('kill9: FAILED (see above)');
process.exit(exitCode);
