#!/usr/bin/env node
// A throwaway PostgreSQL cluster for tests: a fresh data directory in a temp folder, listening on
// 127.0.0.1 on a free port with a private socket directory, deleted again by stop().
//
//   import { startThrowawayCluster } from './pg-cluster.mjs';
//   const { url, stop } = await startThrowawayCluster();
//
// Run directly (`node scripts/pg-cluster.mjs`) it starts one, prints its URL and waits for Ctrl-C.
//
// PostgreSQL binaries are taken from /usr/lib/postgresql/<newest>/bin. When there are none and we run
// as root, Debian's `postgresql` package is installed with apt-get. initdb and pg_ctl refuse to run as
// root, so as root every PostgreSQL program runs as the `postgres` system user (runuser).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

const PG_ROOT = '/usr/lib/postgresql';
const READY_TIMEOUT_MS = 60_000;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The newest PostgreSQL version's bin folder holding initdb, pg_ctl and postgres, or undefined. */
function findPgBin() {
  let versions = [];
  try {
    versions = fs.readdirSync(PG_ROOT);
  } catch {
    return undefined;
  }
  const candidates = versions
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    .map((name) => ({ version: name, bin: path.join(PG_ROOT, name, 'bin') }))
    .filter(({ bin }) =>
      ['initdb', 'pg_ctl', 'postgres'].every((program) => fs.existsSync(path.join(bin, program))),
    );
  return candidates[0];
}

function installPostgresWithApt() {
  console.error('PostgreSQL server binaries not found; installing Debian package "postgresql" (apt-get)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => {
    const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.error) throw new Error(`apt-get could not run: ${result.error.message}`);
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit code ${result.status})`);
  };
  run(['-qq', 'update']);
  run(['-qq', '-y', '--no-install-recommends', 'install', 'postgresql']);
}

function ensurePgBin() {
  let found = findPgBin();
  if (found) return found;
  if (!isRoot) {
    throw new Error(
      `PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found under ${PG_ROOT}/*/bin.\n` +
        'Install them with "sudo apt-get install postgresql", or set DATABASE_URL to a PostgreSQL server ' +
        'where the tests may create and drop databases.',
    );
  }
  installPostgresWithApt();
  found = findPgBin();
  if (!found)
    throw new Error(`apt-get installed "postgresql" but no server binaries appeared under ${PG_ROOT}`);
  return found;
}

/** Command and arguments running `program` as the postgres system user when we are root. */
function asPostgresUser(program, args) {
  return isRoot
    ? { command: 'runuser', args: ['-u', 'postgres', '--', program, ...args] }
    : { command: program, args };
}

function runPg(program, args) {
  const { command, args: fullArgs } = asPostgresUser(program, args);
  const result = spawnSync(command, fullArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) throw new Error(`${path.basename(program)} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(program)} failed (exit code ${result.status}):\n${result.stdout}${result.stderr}`.trim(),
    );
  }
  return result.stdout;
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('Could not pick a free port'))));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function readLog(logFile) {
  try {
    return fs.readFileSync(logFile, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Clusters started by this process and not stopped yet; stopped synchronously when the process ends. */
const liveClusters = new Set();
let handlersInstalled = false;

function installExitHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const cluster of liveClusters) cluster.stopSync();
  });
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.once(signal, () => {
      for (const cluster of liveClusters) cluster.stopSync();
      process.exit(code);
    });
  }
}

/**
 * Starts a fresh PostgreSQL cluster (trust authentication, superuser `postgres`, fsync off: tests only).
 * @returns {Promise<{ url: string, version: string, dataDir: string, stop: () => Promise<void> }>}
 */
export async function startThrowawayCluster() {
  const { version, bin } = ensurePgBin();
  const initdb = path.join(bin, 'initdb');
  const pgCtl = path.join(bin, 'pg_ctl');
  const postgres = path.join(bin, 'postgres');

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-pgcluster-'));
  const dataDir = path.join(root, 'data');
  const socketDir = path.join(root, 'socket');
  const logFile = path.join(root, 'postgres.log');
  fs.mkdirSync(socketDir, { mode: 0o700 });

  let stopped = false;
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  const cluster = {
    stopSync() {
      if (stopped) return;
      stopped = true;
      liveClusters.delete(cluster);
      if (fs.existsSync(path.join(dataDir, 'postmaster.pid'))) {
        const { command, args } = asPostgresUser(pgCtl, [
          'stop',
          '-D',
          dataDir,
          '-m',
          'fast',
          '-w',
          '-t',
          '30',
        ]);
        spawnSync(command, args, { stdio: 'ignore' });
      }
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  liveClusters.add(cluster);
  installExitHandlers();

  try {
    if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', root]);
    runPg(initdb, [
      '-D',
      dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
      '--no-instructions',
    ]);

    let url;
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      // The server writes to this descriptor it inherits, so it need not own the file.
      const log = fs.openSync(logFile, 'a');
      const { command, args } = asPostgresUser(postgres, [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-k',
        socketDir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
      ]);
      // Detached: a Ctrl-C in the terminal reaches us, and we stop the cluster ourselves, in order.
      child = spawn(command, args, { stdio: ['ignore', log, log], detached: true });
      fs.closeSync(log);
      child.unref();
      const candidate = `postgres://postgres@127.0.0.1:${port}/postgres`;
      const ready = await waitUntilReady(candidate, child);
      if (ready === 'ready') {
        url = candidate;
        break;
      }
      // Exited: most likely the port was taken between picking it and binding it. Try another.
      const output = readLog(logFile);
      if (attempt >= 3 || !/could not (bind|create listen)|address already in use/i.test(output)) {
        throw new Error(`PostgreSQL did not start:\n${output}`);
      }
    }
    return {
      url,
      version,
      dataDir,
      stop: async () => cluster.stopSync(),
    };
  } catch (error) {
    const log = readLog(logFile);
    cluster.stopSync();
    if (log && error instanceof Error && !error.message.includes(log)) {
      error.message += `\n--- postgres log ---\n${log}`;
    }
    throw error;
  }
}

/** Resolves 'ready' once `select 1` works, or 'exited' when the server process ends first. */
async function waitUntilReady(url, child) {
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError;
  while (Date.now() < deadline) {
    if (exited || child.exitCode !== null) return 'exited';
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return 'ready';
    } catch (error) {
      lastError = error;
      await client.end().catch(() => {});
    }
    await sleep(100);
  }
  throw new Error(
    `PostgreSQL did not become ready within ${READY_TIMEOUT_MS / 1000} s: ${lastError?.message ?? 'no answer'}`,
  );
}

const runDirectly = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (runDirectly) {
  try {
    const { url, version } = await startThrowawayCluster();
    console.log(`PostgreSQL ${version} is running (throwaway; deleted when you press Ctrl-C):`);
    console.log(url);
    // Keep the process alive until a signal; the exit handlers stop the cluster.
    setInterval(() => {}, 1 << 30);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
