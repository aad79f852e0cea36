// Helpers shared by the stress harnesses (kill9.mjs, soak.mjs): clean-up of server processes and temp
// folders whatever way the run ends, a small seeded random generator, an HTTP client that keeps the
// session cookie, and the built server as a child process.
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

  /** SIGKILL to the server's process group; resolves once it is gone. */
  async kill() {
    const child = this.child;
    if (!child || !isRunning(child)) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    killGroup(child, 'SIGKILL');
    await exited;
  }

  /** SIGTERM, then SIGKILL after 10 s. Resolves the exit code (null when it had to be killed). */
  async stop() {
    const child = this.child;
    if (!child || !isRunning(child)) return child?.exitCode ?? null;
    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    killGroup(child, 'SIGTERM');
    const code = await Promise.race([exited, sleep(10_000).then(() => 'timeout')]);
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
