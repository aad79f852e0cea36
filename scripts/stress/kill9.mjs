#!/usr/bin/env node
// Kill -9 durability harness (issue #6): acknowledged writes must survive the server being killed — or,
// with --kill-postgres, the embedded database's own postmaster being killed under the running server.
//
//   node scripts/stress/kill9.mjs [--kills 50] [--embedded] [--postgres] [--seed N] [--verbose]
//   node scripts/stress/kill9.mjs --kill-postgres [--kills 20] [--seed N] [--verbose]
//
// Needs the built server (npm run build); builds nothing. For each database (both when neither
// --embedded nor --postgres is given):
//  1. starts `dist/server/main.js` on 127.0.0.1: embedded (the PostgreSQL server it starts itself) on a
//     fresh temp MALL_DATA_DIR, or on a throwaway PostgreSQL cluster (scripts/pg-cluster.mjs) with
//     DATABASE_URL; demo mall on, rate limits off, a known admin invite code; registers an admin;
//  2. embedded: a second server on the same MALL_DATA_DIR must exit non-zero saying "Another server …
//     is already using the database in …" (PostgreSQL's postmaster.pid is the lock; the launcher waits
//     up to 10 s for a previous server first), and the first must stay healthy (checked at the start and
//     at the end);
//  3. --kills times: sends a burst of concurrent writes (create category/floor/shop/product/offer,
//     renames, deletes of shops that have products and offers — the cascade), SIGKILLs the server
//     50–800 ms into it, restarts it on the same data (healthy within 10 s or the run fails), and checks
//     every acknowledged (2xx) write of the burst through the API: creates exist, renames show the new
//     name, deleted shops are gone with all their products and offers. Writes cut off by the kill may or
//     may not have happened; a shop delete among them must have happened completely or not at all.
//     After each restart everything acknowledged so far is checked again from the full lists, with the
//     constraints: every product's shop exists, every product's offer is one of its shop's.
//     Embedded, the kills alternate: odd ones SIGKILL the server process alone (`kill -9 <pid>`: its
//     PostgreSQL gets the parent-death signal and must stop by itself), even ones the whole process
//     group (server, postmaster, import check — a kill of the whole service: PostgreSQL then recovers
//     from its WAL at the restart). After each: every PostgreSQL process of the data folder from before
//     the kill (found in /proc by its working folder, the cluster) must be gone within 10 s — none left
//     as an orphan — and after the restart every one must be the new server's (the postmaster its child,
//     the rest the postmaster's): no stray postmaster from before.
// Every acknowledged write must also have its audit log entry (written in the same transaction).
// Prints a line per kill, a summary per database and `kill9: N kills, M acknowledged writes checked,
// L lost`; exits 1 on any loss, orphan, stray or failure, 0 otherwise.
//
// --kill-postgres (embedded only): the server keeps running and the harness SIGKILLs the embedded
// PostgreSQL's postmaster (the first line of MALL_DATA_DIR/postgres/postmaster.pid) 50–800 ms into each
// burst, the writers carrying on throughout. The server must notice and restart it (src/server/db/
// client.ts): meanwhile requests that need the database are answered 503 — not a 500, and none may go
// unanswered (10 s) — and /api/health answers 200 again, on a new postmaster that is the server's child,
// within 15 s; the writers go on until a write is acknowledged after that. Then every acknowledged write
// is checked as above (a write answered 503 or 500 is in doubt: it may or may not have happened), and the
// old postmaster's processes must be gone. The server gives up after MAX_RESTARTS (5) restarts within
// ten minutes, so it is stopped (SIGTERM) and started again every 5 kills; at the end the harness kills
// the postmaster until the server gives up and checks it stops with one line ("Super Mall stops: …"),
// exit code 1, no PostgreSQL process left — then starts it once more and checks everything again.
// Every 500 is printed with its body; any 500, unanswered request or other unexpected status fails the run.
//
// Each burst's writes touch disjoint things (a shop being deleted gets no new products, an entity is
// renamed at most once), so every acknowledged write has exactly one right answer after the restart.
//
// The server runs from a copy of dist/server under .tmp/ (a rebuild during the run cannot change it),
// in its own process group, with TMPDIR inside the run's temp folder (mode 0755: as root, the embedded
// PostgreSQL runs as `nobody`, who must reach MALL_DATA_DIR). Everything is removed at the end, on
// failure and on Ctrl-C (a PostgreSQL left behind too).
import fs from 'node:fs';
import path from 'node:path';
import { freePort, startThrowawayCluster } from '../pg-cluster.mjs';
import {
  Api,
  checkOwnPostgres,
  clusterOf,
  databasesOf,
  ensureAdmin,
  HarnessError,
  installCleanup,
  is2xx,
  isInterrupted,
  killGroup,
  killPostgresProcesses,
  makeRandom,
  numberOption,
  parentPid,
  parseOptions,
  percentile,
  postgresProcesses,
  postmasterPid,
  printFailure,
  registerAccount,
  repoRoot,
  requireBuiltServer,
  restartAfterKill,
  runLimited,
  Server,
  seconds,
  seedOption,
  serverEnv,
  serverWorkspace,
  signal,
  sleep,
  snapshotPostgres,
  startWatchdog,
  tail,
  today,
  waitGone,
} from './lib.mjs';

const INVITE_CODE = 'kill9-admin-invite-code';
const ADMIN = { email: 'kill9.admin@example.com', password: 'kill9-password' };
/** What registers the admin at the first start. */
const ADMIN_ACCOUNT = { ...ADMIN, role: 'admin', inviteCode: INVITE_CODE };
const FIRST_START_TIMEOUT_MS = 60_000;
const RESTART_TIMEOUT_MS = 10_000;
const SECOND_SERVER_TIMEOUT_MS = 30_000;
/** After a kill, the PostgreSQL processes from before must be gone within this (else: orphans). */
const ORPHAN_GRACE_MS = 10_000;
/** --kill-postgres: /api/health must answer 200 again, on a new postmaster, within this of the kill. */
const RECOVERY_BOUND_MS = 15_000;
/** --kill-postgres: how long the writers go on after the recovery (at least one write must be acknowledged). */
const AFTER_RECOVERY_MS = 400;
/**
 * The restarts of the embedded database after which the server gives up (src/server/db/client.ts,
 * MAX_RESTARTS within ten minutes), read from the source so that the harness follows it.
 */
const MAX_RESTARTS = (() => {
  try {
    const source = fs.readFileSync(path.join(repoRoot, 'src', 'server', 'db', 'client.ts'), 'utf8');
    return Number(/export const MAX_RESTARTS = (\d+)/.exec(source)?.[1] ?? 5);
  } catch {
    return 5;
  }
})();
const KILL_WINDOW_MS = [50, 800];
const WRITERS = 6;
const CHECK_CONCURRENCY = 8;
const MIN_SHOPS = 12;
const MAX_DELETES_PER_BURST = 3;

// ---------------------------------------------------------------------------------------------------
// Options

const USAGE = `Usage: node scripts/stress/kill9.mjs [--kills N] [--embedded] [--postgres] [--kill-postgres] [--seed N] [--verbose]

  --kills N         kills per database (default 50)
  --embedded        run on the embedded database (the PostgreSQL server the app starts on MALL_DATA_DIR)
  --postgres        run on a throwaway PostgreSQL cluster (DATABASE_URL)
                    (neither: both, embedded first)
  --kill-postgres   kill the embedded database's postmaster, not the server (embedded only)
  --seed N          seed of the workload's choices (default: random, printed)
  --verbose         print every loss in full and the servers' output on failure`;

const options = parseOptions(USAGE, {
  kills: { type: 'string', default: '50' },
  embedded: { type: 'boolean', default: false },
  postgres: { type: 'boolean', default: false },
  'kill-postgres': { type: 'boolean', default: false },
  seed: { type: 'string' },
  verbose: { type: 'boolean', default: false },
});
const kills = numberOption('kills', options.kills, { min: 1, max: 10_000, usage: USAGE });
const seed = seedOption(options.seed);
const killPostgres = options['kill-postgres'];
if (killPostgres && options.postgres) {
  console.error(`--kill-postgres kills the embedded database's postmaster: not with --postgres\n\n${USAGE}`);
  process.exit(2);
}
const databases = killPostgres ? ['embedded'] : databasesOf(options);

// Clean-up of the servers and temp folders at exit, on failure and on Ctrl-C (scripts/stress/lib.mjs).
installCleanup();

// ---------------------------------------------------------------------------------------------------
// The embedded database's lock, and its processes

/**
 * A second server on the same MALL_DATA_DIR must refuse to start: exit ≠ 0 with the launcher's line
 * "Another server (process N) is already using the database in …" (PostgreSQL's postmaster.pid is the
 * lock; the launcher gives a previous server 10 s to go first). The first server must stay healthy, on
 * the same postmaster.
 */
async function checkSecondServerRefused(server, workDir) {
  const cluster = clusterOf(server.env.MALL_DATA_DIR);
  const postmasterBefore = postmasterPid(cluster);
  const port = await freePort();
  const logPath = path.join(workDir, `second-server-${Date.now()}.log`);
  const started = performance.now();
  const child = server.spawnProcess({ ...server.env, PORT: String(port) }, logPath);
  const code = await Promise.race([
    new Promise((resolve) => child.once('exit', (exitCode, signalName) => resolve(exitCode ?? signalName))),
    sleep(SECOND_SERVER_TIMEOUT_MS).then(() => 'timeout'),
  ]);
  const tookMs = performance.now() - started;
  if (code === 'timeout') {
    killGroup(child, 'SIGKILL');
    throw new HarnessError(
      `[${server.label}] a second server on the same MALL_DATA_DIR was still running after ${seconds(SECOND_SERVER_TIMEOUT_MS)}`,
    );
  }
  const output = tail(logPath, 20);
  const line = output.split('\n').find((text) => /is already using the database in/.test(text));
  if (code === 0 || !line) {
    throw new HarnessError(
      `[${server.label}] a second server on the same MALL_DATA_DIR should exit non-zero saying "Another server … is already using the database in …"; it exited with ${code}:\n${output}`,
    );
  }
  if (!server.isRunning())
    throw new HarnessError(`[${server.label}] the first server died during that check`);
  const probe = new Api(server.port);
  const health = await probe.get('/api/health').finally(() => probe.close());
  if (health.status !== 200)
    throw new HarnessError(
      `[${server.label}] after that check the first server answers health ${health.status}`,
    );
  if (postmasterPid(cluster) !== postmasterBefore)
    throw new HarnessError(
      `[${server.label}] after that check the postmaster is ${postmasterPid(cluster)}, not ${postmasterBefore}`,
    );
  return `second server refused after ${seconds(tookMs)} (exit code ${code}: "${line.trim().slice(0, 90)}…")`;
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
      const op = this.#make(this.random.weighted(WEIGHTS, 'createProduct'));
      if (op) return op;
    }
    return this.#make('createCategory');
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

/**
 * Sends a record's write: the record gets its status and body (an acknowledged one is told to the
 * planner), or the error (with the status when the body was cut off). Resolves whether a whole answer
 * came.
 */
async function sendRecord(api, planner, record) {
  const { op } = record;
  try {
    const { status, body } = await api.send(op.method, op.path, op.body);
    record.status = status;
    record.body = body;
    if (is2xx(status)) planner.acknowledged(record);
    return true;
  } catch (error) {
    record.error = error.message;
    if (error.status !== undefined) record.status = error.status;
    return false;
  }
}

/**
 * Runs WRITERS concurrent writers until `killAt` ms, then `kill()`s the server. Each record is
 * { op, status?, body?, error? }: acknowledged when a 2xx status arrived.
 */
async function burst(api, planner, killAt, kill) {
  const records = [];
  let killed = false;
  const writer = async () => {
    while (!killed) {
      const record = { op: planner.next() };
      records.push(record);
      if (!(await sendRecord(api, planner, record))) {
        if (!killed) record.beforeKill = true;
        return;
      }
    }
  };
  const started = performance.now();
  const writers = Array.from({ length: WRITERS }, writer);
  await sleep(Math.max(0, killAt - (performance.now() - started)));
  killed = true;
  await kill();
  await Promise.all(writers);
  return records;
}

// ---------------------------------------------------------------------------------------------------
// Checks after a restart

/** After a restart: signed in as the admin again (ensureAdmin); resolves whether it had to. */
const signInAgain = (api) => ensureAdmin(api, ADMIN, 'signing in as the admin failed after the restart');

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

/**
 * After a burst and the restart: every acknowledged write checked (a write with a problem is lost) and
 * applied to the model, every write in doubt resolved (a shop delete whole or not at all), then the
 * whole directory against the model. Pushes what is wrong to `lost`, counts into `stats` (checked,
 * acknowledged, inDoubt, applied, notApplied); resolves { lostWrites, lostWriteLines, applied, modelSize }.
 */
async function checkAfterBurst(api, model, { acknowledged, inDoubt }, lost, stats) {
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
  let notApplied = 0;
  for (const record of inDoubt) {
    forgetInDoubt(model, record);
    const outcome = await resolveInDoubt(api, model, record, lost);
    if (outcome === 'applied') applied += 1;
    if (outcome === 'not applied') notApplied += 1;
  }
  const modelSize = await checkWholeDirectory(api, model, lost);
  stats.checked += acknowledged.length;
  stats.acknowledged += acknowledged.length;
  stats.inDoubt += inDoubt.length;
  stats.applied += applied;
  stats.notApplied += notApplied;
  return { lostWrites, lostWriteLines, applied, modelSize };
}

/** A kill's problems on stderr: the first 20 (all with --verbose). */
function printLost(lost) {
  const shown = options.verbose ? lost : lost.slice(0, 20);
  for (const line of shown) console.error(`    ${line}`);
  if (shown.length < lost.length) console.error(`    … and ${lost.length - shown.length} more (--verbose)`);
}

/** A run's folders and the server's environment (the embedded database, demo mall on, the invite code). */
async function prepare(workPrefix, copyPrefix) {
  const workspace = serverWorkspace(workPrefix, copyPrefix);
  const env = await serverEnv({
    TMPDIR: workspace.serverTmp,
    MALL_DATA_DIR: path.join(workspace.workDir, 'data'),
    MALL_DEMO_DATA: 'on',
    MALL_ADMIN_INVITE_CODE: INVITE_CODE,
  });
  return { workspace, env };
}

/** The first start: healthy, the admin registered; resolves { ms, api, model } (the mall as it is). */
async function firstStart(server) {
  const ms = await server.start(FIRST_START_TIMEOUT_MS);
  const api = new Api(server.port);
  try {
    await registerAccount(api, ADMIN_ACCOUNT);
    return { ms, api, model: await loadModel(api) };
  } catch (error) {
    api.close();
    throw error;
  }
}

/** SIGTERM, with a warning when the server did not exit 0 by itself. */
async function stopWarning(server, label) {
  const code = await server.stop();
  if (code !== 0)
    console.warn(`[${label}] warning: the server's SIGTERM stop ended with ${code ?? 'a SIGKILL'}`);
}

// ---------------------------------------------------------------------------------------------------
// One database

async function runDatabase(kind, random) {
  const label = kind;
  const started = performance.now();
  const { workspace, env } = await prepare(`super-mall-kill9-${kind}-`, `kill9-${kind}-`);
  const { workDir, logPath } = workspace;

  let cluster;
  /** The embedded PostgreSQL's cluster, whose processes are watched (none on an external PostgreSQL). */
  const embeddedCluster = kind === 'embedded' ? clusterOf(env.MALL_DATA_DIR) : undefined;
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
    orphans: 0,
    strays: 0,
    /** How long the PostgreSQL processes from before each kill took to go: [alone, whole group]. */
    goneMs: { alone: [], group: [] },
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
    server = new Server({ label, mainJs: workspace.mainJs, env, logPath });
    const first = await firstStart(server);
    api = first.api;
    const model = first.model;
    const notes = [];
    if (embeddedCluster) {
      const own = checkOwnPostgres(embeddedCluster, server);
      if (own.length > 0) throw new HarnessError(`[${label}] after the first start: ${own.join('; ')}`);
      notes.push(
        `${postgresProcesses(embeddedCluster).length} PostgreSQL processes, postmaster ${postmasterPid(embeddedCluster)}`,
      );
      notes.push(await checkSecondServerRefused(server, workDir));
    }
    console.log(
      `[${label}] server ready in ${seconds(first.ms)} on port ${server.port}: ${model.shops.size} shops, ` +
        `${model.products.size} products, ${model.offers.size} offers${notes.length ? `; ${notes.join('; ')}` : ''}`,
    );

    for (let run = 1; run <= kills; run++) {
      const planner = new BurstPlanner(model, random, `r${run}`);
      const killAt = random.int(KILL_WINDOW_MS[0], KILL_WINDOW_MS[1]);
      // Embedded: odd kills the server process alone, even ones its whole process group.
      const alone = kind === 'embedded' && run % 2 === 1;
      let before = [];
      const records = await burst(api, planner, killAt, async () => {
        before = snapshotPostgres(embeddedCluster);
        await server.kill({ alone });
      });
      stats.kills += 1;

      // Restarted at once, as a supervisor would, while the PostgreSQL from before goes (or not).
      const { restartMs, gone } = await restartAfterKill(server, {
        cluster: embeddedCluster,
        before,
        timeoutMs: RESTART_TIMEOUT_MS,
        graceMs: ORPHAN_GRACE_MS,
      });
      stats.restarts.push(restartMs);
      const processProblems = [];
      if (gone) {
        stats.goneMs[alone ? 'alone' : 'group'].push(gone.ms);
        for (const proc of gone.left)
          processProblems.push(
            `orphan: PostgreSQL process ${proc.pid} from before the kill still alive ${seconds(ORPHAN_GRACE_MS)} after it (killed now): ${proc.args.slice(0, 120)}`,
          );
        stats.orphans += gone.left.length;
        const own = checkOwnPostgres(embeddedCluster, server);
        stats.strays += own.filter((line) => line.startsWith('stray')).length;
        processProblems.push(...own);
      }
      api.reconnect(server.port);
      const signedInAgain = await signInAgain(api);
      const checkStart = performance.now();

      const acknowledged = records.filter((record) => is2xx(record.status));
      const rejected = records.filter((record) => record.status !== undefined && !is2xx(record.status));
      const inDoubt = records.filter((record) => record.status === undefined);
      const lost = [...processProblems];
      for (const record of rejected) {
        lost.push(
          `unexpected HTTP ${record.status} for ${record.op.method} ${record.op.path}: ${JSON.stringify(record.body ?? record.error).slice(0, 300)}`,
        );
      }
      for (const record of inDoubt.filter((r) => r.beforeKill))
        lost.push(`${record.op.method} ${record.op.path} failed before the kill: ${record.error}`);

      const { lostWrites, lostWriteLines, applied, modelSize } = await checkAfterBurst(
        api,
        model,
        { acknowledged, inDoubt },
        lost,
        stats,
      );
      const checkMs = performance.now() - checkStart;

      const counts = {};
      for (const record of acknowledged) {
        const verb = record.op.kind.match(/^(create|rename|delete)/)[1];
        counts[verb] = (counts[verb] ?? 0) + 1;
      }
      const mix = ['create', 'rename', 'delete'].map((verb) => `${counts[verb] ?? 0} ${verb}`).join('/');
      console.log(
        `[${label}] kill ${String(run).padStart(String(kills).length)}/${kills} at ${String(killAt).padStart(3)} ms` +
          `${embeddedCluster ? ` (${alone ? 'server alone' : 'whole group'})` : ''}: ` +
          `${records.length} sent, ${acknowledged.length} acked (${mix}), ${inDoubt.length} cut off` +
          `${applied ? ` (${applied} shop delete${applied > 1 ? 's' : ''} had happened)` : ''}; ` +
          (gone
            ? `its ${before.length} PostgreSQL processes gone in ${seconds(gone.ms)}${gone.left.length ? ` (${gone.left.length} ORPHANS)` : ''}; `
            : '') +
          `restart ${seconds(restartMs)}${signedInAgain ? ' (signed in again)' : ''}; ` +
          `checked in ${seconds(checkMs)} (and all ${modelSize} known things); ` +
          `${lost.length === 0 ? 'ok' : `${lostWrites} LOST, ${lost.length - lostWriteLines} other problems`}`,
      );
      if (lost.length > 0) {
        stats.lost += lostWrites;
        stats.problems += lost.length - lostWriteLines;
        printLost(lost);
        if (options.verbose) console.error(`--- server output ---\n${tail(logPath, 80)}`);
        break;
      }
    }

    if (stats.lost + stats.problems === 0 && kind === 'embedded') {
      const note = await checkSecondServerRefused(server, workDir);
      console.log(`[${label}] after the kills: ${note}`);
    }
    await stopWarning(server, label);
    if (embeddedCluster) {
      // A clean stop stops its PostgreSQL before the server exits.
      const left = postgresProcesses(embeddedCluster);
      if (left.length > 0) {
        stats.problems += 1;
        stats.orphans += left.length;
        console.error(
          `[${label}] after the server's SIGTERM stop ${left.length} PostgreSQL processes are still alive: ${left.map((proc) => proc.pid).join(', ')}`,
        );
      }
    }
  } finally {
    api?.close();
    if (server?.isRunning()) await server.kill();
    killPostgresProcesses(embeddedCluster);
    await cluster?.stop();
    workspace.remove();
  }
  const p50 = percentile(stats.restarts, 50);
  const max = Math.max(...stats.restarts);
  const goneSummary = (list) =>
    list.length === 0 ? '—' : `p50 ${seconds(percentile(list, 50))}, max ${seconds(Math.max(...list))}`;
  console.log(
    `kill9 [${label}]: ${stats.kills} kills, ${stats.checked} acknowledged writes checked, ${stats.lost} lost` +
      `${stats.problems ? `, ${stats.problems} other problems` : ''}; ` +
      `${stats.inDoubt} writes cut off, ${stats.applied + stats.notApplied} of them shop deletes ` +
      `(${stats.applied} had happened, ${stats.notApplied} had not; each whole); ` +
      `restart p50 ${seconds(p50)}, max ${seconds(max)}; ` +
      (embeddedCluster
        ? `${stats.orphans} orphan and ${stats.strays} stray PostgreSQL processes; its PostgreSQL gone after a kill of the ` +
          `server alone ${goneSummary(stats.goneMs.alone)}, of the whole group ${goneSummary(stats.goneMs.group)}; `
        : '') +
      `${seconds(performance.now() - started)} in all`,
  );
  return stats;
}

// ---------------------------------------------------------------------------------------------------
// --kill-postgres: the embedded database's postmaster killed under the running server

/** A live postmaster that is `server`'s child and /api/health 200, within `boundMs`; resolves its pid. */
async function healthyPostmaster(
  server,
  cluster,
  probe,
  { not, boundMs = RECOVERY_BOUND_MS, statuses } = {},
) {
  const started = performance.now();
  while (performance.now() - started < boundMs) {
    if (!server.isRunning()) return undefined;
    let status;
    try {
      status = (await probe.send('GET', '/api/health', undefined, 5_000)).status;
    } catch {
      status = 'no answer';
    }
    if (statuses) statuses[status] = (statuses[status] ?? 0) + 1;
    const postmaster = postmasterPid(cluster);
    if (status === 200 && postmaster && postmaster !== not && parentPid(postmaster) === server.pid)
      return postmaster;
    await sleep(25);
  }
  return undefined;
}

/**
 * WRITERS concurrent writers; at `killAt` ms the postmaster is SIGKILLed; the writers go on through the
 * outage until the server answers health 200 on a new postmaster and a write sent after that is
 * acknowledged (at most RECOVERY_BOUND_MS + 5 s). Each record is { op, status?, body?, error?,
 * afterRecovery? }. Resolves the records and what was seen.
 */
async function outageBurst(api, server, cluster, planner, killAt) {
  const records = [];
  let stopping = false;
  let recoveredAt = Number.POSITIVE_INFINITY;
  const writer = async () => {
    while (!stopping) {
      const record = { op: planner.next() };
      const sentAt = performance.now();
      records.push(record);
      await sendRecord(api, planner, record);
      if (sentAt >= recoveredAt) record.afterRecovery = true;
      // No busy loop while the database is away.
      if (!is2xx(record.status)) await sleep(20);
    }
  };
  const started = performance.now();
  const writers = Array.from({ length: WRITERS }, writer);
  await sleep(Math.max(0, killAt - (performance.now() - started)));
  const before = snapshotPostgres(cluster);
  const oldPostmaster = postmasterPid(cluster);
  const killedAt = performance.now();
  if (!oldPostmaster || !signal(oldPostmaster, 'SIGKILL')) {
    stopping = true;
    await Promise.all(writers);
    throw new HarnessError(`no postmaster to kill (postmaster.pid: ${oldPostmaster})`);
  }
  const health = {};
  const probe = new Api(server.port, { maxSockets: 1 });
  const newPostmaster = await healthyPostmaster(server, cluster, probe, {
    not: oldPostmaster,
    statuses: health,
  });
  probe.close();
  const recoveryMs = newPostmaster ? performance.now() - killedAt : undefined;
  recoveredAt = performance.now();
  if (newPostmaster) {
    await sleep(AFTER_RECOVERY_MS);
    const deadline = performance.now() + 5_000;
    while (
      !records.some((record) => record.afterRecovery && is2xx(record.status)) &&
      performance.now() < deadline
    )
      await sleep(50);
  }
  stopping = true;
  await Promise.all(writers);
  const gone = await waitGone(cluster, before, () => server.pid, ORPHAN_GRACE_MS);
  return { records, before, gone, oldPostmaster, newPostmaster, recoveryMs, health };
}

/** The first line of a 5xx answer's body, for the report. */
const bodyLine = (record) =>
  `${record.op.method} ${record.op.path} → HTTP ${record.status}: ${JSON.stringify(record.body ?? record.error).slice(0, 300)}`;

/**
 * The causes the server logged for its 500s ("request failed" lines, level error) in its log from byte
 * `from` on: "Type: message (code)" each.
 */
function loggedCauses(logPath, from) {
  let text = '';
  try {
    text = fs.readFileSync(logPath, 'utf8').slice(from);
  } catch {
    return [];
  }
  const causes = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{') || !line.includes('"request failed"')) continue;
    try {
      const { err } = JSON.parse(line);
      const message = String(err?.message ?? '?');
      // Drizzle's "Failed query: <sql>\nparams: <values>: <cause>" (pino joins the causes with ": "):
      // the statement's first words and the cause are what tell.
      const failed = /^Failed query: (\S+(?: \S+){0,3})/.exec(message);
      const cause = failed ? message.slice(message.lastIndexOf(': ') + 2) : message;
      causes.push(
        `${err?.type ?? 'Error'}${failed ? ` (${failed[1]} …)` : ''}: ${cause.slice(0, 200)}${err?.code ? ` (code ${err.code})` : ''}`,
      );
    } catch {
      // Not one of pino's lines.
    }
  }
  return causes;
}

/**
 * The server's give-up (client.ts: more than MAX_RESTARTS restarts within ten minutes): the postmaster
 * killed until then; the server must stop on its own with one line "Super Mall stops: …", a non-zero
 * exit code, and no PostgreSQL process of the data folder left. Resolves a note; throws on failure.
 */
async function checkGiveUp(server, cluster, killsThisLife) {
  const probe = new Api(server.port, { maxSockets: 1 });
  const logStart = fs.statSync(server.logPath).size;
  const child = server.child;
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signalName) => resolve(code ?? signalName)),
  );
  let postmaster = postmasterPid(cluster);
  const needed = MAX_RESTARTS + 1 - killsThisLife;
  try {
    for (let kill = 1; kill <= needed; kill++) {
      signal(postmaster, 'SIGKILL');
      if (kill === needed) break;
      const statuses = {};
      const next = await healthyPostmaster(server, cluster, probe, { not: postmaster, statuses });
      if (!next)
        throw new HarnessError(
          `give-up check: ${server.isRunning() ? `no recovery within ${seconds(RECOVERY_BOUND_MS)}` : 'the server exited'} after ` +
            `kill ${killsThisLife + kill} of this server's life (health answers ${JSON.stringify(statuses)}; postmaster.pid: ` +
            `${postmasterPid(cluster)}). The server's output:\n${tail(server.logPath, 30)}`,
        );
      postmaster = next;
      // Not at the very moment it is back: the server registers for the next stop once its start returns.
      await sleep(1_000);
    }
  } finally {
    probe.close();
  }
  const code = await Promise.race([exited, sleep(30_000).then(() => 'timeout')]);
  if (code === 'timeout')
    throw new HarnessError(
      `give-up check: the server still runs 30 s after its database's ${MAX_RESTARTS + 1}th unexpected stop`,
    );
  const output = fs.readFileSync(server.logPath, 'utf8').slice(logStart);
  const line = output.split('\n').find((text) => text.startsWith('Super Mall stops:'));
  if (code === 0 || !line)
    throw new HarnessError(
      `give-up check: the server should stop non-zero with "Super Mall stops: …"; it exited with ${code}:\n${output.split('\n').slice(-15).join('\n')}`,
    );
  await sleep(500);
  const left = killPostgresProcesses(cluster);
  if (left.length > 0)
    throw new HarnessError(
      `give-up check: ${left.length} PostgreSQL processes left after the server stopped: ${left.map((proc) => proc.pid).join(', ')}`,
    );
  return `after ${needed} more kills the server gave up (exit code ${code}: "${line.slice(0, 140)}"), no PostgreSQL process left`;
}

async function runKillPostgres(random) {
  const label = 'embedded, postgres killed';
  const started = performance.now();
  const { workspace, env } = await prepare('super-mall-kill-postgres-', 'kill-postgres-');
  const { logPath } = workspace;
  const cluster = clusterOf(env.MALL_DATA_DIR);
  const stats = {
    kills: 0,
    checked: 0,
    lost: 0,
    problems: 0,
    acknowledged: 0,
    afterRecovery: 0,
    unavailable: 0,
    serverErrors: 0,
    unanswered: 0,
    otherStatuses: 0,
    inDoubt: 0,
    applied: 0,
    notApplied: 0,
    recoveries: [],
    goneMs: [],
    orphans: 0,
    strays: 0,
    serverRestarts: 0,
    /** Each distinct 5xx body other than 503 (with a count), for the report. */
    errorBodies: new Map(),
    /** The causes the server logged for them ("request failed"), with a count. */
    errorCauses: new Map(),
    giveUp: undefined,
  };
  let server;
  let api;
  try {
    server = new Server({ label, mainJs: workspace.mainJs, env, logPath });
    const first = await firstStart(server);
    api = first.api;
    const model = first.model;
    console.log(
      `[${label}] server ready in ${seconds(first.ms)} on port ${server.port}: ${model.shops.size} shops, ` +
        `${model.products.size} products, ${model.offers.size} offers; postmaster ${postmasterPid(cluster)}; ` +
        `the server gives up after ${MAX_RESTARTS} restarts of it within ten minutes, so it is restarted every ${MAX_RESTARTS} kills`,
    );

    let killsThisLife = 0;
    for (let run = 1; run <= kills; run++) {
      if (killsThisLife === MAX_RESTARTS) {
        const code = await server.stop();
        const left = postgresProcesses(cluster);
        if (code !== 0 || left.length > 0) {
          stats.problems += 1;
          console.error(
            `[${label}] the server's SIGTERM stop ended with ${code ?? 'a SIGKILL'}, ${left.length} PostgreSQL processes left`,
          );
        }
        await server.start(RESTART_TIMEOUT_MS);
        api.reconnect(server.port);
        await signInAgain(api);
        stats.serverRestarts += 1;
        killsThisLife = 0;
      }
      const planner = new BurstPlanner(model, random, `p${run}`);
      const killAt = random.int(KILL_WINDOW_MS[0], KILL_WINDOW_MS[1]);
      const logFrom = fs.statSync(logPath).size;
      const outcome = await outageBurst(api, server, cluster, planner, killAt);
      for (const cause of loggedCauses(logPath, logFrom))
        stats.errorCauses.set(cause, (stats.errorCauses.get(cause) ?? 0) + 1);
      const { records, gone } = outcome;
      stats.kills += 1;
      killsThisLife += 1;
      const lost = [];
      if (!server.isRunning())
        throw new HarnessError(
          `[${label}] the server process ended after the postmaster's kill (${server.child.exitCode !== null ? `exit code ${server.child.exitCode}` : `signal ${server.child.signalCode}`}) — it must restart its database and go on. Its output:\n${tail(logPath, 60)}`,
        );
      if (outcome.recoveryMs === undefined)
        lost.push(
          `no recovery: /api/health did not answer 200 on a new postmaster within ${seconds(RECOVERY_BOUND_MS)} (health answers: ${JSON.stringify(outcome.health)})`,
        );
      else stats.recoveries.push(outcome.recoveryMs);
      stats.goneMs.push(gone.ms);
      for (const proc of gone.left)
        lost.push(
          `orphan: process ${proc.pid} of the killed postmaster still alive ${seconds(ORPHAN_GRACE_MS)} after the kill (killed now): ${proc.args.slice(0, 120)}`,
        );
      stats.orphans += gone.left.length;
      const own = checkOwnPostgres(cluster, server);
      stats.strays += own.filter((line) => line.startsWith('stray')).length;
      lost.push(...own);

      const acknowledged = records.filter((record) => is2xx(record.status));
      const unavailable = records.filter((record) => record.status === 503);
      const serverErrors = records.filter(
        (record) => record.status !== undefined && record.status >= 500 && record.status !== 503,
      );
      const unanswered = records.filter((record) => record.status === undefined);
      const other = records.filter(
        (record) => record.status !== undefined && !is2xx(record.status) && record.status < 500,
      );
      const afterRecovery = acknowledged.filter((record) => record.afterRecovery).length;
      if (outcome.recoveryMs !== undefined && afterRecovery === 0)
        lost.push('no write was acknowledged after the recovery');
      for (const record of serverErrors) {
        const key = `HTTP ${record.status} ${JSON.stringify(record.body ?? record.error).slice(0, 300)}`;
        stats.errorBodies.set(key, (stats.errorBodies.get(key) ?? 0) + 1);
      }
      // 500s are reported as problems with their bodies (a few per kill); unanswered and other statuses too.
      for (const record of serverErrors.slice(0, 3)) lost.push(`500-class answer: ${bodyLine(record)}`);
      if (serverErrors.length > 3) lost.push(`… and ${serverErrors.length - 3} more 500-class answers`);
      for (const record of unanswered.slice(0, 3))
        lost.push(`no answer: ${record.op.method} ${record.op.path}: ${record.error}`);
      for (const record of other.slice(0, 3)) lost.push(`unexpected answer: ${bodyLine(record)}`);

      api.reconnect(server.port);
      const signedInAgain = await signInAgain(api);
      const checkStart = performance.now();
      // Everything not acknowledged may or may not have happened (a 503 can come after the commit).
      const inDoubt = records.filter((record) => !is2xx(record.status));
      const { lostWrites, lostWriteLines, modelSize } = await checkAfterBurst(
        api,
        model,
        { acknowledged, inDoubt },
        lost,
        stats,
      );
      const checkMs = performance.now() - checkStart;

      stats.afterRecovery += afterRecovery;
      stats.unavailable += unavailable.length;
      stats.serverErrors += serverErrors.length;
      stats.unanswered += unanswered.length;
      stats.otherStatuses += other.length;
      const healthSeen = Object.entries(outcome.health)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ');
      const problemLines = lost.length - lostWriteLines;
      console.log(
        `[${label}] kill ${String(run).padStart(String(kills).length)}/${kills} at ${String(killAt).padStart(3)} ms ` +
          `(postmaster ${outcome.oldPostmaster} → ${outcome.newPostmaster ?? 'none'}): ` +
          `${records.length} sent, ${acknowledged.length} acked (${afterRecovery} after the recovery), ` +
          `${unavailable.length} answered 503, ${serverErrors.length} 500-class, ${other.length} other, ` +
          `${unanswered.length} unanswered; health ${healthSeen}; ` +
          `${outcome.recoveryMs === undefined ? 'NOT RECOVERED' : `recovered in ${seconds(outcome.recoveryMs)}`}; ` +
          `its ${outcome.before.length} processes gone in ${seconds(gone.ms)}${gone.left.length ? ` (${gone.left.length} ORPHANS)` : ''}; ` +
          `checked in ${seconds(checkMs)}${signedInAgain ? ' (signed in again)' : ''} (and all ${modelSize} known things); ` +
          `${lost.length === 0 ? 'ok' : `${lostWrites} LOST, ${problemLines} other problems`}`,
      );
      if (lost.length > 0) {
        stats.lost += lostWrites;
        stats.problems += problemLines;
        printLost(lost);
        // A lost write or a failed recovery ends the run; 500s and the like are counted and the run goes on.
        if (lostWrites > 0 || outcome.recoveryMs === undefined) {
          if (options.verbose) console.error(`--- server output ---\n${tail(logPath, 80)}`);
          break;
        }
      }
    }

    if (stats.lost === 0 && server.isRunning()) {
      stats.giveUp = await checkGiveUp(server, cluster, killsThisLife);
      console.log(`[${label}] ${stats.giveUp}`);
      await server.start(RESTART_TIMEOUT_MS);
      api.reconnect(server.port);
      await signInAgain(api);
      const lost = [];
      const modelSize = await checkWholeDirectory(api, model, lost);
      for (const line of checkOwnPostgres(cluster, server)) lost.push(line);
      console.log(
        `[${label}] started again after the give-up: all ${modelSize} known things checked; ${lost.length === 0 ? 'ok' : `${lost.length} PROBLEMS`}`,
      );
      for (const line of lost) console.error(`    ${line}`);
      stats.problems += lost.length;
    }
    await stopWarning(server, label);
  } finally {
    api?.close();
    if (server?.isRunning()) await server.kill();
    killPostgresProcesses(cluster);
    workspace.remove();
  }
  const spread = (list) =>
    list.length === 0 ? '—' : `p50 ${seconds(percentile(list, 50))}, max ${seconds(Math.max(...list))}`;
  console.log(
    `kill9 [${label}]: ${stats.kills} postmaster kills, ${stats.checked} acknowledged writes checked ` +
      `(${stats.afterRecovery} of them sent after a recovery), ${stats.lost} lost` +
      `${stats.problems ? `, ${stats.problems} other problems` : ''}; meanwhile ${stats.unavailable} writes answered 503, ` +
      `${stats.serverErrors} a 500-class error, ${stats.otherStatuses} another status, ${stats.unanswered} unanswered; ` +
      `${stats.inDoubt} in doubt, ${stats.applied + stats.notApplied} of them shop deletes (${stats.applied} had happened, ` +
      `${stats.notApplied} had not; each whole); recovery (kill → health 200 on a new postmaster) ${spread(stats.recoveries)}; ` +
      `the killed postmaster's processes gone ${spread(stats.goneMs)}; ${stats.orphans} orphan and ${stats.strays} stray ` +
      `PostgreSQL processes; the server restarted ${stats.serverRestarts} times (SIGTERM) to stay under its give-up; ` +
      `${seconds(performance.now() - started)} in all`,
  );
  if (stats.errorBodies.size > 0) {
    console.log(`kill9 [${label}]: the 500-class answers' bodies:`);
    for (const [body, count] of stats.errorBodies) console.log(`    ${count}× ${body}`);
    console.log(`kill9 [${label}]: what the server logged for them ("request failed"):`);
    for (const [cause, count] of stats.errorCauses) console.log(`    ${count}× ${cause}`);
  }
  return stats;
}

// ---------------------------------------------------------------------------------------------------

requireBuiltServer();

/** A hard ceiling per database, whatever hangs: a minute to start plus 20 s a kill (--kill-postgres: 40 s). */
const watchdog = startWatchdog(
  'kill9',
  databases.length * (90_000 + kills * (killPostgres ? 40_000 : 20_000)) + (killPostgres ? 120_000 : 0),
);

console.log(
  killPostgres
    ? `kill9: ${kills} kill${kills > 1 ? 's' : ''} of the embedded database's postmaster under the running server, seed ${seed}, Node ${process.version}`
    : `kill9: ${kills} kill${kills > 1 ? 's' : ''} per database on ${databases.join(' and ')}, seed ${seed}, Node ${process.version}`,
);
const random = makeRandom(seed);
let totalKills = 0;
let totalChecked = 0;
let totalLost = 0;
let totalProblems = 0;
let exitCode = 0;
for (const kind of databases) {
  try {
    const stats = killPostgres ? await runKillPostgres(random) : await runDatabase(kind, random);
    totalKills += stats.kills;
    totalChecked += stats.checked;
    totalLost += stats.lost;
    totalProblems += stats.problems;
    if (stats.lost + stats.problems > 0) exitCode = 1;
  } catch (error) {
    if (isInterrupted()) break;
    printFailure(`kill9 [${kind}] FAILED: `, error);
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
