#!/usr/bin/env node
// "Write then search" (issue 31): a shop's manager alternates "edit a product of my shop" and a search,
// as fast as the server answers, for --seconds on the large mall; meanwhile a shopper probes
// /api/health and a page of the shop list in turn. Every write makes a new directory version, so every
// search after it is the first of its version: whatever a catalogue change makes the server rebuild is
// rebuilt under the attack. Before the attack the same prober runs alone for the same time: the
// shopper's rounds, p50/p95/p99/max and errors of both are the figures, with the server's longest
// event-loop block (/api/bench/event-loop, MALL_BENCH_ROUTES=on).
//
//   node scripts/stress/write-search.mjs [--seconds 30] [--embedded] [--postgres] [--out FILE]
//
// Needs the built server (npm run build). Each database gets the large mall (scripts/seed-large.ts): the
// embedded PostgreSQL the server starts on a throwaway MALL_DATA_DIR, or a throwaway cluster. Exits 1
// when a shopper's request failed (5xx or no answer) under the attack; the latencies and the loop's
// block are recorded, not asserted (they are benchmarks).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startThrowawayCluster } from '../pg-cluster.mjs';
import {
  Api,
  clusterOf,
  databasesOf,
  distServer,
  HarnessError,
  installCleanup,
  makeTempDir,
  percentile,
  printFailure,
  registerAccount,
  removeTempDir,
  repoRoot,
  requireBuiltServer,
  Server,
  seconds,
  serverEnv,
  spawnLogged,
  untilRun,
  uploadCsv,
  writeRepoFile,
} from './lib.mjs';

const INVITE_CODE = 'write-search-admin-invite-code';
const PASSWORD = 'write-search-password';
/** Searches the manager types after each edit: words of the large mall, a typo, a word it lacks. */
const TERMS = [
  'lamp',
  'wireless earbuds',
  'cotton shirt',
  'bottel',
  'leathr wallet',
  'zanzibar',
  'tea',
  'part zqk3',
];

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    embedded: { type: 'boolean', default: false },
    postgres: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/write-search.md' },
    // embedded only: this MALL_DATA_DIR, seeded when it holds no database yet and kept (to repeat runs
    // without reloading); its parents must let `nobody` through when run as root
    'data-dir': { type: 'string' },
    // products with codes imported first: their codes are words of the mall (a vocabulary of this many)
    codes: { type: 'string', default: '100000' },
  },
});
const durationMs = Number(options.seconds) * 1000;
const databases = databasesOf(options);
installCleanup();

/** Runs scripts/seed-large.ts against `env`'s database; rejects with its output when it fails. */
function seedLargeMall(env, logPath) {
  return new Promise((resolve, reject) => {
    // tracked: killed with the run when it is interrupted
    const child = spawnLogged(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'scripts', 'seed-large.ts')],
      { env, logPath },
    );
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new HarnessError(`seeding the large mall failed (exit ${code}): see ${logPath}`)),
    );
  });
}

/** A signed-in person: registered, with their own cookie. */
async function person(port, email, role, extra = {}) {
  const api = new Api(port, { maxSockets: 4 });
  await registerAccount(api, { email, password: PASSWORD, role, ...extra }, email);
  return api;
}

/** The shopper's prober: health, then a page of the shop list, in turn, until `until`. */
async function probe(api, until) {
  const latencies = [];
  let rounds = 0;
  let errors = 0;
  const statuses = {};
  while (performance.now() < until) {
    const page = 1 + (rounds % 20);
    for (const url of ['/api/health', `/api/shops?page=${page}&pageSize=20`]) {
      const started = performance.now();
      try {
        const { status } = await api.send('GET', url, undefined, 30_000);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status >= 500) errors++;
      } catch {
        errors++;
        statuses.none = (statuses.none ?? 0) + 1;
      }
      latencies.push(performance.now() - started);
    }
    rounds++;
  }
  const sorted = latencies.sort((a, b) => a - b);
  return {
    rounds,
    errors,
    statuses,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** Imports `count` products named by codes ("Part ZQ0K3M9") into one new shop, as the Import page does. */
async function importCodes(admin, count) {
  const category = (await admin.get('/api/categories')).body.items[0];
  const floor = (await admin.get('/api/floors')).body.items[0];
  const shopName = `Parts counter ${Date.now()}`;
  const shop = await admin.send('POST', '/api/shops', {
    name: shopName,
    categoryId: category.id,
    floorId: floor.id,
  });
  if (shop.status !== 201) throw new HarnessError(`creating the parts shop: HTTP ${shop.status}`);
  const lines = ['shop,code,name,price'];
  for (let i = 0; i < count; i++) {
    const code = `zq${((i * 2_654_435_761) % 4_294_967_291).toString(36)}`;
    lines.push(`${shopName},P${i},Part ${code},${(i % 500) + 1}`);
  }
  const run = await uploadCsv(admin, 'products', 'codes.csv', `${lines.join('\n')}\n`);
  await untilRun(admin, run.id, ['previewed'], 600_000);
  const confirmed = await admin.send('POST', `/api/imports/${run.id}/confirm`, { validOnly: false });
  if (confirmed.status !== 202) throw new HarnessError(`confirming the codes: HTTP ${confirmed.status}`);
  const done = await untilRun(admin, run.id, ['done', 'failed'], 600_000);
  if (done.status !== 'done')
    throw new HarnessError(`the codes' import failed: ${JSON.stringify(done.result)}`);
}

async function runDatabase(kind) {
  const workDir = makeTempDir(os.tmpdir(), `super-mall-write-search-${kind}-`);
  const env = await serverEnv({
    MALL_DATA_DIR:
      options['data-dir'] && kind === 'embedded'
        ? path.resolve(options['data-dir'])
        : path.join(workDir, 'data'),
    MALL_DEMO_DATA: 'off',
    MALL_ADMIN_INVITE_CODE: INVITE_CODE,
    MALL_BENCH_ROUTES: 'on',
  });
  let cluster;
  let server;
  const apis = [];
  try {
    if (kind === 'postgres') {
      cluster = await startThrowawayCluster();
      env.DATABASE_URL = cluster.url;
    }
    // An embedded database made earlier (--data-dir): src/server/db/embedded-postgres.ts's isInitialised.
    const seeded =
      kind === 'embedded' && fs.existsSync(path.join(clusterOf(env.MALL_DATA_DIR), 'PG_VERSION'));
    if (!seeded) {
      const seedStarted = performance.now();
      await seedLargeMall(env, path.join(workDir, 'seed.log'));
      console.log(`[${kind}] the large mall loaded in ${seconds(performance.now() - seedStarted)}`);
    }
    server = new Server({
      label: kind,
      mainJs: path.join(distServer, 'main.js'),
      env,
      logPath: path.join(workDir, 'server.log'),
    });
    await server.start(120_000);
    const port = server.port;
    const stamp = Date.now();
    const admin = await person(port, `ws.admin.${stamp}@example.com`, 'admin', { inviteCode: INVITE_CODE });
    const shopper = await person(port, `ws.shopper.${stamp}@example.com`, 'user');
    const manager = await person(port, `ws.manager.${stamp}@example.com`, 'user');
    apis.push(admin, shopper, manager);
    // The manager's shop: one with products; the manager joins through an invite, as a person would.
    const product = (await admin.get('/api/products?pageSize=1')).body.items[0];
    if (!product) throw new HarnessError('the large mall has no products');
    const invite = await admin.send('POST', `/api/shops/${product.shopId}/manager-invites`, {});
    if (invite.status !== 201) throw new HarnessError(`inviting the manager: HTTP ${invite.status}`);
    const accepted = await manager.send('POST', '/api/manager-invites/accept', {
      code: invite.body.invite.code,
    });
    if (accepted.status !== 200) throw new HarnessError(`accepting the invite: HTTP ${accepted.status}`);

    // A catalogue with product codes (an import of SKUs): each code a word of the mall's vocabulary.
    const codes = Number(options.codes);
    const have = (await admin.get('/api/search?q=zq0&kind=products')).body.products?.total ?? 0;
    if (codes > 0 && have === 0) {
      const importStarted = performance.now();
      await importCodes(admin, codes);
      console.log(
        `[${kind}] ${codes} products with codes imported in ${seconds(performance.now() - importStarted)}`,
      );
    }

    // Warm: the first search builds what a search needs; the cache fills.
    await manager.get('/api/search?q=lamp');
    await probe(shopper, performance.now() + 2_000);

    await admin.get('/api/bench/event-loop');
    const alone = await probe(shopper, performance.now() + durationMs);
    const aloneLoop = (await admin.get('/api/bench/event-loop')).body;

    const until = performance.now() + durationMs;
    let writes = 0;
    let searches = 0;
    const attackerErrors = {};
    const attack = (async () => {
      for (let i = 0; performance.now() < until; i++) {
        const price = 100 + (i % 900) + 0.5;
        const edit = await manager.send('PATCH', `/api/products/${product.id}`, { price });
        if (edit.status !== 200)
          attackerErrors[`write ${edit.status}`] = (attackerErrors[`write ${edit.status}`] ?? 0) + 1;
        else writes++;
        const q = encodeURIComponent(TERMS[i % TERMS.length]);
        const found = await manager.send('GET', `/api/search?q=${q}`, undefined, 30_000);
        if (found.status !== 200)
          attackerErrors[`search ${found.status}`] = (attackerErrors[`search ${found.status}`] ?? 0) + 1;
        else searches++;
      }
    })();
    const attacked = await probe(shopper, until);
    await attack;
    const attackedLoop = (await admin.get('/api/bench/event-loop')).body;
    await server.stop();
    const result = { kind, alone, aloneLoop, attacked, attackedLoop, writes, searches, attackerErrors };
    const f = (n) => (Number.isFinite(n) ? n.toFixed(1) : '–');
    for (const [label, r, loop] of [
      ['alone   ', alone, aloneLoop],
      ['attacked', attacked, attackedLoop],
    ]) {
      console.log(
        `[${kind}] shopper ${label}: ${r.rounds} rounds, p50 ${f(r.p50)} / p95 ${f(r.p95)} / p99 ${f(r.p99)} / max ${f(r.max)} ms, ` +
          `${r.errors} errors ${JSON.stringify(r.statuses)}; loop blocked max ${f(loop.blockedMaxMs)} ms (delay max ${f(loop.maxMs)} ms)`,
      );
    }
    const longest = (attackedLoop.stalls ?? []).slice(0, 5);
    if (longest.length > 0)
      console.log(`[${kind}] longest stalls under the attack: ${JSON.stringify(longest)}`);
    console.log(
      `[${kind}] the manager: ${writes} edits and ${searches} searches; refused ${JSON.stringify(attackerErrors)}`,
    );
    return result;
  } finally {
    for (const api of apis) api.close();
    if (server?.isRunning()) await server.kill();
    await cluster?.stop();
    removeTempDir(workDir);
  }
}

requireBuiltServer();
const started = performance.now();
const results = [];
let failures = 0;
for (const kind of databases) {
  try {
    const result = await runDatabase(kind);
    results.push(result);
    if (result.attacked.errors > 0) failures++;
  } catch (error) {
    printFailure(`write-search [${kind}] FAILED: `, error, { stack: false });
    failures++;
  }
}

const f = (n) => (Number.isFinite(n) ? n.toFixed(1) : '–');
const lines = [
  '# Write then search (issue 31): a manager edits and searches in turn, a shopper probes',
  '',
  `Written by \`node scripts/stress/write-search.mjs --seconds ${options.seconds}\` (part of \`npm run test:stress\`) on ${new Date().toISOString()}; ` +
    `Node ${process.version}, ${os.cpus().length} cores. The large mall (2,000 shops, 200,000 products). ` +
    'Each database: the shopper prober (health, then a page of the shop list, in turn) alone, then beside a shop manager who edits a product of their shop and searches, ' +
    'as fast as the server answers (every edit makes a new directory version: every search is the first of its version). ' +
    'Loop blocked: the server’s longest event-loop block less its wait for a core (/api/bench/event-loop). Target: no shopper error; the loop never blocked over 20 ms.',
  '',
  '| database | phase | shopper rounds | p50 ms | p95 ms | p99 ms | max ms | shopper errors | loop blocked max ms | manager edits / searches |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];
for (const r of results) {
  lines.push(
    `| ${r.kind} | prober alone | ${r.alone.rounds} | ${f(r.alone.p50)} | ${f(r.alone.p95)} | ${f(r.alone.p99)} | ${f(r.alone.max)} | ${r.alone.errors} | ${f(r.aloneLoop.blockedMaxMs)} | – |`,
    `| ${r.kind} | **write then search** | ${r.attacked.rounds} | ${f(r.attacked.p50)} | ${f(r.attacked.p95)} | **${f(r.attacked.p99)}** | ${f(r.attacked.max)} | ${r.attacked.errors} | ${f(r.attackedLoop.blockedMaxMs)} | ${r.writes} / ${r.searches} |`,
  );
}
if (options.out && results.length > 0) {
  writeRepoFile(options.out, `${lines.join('\n')}\n`);
  console.log(`write-search: wrote ${options.out}`);
}
console.log(
  `write-search: ${failures === 0 ? 'no shopper request failed' : `${failures} database(s) with failed shopper requests`} (${seconds(performance.now() - started)})`,
);
process.exit(failures === 0 ? 0 : 1);
