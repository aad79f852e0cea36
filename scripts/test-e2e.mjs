#!/usr/bin/env node
// Runs the end-to-end suite against the built app (`npm run test:e2e` builds first):
//  1. makes sure Chromium is installed (scripts/ensure-chromium.mjs);
//  2. starts `node dist/server/main.js` on a free port with a fresh embedded database in a temp folder,
//     demo data on, the rate limits off and a known admin invite code;
//  3. waits for GET /api/health, runs `npx playwright test [args…]` against it;
//  4. stops the server (SIGTERM, SIGKILL after 10 s), removes the temp folder, exits with Playwright's code.
//
// The server's output goes to .tmp/e2e-server.log.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './ensure-chromium.mjs';
import { freePort } from './pg-cluster.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverEntry = path.join(repoRoot, 'dist', 'server', 'main.js');
const serverLogPath = path.join(repoRoot, '.tmp', 'e2e-server.log');
const ADMIN_INVITE_CODE = 'e2e-admin-code';
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;
// --postgres: the server runs on a throwaway cluster of the system's PostgreSQL (pg-cluster.mjs) instead
// of the embedded one, with the demo mall loaded (not part of npm test: the browser sees the same API).
const onPostgres = process.argv.includes('--postgres');
const extraArgs = process.argv.slice(2).filter((arg) => arg !== '--postgres');

const seconds = (start) => `${((performance.now() - start) / 1000).toFixed(1)} s`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Both children run in their own process groups (detached), so that a signal sent to this script
// alone (CI cancelling a job) still ends Playwright's workers and browsers: we forward it to the group.
/** @type {import('node:child_process').ChildProcess | undefined} */
let server;
/** @type {import('node:child_process').ChildProcess | undefined} */
let playwright;
let dataDir;
/** The throwaway PostgreSQL cluster, with --postgres. */
let cluster;
/** Set when a signal stops the run: the exit code to end with. */
let interruptedCode;

const running = (child) => child !== undefined && child.exitCode === null && child.signalCode === null;
const serverRunning = () => running(server);

/** Sends `signal` to the child's whole process group (falls back to the child alone). */
function signalGroup(child, signal) {
  if (!running(child) || child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/** Signals the group, waits up to `graceMs` for the child to exit, then SIGKILLs the group. */
async function endGroup(child, signal, graceMs) {
  if (!running(child) || !child) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  signalGroup(child, signal);
  const gone = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!gone) {
    signalGroup(child, 'SIGKILL');
    // why: SIGKILL cannot be refused; the exit event follows.
    await exited;
    return false;
  }
  return true;
}

/** Last resort when the process ends without the orderly stop below: never leave a server behind. */
function cleanupSync() {
  signalGroup(playwright, 'SIGKILL');
  signalGroup(server, 'SIGKILL');
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
process.on('exit', cleanupSync);
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.once(signal, () => {
    interruptedCode = code;
    console.error(`\n${signal}: stopping the tests and the test server…`);
    endGroup(playwright, signal, STOP_GRACE_MS)
      .then(() => stopServer())
      .finally(() => process.exit(code));
  });
}

async function stopServer() {
  if (serverRunning()) {
    const graceful = await endGroup(server, 'SIGTERM', STOP_GRACE_MS);
    if (!graceful)
      console.error(`The test server did not stop within ${STOP_GRACE_MS / 1000} s of SIGTERM; killed it.`);
  }
  if (dataDir) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  }
}

function serverLog() {
  try {
    return fs.readFileSync(serverLogPath, 'utf8');
  } catch {
    return '';
  }
}

async function waitForHealth(baseUrl) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastProblem = 'no answer';
  while (Date.now() < deadline) {
    if (interruptedCode !== undefined) throw new Error('Interrupted.');
    if (!serverRunning()) {
      const how =
        server?.exitCode !== null ? `exit code ${server?.exitCode}` : `signal ${server?.signalCode}`;
      throw new Error(`The server exited before it was ready (${how}). Its output:\n${serverLog()}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      const body = await response.text();
      if (response.status === 200) {
        try {
          if (JSON.parse(body)?.status === 'ok') return;
        } catch {
          // not JSON yet: keep waiting
        }
      }
      lastProblem = `HTTP ${response.status} ${body.slice(0, 200)}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await sleep(200);
  }
  throw new Error(
    `The server was not ready within ${READY_TIMEOUT_MS / 1000} s (last answer: ${lastProblem}). ` +
      `Its output:\n${serverLog()}`,
  );
}

function runPlaywright(env) {
  return new Promise((resolve) => {
    playwright = spawn('npx', ['playwright', 'test', ...extraArgs], {
      cwd: repoRoot,
      stdio: 'inherit',
      env,
      detached: true,
    });
    playwright.once('error', (error) => {
      console.error(`Could not run Playwright: ${error.message}`);
      resolve(1);
    });
    playwright.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

let exitCode = 1;
try {
  const chromium = ensureChromium();
  if (!fs.existsSync(serverEntry)) {
    throw new Error(`${path.relative(repoRoot, serverEntry)} is missing: run "npm run build" first.`);
  }

  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-e2e-'));
  fs.mkdirSync(path.dirname(serverLogPath), { recursive: true });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const serverEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MALL_DATA_DIR: dataDir,
    MALL_DEMO_DATA: 'on',
    MALL_ADMIN_INVITE_CODE: ADMIN_INVITE_CODE,
    MALL_RATE_LIMIT: 'off',
    // Insights' counts reach the database within half a second (5 s in production): the insights spec
    // reads them back.
    MALL_INSIGHTS_FLUSH_MS: '500',
    // Cheap password hashes (src/server/auth/passwords.ts): the suite signs up hundreds of people, each a
    // third of a second of a core at OWASP's cost, on the two cores the API tests share in CI.
    MALL_PASSWORD_HASHING: 'fast-for-tests',
  };
  // The e2e server always uses a fresh database with demo data, whatever the caller's env says: embedded,
  // or with --postgres a throwaway PostgreSQL cluster.
  delete serverEnv.DATABASE_URL;
  if (onPostgres) {
    const { startThrowawayCluster } = await import('./pg-cluster.mjs');
    cluster = await startThrowawayCluster();
    serverEnv.DATABASE_URL = cluster.url;
  }

  const startedAt = performance.now();
  const log = fs.openSync(serverLogPath, 'w');
  server = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    env: serverEnv,
    stdio: ['ignore', log, log],
    detached: true,
  });
  fs.closeSync(log);
  await waitForHealth(baseUrl);
  console.log(
    `Test server ready at ${baseUrl} in ${seconds(startedAt)} on ${onPostgres ? `PostgreSQL ${cluster.version}` : 'the embedded database'} (Chromium: ${chromium}; log: .tmp/e2e-server.log)`,
  );

  const testsStart = performance.now();
  exitCode = await runPlaywright({
    ...process.env,
    // why: `npx playwright` then runs on the same Node as this script (and the server).
    PATH: [path.dirname(process.execPath), process.env.PATH].filter(Boolean).join(path.delimiter),
    E2E_BASE_URL: baseUrl,
    E2E_ADMIN_INVITE_CODE: ADMIN_INVITE_CODE,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  });
  if (interruptedCode !== undefined) throw new Error('Interrupted.');
  console.log(`Playwright finished in ${seconds(testsStart)} with exit code ${exitCode}`);
  if (!serverRunning()) {
    console.error(`The test server died during the run. Its output:\n${serverLog()}`);
    if (exitCode === 0) exitCode = 1;
  }
} catch (error) {
  if (interruptedCode === undefined) console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await stopServer();
  await cluster?.stop();
}
process.exit(interruptedCode ?? exitCode);
