// Helpers shared by the stress harnesses (kill9.mjs, soak.mjs…) and the benches: clean-up of server
// processes and temp folders whatever way the run ends, a small seeded random generator, an HTTP client
// that keeps the session cookie, the built server as a child process, and the embedded PostgreSQL's
// processes as /proc shows them (which are alive, whose they are, their memory).
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
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const distServer = path.join(repoRoot, 'dist', 'server');

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const PAGE_SIZE = 100;

/** A failure the harness explains itself: printed without a stack. */
export class HarnessError extends Error {}

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
  for (const dir of tempPaths)
    for (const proc of postgresProcesses(dir, { under: true })) signal(proc.pid, 'SIGKILL');
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
  };
}

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
   * Resolves { status, body } once the whole answer is in. Rejects on a connection failure; when the
   * status line arrived but the body was cut off, the error carries `status`.
   */
  send(method, urlPath, body, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS) {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = {};
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(payload);
      }
      if (this.cookie) headers.cookie = this.cookie;
      const request = http.request(
        { host: '127.0.0.1', port: this.port, method, path: urlPath, headers, agent: this.agent },
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
            this.#keepCookie(response.headers['set-cookie']);
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // Not JSON: keep the text.
            }
            resolve({ status: response.statusCode ?? 0, body: parsed });
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
    const log = fs.openSync(logPath, 'a');
    const child = spawnTracked(process.execPath, [...SERVER_NODE_ARGS, this.mainJs], {
      env,
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    return child;
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
