#!/usr/bin/env node
// Bench: a bulk import of N products for a fresh set of shops (issue 17, docs/decisions/022).
//
//   npm run build && node scripts/bench/import.mjs [--rows 200000] [--shops 2000] [--embedded] [--postgres]
//     [--mall large|demo]
//
// Starts dist/server/main.js (bench routes on) on a fresh database (embedded: the PostgreSQL server the
// app starts on a temp MALL_DATA_DIR; or a throwaway PostgreSQL cluster) holding the large mall (`npm run seed:large`'s script: 2,000 shops, 200,000 products, loaded
// before the server starts; `--mall demo`: the demo mall instead, faster), imports --shops new shops, then --rows products spread over them (preview, then
// the confirmed all-or-nothing run), while 4 shoppers read the shop list and a product page the whole
// time. Prints per database: preview and write times, the server's RSS growth (VmRSS before vs peak, the
// import check's child process counted with the server),
// the shoppers' p50/p99 and errors during the import, and the event loop's max delay (the bench route).
// Targets (issue 17): 200,000 products under 60 s, on PostgreSQL and embedded (3 min embedded while it
// was PGlite); RSS growth < 200 MB; shoppers' p99 < 100 ms; event loop never blocked > 20 ms. The RSS is
// the server's and its import check's, not PostgreSQL's (the embedded one's neither).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startThrowawayCluster } from '../pg-cluster.mjs';
import {
  Api,
  commandLine,
  descendantsOf,
  distServer,
  installCleanup,
  makeTempDir,
  removeTempDir,
  repoRoot,
  Server,
  sleep,
} from '../stress/lib.mjs';

const { values: options } = parseArgs({
  options: {
    rows: { type: 'string', default: '200000' },
    shops: { type: 'string', default: '2000' },
    embedded: { type: 'boolean', default: false },
    postgres: { type: 'boolean', default: false },
    mall: { type: 'string', default: 'large' },
  },
});
const ROWS = Number(options.rows);
if (options.mall !== 'large' && options.mall !== 'demo') throw new Error('--mall large or --mall demo');
const LARGE = options.mall === 'large';
const SHOPS = Number(options.shops);
const databases = [];
if (options.embedded || !options.postgres) databases.push('embedded');
if (options.postgres || !options.embedded) databases.push('postgres');
installCleanup();
const INVITE = 'bench-import-invite-code';
const ADMIN = { email: 'bench.import@example.com', password: 'bench-password' };

/** A process's own VmRSS in MB (0 once it is gone). */
const ownRssMb = (pid) => {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
};
/**
 * CPU time the machine's hypervisor gave to others while our virtual CPUs wanted it (/proc/stat's steal,
 * in USER_HZ = 1/100 s): a stall that is neither running nor waiting for a core can be the host's.
 */
const stealS = () => {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    return Number(fields[8] ?? 0) / 100;
  } catch {
    return Number.NaN;
  }
};
/**
 * The server's memory: its own RSS and its children's (the import check runs in one, decision 022) —
 * not the embedded PostgreSQL's processes under it (their RSS counts the memory they share once per
 * process; an external PostgreSQL is not counted either).
 */
const rssMb = (pid) =>
  [pid, ...descendantsOf(pid)]
    .filter((each) => each === pid || !isPostgres(commandLine(each) ?? ''))
    .reduce((sum, each) => sum + ownRssMb(each), 0);
const isPostgres = (args) => args.startsWith('postgres:') || path.basename(args.split(' ')[0]) === 'postgres';
const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function upload(api, kind, name, text) {
  const response = await fetch(`http://127.0.0.1:${api.port}/api/imports?kind=${kind}&fileName=${name}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', cookie: api.cookie },
    body: text,
  });
  const body = await response.json();
  if (response.status !== 202)
    throw new Error(`upload ${name}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.id;
}

/** The run once settled; a poll with no answer in 10 s is counted (the server is busy) and repeated. */
let pollTimeouts = 0;
async function settle(api, id) {
  for (;;) {
    const answer = await api.get(`/api/imports/${id}`).catch(() => null);
    if (!answer) pollTimeouts++;
    else if (answer.body.status !== 'checking' && answer.body.status !== 'running') return answer.body;
    await sleep(200);
  }
}

async function run(kind) {
  const workDir = makeTempDir(os.tmpdir(), `super-mall-bench-import-${kind}-`);
  const serverCopy = makeTempDir(path.join(repoRoot, '.tmp'), `bench-import-${kind}-`);
  fs.cpSync(distServer, path.join(serverCopy, 'server'), { recursive: true });
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    MALL_DATA_DIR: path.join(workDir, 'data'),
    MALL_DEMO_DATA: LARGE ? 'off' : 'on',
    MALL_ADMIN_INVITE_CODE: INVITE,
    MALL_RATE_LIMIT: 'off',
    MALL_BENCH_ROUTES: 'on',
    // The bench watches the loop itself; the overload guard would answer 503s instead.
    MALL_MAX_EVENT_LOOP_DELAY_MS: '0',
    LOG_LEVEL: 'warn',
    // as `npm start` runs the server (README, "Running at scale"): glibc's default arenas would count
    // in its memory what the shipped server does not hold.
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || '2',
  };
  delete env.DATABASE_URL;
  let cluster;
  const server = new Server({
    label: kind,
    mainJs: path.join(serverCopy, 'server', 'main.js'),
    env,
    logPath: path.join(workDir, 'server.log'),
  });
  const api = new Api(Number(env.PORT));
  try {
    if (kind === 'postgres') {
      cluster = await startThrowawayCluster();
      env.DATABASE_URL = cluster.url;
    }
    if (LARGE) {
      // The large mall, loaded the way `npm run seed:large` loads it, before the server opens the database.
      const started = performance.now();
      const seeded = spawnSync(
        process.execPath,
        ['--import', 'tsx', path.join(repoRoot, 'scripts', 'seed-large.ts')],
        {
          cwd: repoRoot,
          env,
          encoding: 'utf8',
          maxBuffer: 16 * 1024 * 1024,
        },
      );
      if (seeded.status !== 0) throw new Error(`seed-large failed: ${seeded.stderr || seeded.stdout}`);
      console.error(`[${kind}] large mall loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    await server.start(90_000);
    api.reconnect(server.port);
    await api.send('POST', '/api/auth/register', { ...ADMIN, role: 'admin', inviteCode: INVITE });
    const shopper = new Api(server.port);
    await shopper.send('POST', '/api/auth/register', {
      email: 'bench.shopper@example.com',
      password: 'secret1',
    });
    const stamp = Date.now().toString(36);
    const shopLines = ['code,name,category,floor'];
    for (let i = 0; i < SHOPS; i++)
      shopLines.push(`B${stamp}-${i},Bench shop ${stamp} ${i},Bench ${i % 20},Ground Floor`);
    const shopsRun = await upload(api, 'shops', 'bench-shops.csv', `${shopLines.join('\n')}\n`);
    await settle(api, shopsRun);
    await api.send('POST', `/api/imports/${shopsRun}/confirm`, { validOnly: false });
    const shopsDone = await settle(api, shopsRun);
    if (shopsDone.status !== 'done') throw new Error(`shops import: ${JSON.stringify(shopsDone.result)}`);

    const lines = ['shop_code,code,name,price,category,description'];
    for (let i = 0; i < ROWS; i++)
      lines.push(
        `B${stamp}-${i % SHOPS},P${i},Bench product ${i},${(i % 900) + 0.99},Cat ${i % 40},A product for the bench`,
      );
    const text = `${lines.join('\n')}\n`;

    // Shoppers read all along: 4 at a time.
    const latencies = [];
    let errors = 0;
    let reading = true;
    const reader = async () => {
      while (reading) {
        const started = performance.now();
        const answer = await shopper.get('/api/shops?page=1&pageSize=20').catch(() => ({ status: 0 }));
        latencies.push(performance.now() - started);
        if (answer.status !== 200) errors++;
        await sleep(20);
      }
    };
    await api.get('/api/bench/event-loop');
    const rssBefore = rssMb(server.pid);
    let peak = rssBefore;
    const sampler = setInterval(() => {
      const now = rssMb(server.pid);
      if (now > peak) peak = now;
    }, 100);
    const stealBefore = stealS();
    const readers = Array.from({ length: 4 }, reader);
    const t0 = performance.now();
    const id = await upload(api, 'products', 'bench-products.csv', text);
    const previewed = await settle(api, id);
    const t1 = performance.now();
    await api.send('POST', `/api/imports/${id}/confirm`, { validOnly: false });
    const done = await settle(api, id);
    const t2 = performance.now();
    reading = false;
    await Promise.all(readers);
    clearInterval(sampler);
    const loop = (await api.get('/api/bench/event-loop')).body;
    const sorted = Float64Array.from(latencies).sort();
    const figures = {
      database: kind,
      mall: options.mall,
      rows: ROWS,
      created: done.result?.counts?.created,
      status: done.status,
      previewS: ((t1 - t0) / 1000).toFixed(1),
      writeS: ((t2 - t1) / 1000).toFixed(1),
      totalS: ((t2 - t0) / 1000).toFixed(1),
      rssGrowthMb: Math.round(peak - rssBefore),
      stolenS: (stealS() - stealBefore).toFixed(1),
      shopperReads: latencies.length,
      shopperP50Ms: pct(sorted, 50).toFixed(1),
      shopperP99Ms: pct(sorted, 99).toFixed(1),
      shopperMaxMs: (sorted[sorted.length - 1] ?? Number.NaN).toFixed(0),
      progressPollTimeouts: pollTimeouts,
      shopperErrors: errors,
      loopMaxMs: loop?.maxMs,
      loopBlockedMaxMs: loop?.blockedMaxMs,
      loopStalls: loop?.stalls?.slice(0, 8),
      // The stalls' atMs count from here, on the server's clock (performance.now(), near --trace-gc's).
      loopBeganAtMs: loop?.beganAtMs,
      loopClockOriginMs: loop?.clockOriginMs,
      previewCounts: previewed.preview?.counts,
    };
    console.log(JSON.stringify(figures));
    await server.stop();
    return figures;
  } finally {
    api.close();
    if (server.isRunning()) await server.kill();
    await cluster?.stop();
    if (process.env.SERVER_NODE_ARGS) {
      // Profiling flags (scripts/stress/lib.mjs): the server's log (--trace-gc's lines) is kept.
      const kept = path.join(os.tmpdir(), `bench-import-${kind}-server.log`);
      fs.copyFileSync(path.join(workDir, 'server.log'), kept);
      console.error(`[${kind}] server log kept in ${kept}`);
    }
    removeTempDir(serverCopy);
    removeTempDir(workDir);
  }
}

console.log(
  `bench:import ${ROWS} products over ${SHOPS} new shops, into the ${options.mall} mall; load ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}, ${os.cpus().length} cores`,
);
for (const kind of databases) {
  try {
    await run(kind);
  } catch (error) {
    console.error(`bench:import [${kind}] failed: ${error instanceof Error ? error.stack : error}`);
    process.exitCode = 1;
  }
}
