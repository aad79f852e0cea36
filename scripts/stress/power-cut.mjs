#!/usr/bin/env node
// Power-cut harness: a change the mall acknowledged must survive the machine losing power — on the
// embedded database (the PostgreSQL server the app starts on MALL_DATA_DIR). docs/verification/power-cut.md
// says what was run, what came out and what this does and does not prove.
//
//   node scripts/stress/power-cut.mjs [--cycles 20] [--lazyfs PATH] [--seed N] [--no-images] [--skip-first-start] [--verbose]
//   node scripts/stress/power-cut.mjs --unsafe [--cycles 5] [--lazyfs PATH] [--seed N]
//
// A kill -9 (scripts/stress/kill9.mjs) loses the processes but not the kernel's page cache: whatever was
// written and not yet fsync'ed still reaches the disk. A power cut loses that too. This harness puts
// MALL_DATA_DIR on LazyFS (https://github.com/dsrhaslab/lazyfs, the FUSE file system Jepsen uses), which
// keeps every write in its own cache until the writer fsyncs it; its command `lazyfs::clear-cache` drops
// everything not fsync'ed — what a power cut does to the page cache. Every cycle:
//  1. the built server (a copy of dist/server, so a rebuild meanwhile cannot change it) runs on the LazyFS
//     folder (six floors and six categories made first); six writers make changes over HTTP: four create,
//     rename and delete categories and create and rename floors, two upload floor plans (images: on the
//     embedded database their files live in MALL_DATA_DIR/images; not with --no-images). Every answer is
//     recorded: a 2xx is an acknowledged change;
//     Meanwhile the harness has PostgreSQL make checkpoints (CHECKPOINT every 20–250 ms), so that cuts
//     also land during one;
//  2. at a random moment (300–2500 ms in) the machine "dies": SIGSTOP to the server and every process it
//     started (the postmaster, the backends, the WAL writer… found in /proc), so that none runs another
//     instruction, then SIGKILL to all of them — nothing gets to run a shutdown, a checkpoint or an fsync;
//  3. LazyFS reports what it holds unsynced (printed: that is what the cut throws away), then drops it
//     (clear-cache), and is unmounted and mounted again (the machine restarts: no cache left anywhere);
//  4. the server starts again on the same folder (healthy within 60 s, or the run fails) and every change
//     acknowledged so far, in this cycle and all before, is checked through the API: created things
//     exist with their acknowledged name, acknowledged renames show, acknowledged deletes stay deleted,
//     acknowledged floor plans are the floor's plan, and every variant of every plan image uploaded since
//     the previous cut is served whole (200, not empty, a WebP/AVIF header). A change cut off by the kill
//     (no answer) may or may not have happened: the harness takes what the server shows.
// Before the cycles (unless --skip-first-start), the same cut right after the server's first start on an
// empty folder (having registered its admin): it must come back, with that admin.
//
// The harness itself fsyncs MALL_DATA_DIR/postgres.secret after the first start of the cycles' folder:
// LazyFS never writes unsynced data back (a kernel does within ~30 s), and the launcher writes that file
// without fsync — the first-start check above is the one that measures that; the cycles measure the
// acknowledged changes.
//
// --unsafe: the controls, which must LOSE acknowledged changes (else this method proves nothing):
//  A. PostgreSQL started directly from the npm binaries (as nobody, setpriv) on a LazyFS folder with
//     fsync = off and synchronous_commit = off in its postgresql.auto.conf (ALTER SYSTEM; the app refuses
//     such a folder), four writers inserting rows with pg; kill, clear-cache, restart, count the
//     acknowledged rows missing (or the cluster no longer starting);
//  B. the app itself, the same workload as above, with `ALTER DATABASE mall SET synchronous_commit = off`
//     (fsync stays on): commits are acknowledged before their WAL is flushed.
//
// Needs: root (FUSE allow_other, and the database runs as nobody), /dev/fuse, fusermount3 (Debian: fuse3),
// setpriv, a LazyFS binary (--lazyfs PATH, or $LAZYFS, or `lazyfs` on PATH: see the doc for building it),
// and the built server (npm run build). Prints a line per cycle and a summary; exits 0 when nothing
// acknowledged was lost and nothing else failed (--unsafe: when both controls lost something), 1
// otherwise, 2 when it cannot run here. Everything it starts is stopped, LazyFS unmounted and its folders
// removed at the end, on failure and on Ctrl-C.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import {
  Api,
  clusterOf,
  copyBuiltServer,
  descendantsOf,
  embeddedPostgresBin,
  ensureAdmin,
  HarnessError,
  installCleanup,
  is2xx,
  isInterrupted,
  killPostgresProcesses,
  makeRandom,
  missingBuiltServer,
  numberOption,
  parseOptions,
  postgresProcesses,
  registerAccount,
  runLimited,
  Server,
  seconds,
  seedOption,
  serverEnv,
  signal,
  sleep,
  startWatchdog,
  tail,
} from './lib.mjs';

const INVITE_CODE = 'power-cut-admin-invite';
const ADMIN = { email: 'power.cut.admin@example.com', password: 'power-cut-password' };
/** What registers the admin at a first start. */
const ADMIN_ACCOUNT = { ...ADMIN, role: 'admin', inviteCode: INVITE_CODE };
const FIRST_START_TIMEOUT_MS = 120_000;
/** After a cut the server must be healthy again within this (crash recovery included). */
const RESTART_TIMEOUT_MS = 60_000;
const KILL_WINDOW_MS = [300, 2500];
const WRITERS = 6;
const CONTROL_WRITERS = 4;
const CHECK_CONCURRENCY = 8;
const NOBODY = { uid: 65534, gid: 65534 };
const IMAGE_VARIANTS = ['160.webp', '160.avif', '480.webp', '480.avif', '1200.webp', '1200.avif'];
/** A Unix socket's path must fit in sockaddr_un (src/server/db/embedded-postgres.ts). */
const MAX_SOCKET_PATH = 103;

// ---------------------------------------------------------------------------------------------------
// Options

const USAGE = `Usage: node scripts/stress/power-cut.mjs [--cycles N] [--lazyfs PATH] [--seed N] [--no-images] [--skip-first-start] [--verbose]
       node scripts/stress/power-cut.mjs --unsafe [--cycles N] [--lazyfs PATH] [--seed N]

  --cycles N          power cuts (default 20; --unsafe: 5 per control)
  --lazyfs PATH       the LazyFS binary (default: $LAZYFS, else "lazyfs" on PATH)
  --cache-size SIZE   LazyFS's cache (default 1gb: it must hold every write of a cycle)
  --seed N            seed of the workload's choices and kill moments (default: random, printed)
  --no-images         no floor-plan uploads (database changes only)
  --skip-first-start  no cut right after the first start
  --unsafe            the controls: fsync/synchronous_commit off, which must lose acknowledged changes
  --verbose           every loss in full, the servers' output on failure`;

const options = parseOptions(USAGE, {
  cycles: { type: 'string' },
  lazyfs: { type: 'string' },
  'cache-size': { type: 'string', default: '1gb' },
  seed: { type: 'string' },
  'no-images': { type: 'boolean', default: false },
  'skip-first-start': { type: 'boolean', default: false },
  unsafe: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
});
const cycles = numberOption('cycles', options.cycles ?? (options.unsafe ? '5' : '20'), {
  min: 1,
  max: 10_000,
  usage: USAGE,
});
const seed = seedOption(options.seed);
if (!/^\d+(\.\d+)?\s*(kb|mb|gb)$/i.test(options['cache-size'])) {
  console.error(`--cache-size must be like 512mb or 1gb (got "${options['cache-size']}")`);
  process.exit(2);
}
const withImages = !options['no-images'];

// ---------------------------------------------------------------------------------------------------
// What this machine must have

function onPath(program) {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir, program);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function cannotRun(message) {
  console.error(
    `power-cut: cannot run here: ${message}\n(docs/verification/power-cut.md says how to set it up)`,
  );
  process.exit(2);
}

function requirements() {
  if (process.platform !== 'linux') cannotRun('Linux only (FUSE, /proc)');
  if (process.getuid?.() !== 0)
    cannotRun('run as root (LazyFS is mounted with allow_other, the database runs as nobody)');
  if (!fs.existsSync('/dev/fuse')) cannotRun('/dev/fuse is missing (no FUSE in this kernel or container)');
  const fusermount = onPath('fusermount3');
  if (!fusermount) cannotRun('fusermount3 is missing: apt-get install fuse3');
  if (!onPath('setpriv')) cannotRun('setpriv is missing: apt-get install util-linux');
  const binary = options.lazyfs ?? process.env.LAZYFS ?? onPath('lazyfs');
  if (!binary) cannotRun('no LazyFS binary: pass --lazyfs PATH (or set LAZYFS)');
  try {
    fs.accessSync(binary, fs.constants.X_OK);
  } catch {
    cannotRun(`the LazyFS binary ${binary} is not an executable file`);
  }
  const missing = missingBuiltServer();
  if (missing) cannotRun(missing);
  return { fusermount, binary: path.resolve(binary) };
}

// ---------------------------------------------------------------------------------------------------
// Clean-up: registered before lib's (exit handlers run in order): kill what runs on LazyFS, unmount it,
// then remove its folders — lib's handler then kills any server left and removes the server copies.

/** @type {Set<LazyFs>} */
const lazyMounts = new Set();
/** Work folders (LazyFS's backing folder, config, logs, sockets), removed at exit. */
const workDirs = new Set();

function cleanupSync() {
  for (const dir of workDirs) killPostgresProcesses(dir, { under: true });
  for (const lazy of lazyMounts) lazy.unmountSync();
  for (const dir of workDirs) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      console.error(`power-cut: could not remove ${dir}: ${error.message}`);
    }
  }
}
process.on('exit', cleanupSync);
installCleanup();

function makeWorkDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  workDirs.add(dir);
  return dir;
}

function removeWorkDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  workDirs.delete(dir);
}

// ---------------------------------------------------------------------------------------------------
// LazyFS: mounted in the foreground as a child of this process, commands through its FIFO, their
// completion read from its log.

/** /proc/self/mountinfo writes a space as \040 (and tab, newline, backslash likewise). */
const unescapeMountField = (field) =>
  field.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(Number.parseInt(octal, 8)));

class LazyFs {
  constructor({ binary, fusermount, workDir, cacheSize }) {
    this.binary = binary;
    this.fusermount = fusermount;
    this.workDir = workDir;
    this.cacheSize = cacheSize;
    /** The "disk": what survives a cut. */
    this.backing = path.join(workDir, 'disk');
    /** What the programs use. */
    this.mountPoint = path.join(workDir, 'lazyfs');
    this.fifo = path.join(workDir, 'lazyfs.fifo');
    this.mounts = 0;
    this.child = undefined;
    fs.mkdirSync(this.backing, { mode: 0o755 });
    fs.mkdirSync(this.mountPoint, { mode: 0o755 });
    fs.chmodSync(this.backing, 0o755);
    fs.chmodSync(this.mountPoint, 0o755);
  }

  isMounted() {
    try {
      return fs
        .readFileSync('/proc/self/mountinfo', 'utf8')
        .split('\n')
        .some(
          (line) =>
            unescapeMountField(line.split(' ')[4] ?? '') === this.mountPoint &&
            line.includes(' - fuse.lazyfs '),
        );
    } catch {
      return false;
    }
  }

  async mount() {
    if (this.isMounted()) throw new HarnessError(`${this.mountPoint} is mounted already`);
    this.mounts += 1;
    this.logPath = path.join(this.workDir, `lazyfs-${this.mounts}.log`);
    this.configPath = path.join(this.workDir, 'lazyfs.toml');
    // No eviction: nothing unsynced reaches the disk unless fsync'ed (a kernel would write some back).
    fs.writeFileSync(
      this.configPath,
      [
        '[faults]',
        `fifo_path="${this.fifo}"`,
        '[cache]',
        'apply_eviction=false',
        '[cache.simple]',
        `custom_size="${this.cacheSize}"`,
        'blocks_per_page=1',
        '[filesystem]',
        'log_all_operations=false',
        `logfile="${this.logPath}"`,
        '',
      ].join('\n'),
    );
    const out = fs.openSync(path.join(this.workDir, 'lazyfs.out'), 'a');
    const child = spawn(
      this.binary,
      [
        this.mountPoint,
        '--config-path',
        this.configPath,
        '-o',
        'allow_other',
        '-o',
        'modules=subdir',
        '-o',
        `subdir=${this.backing}`,
        '-f',
      ],
      { detached: true, stdio: ['ignore', out, out] },
    );
    fs.closeSync(out);
    this.child = child;
    lazyMounts.add(this);
    const started = performance.now();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new HarnessError(
          `LazyFS exited while mounting (${child.exitCode ?? child.signalCode}):\n${tail(path.join(this.workDir, 'lazyfs.out'), 15)}`,
        );
      if (this.isMounted() && this.#log().includes('running LazyFS')) break;
      if (performance.now() - started > 30_000)
        throw new HarnessError(
          `LazyFS did not mount within 30 s:\n${tail(path.join(this.workDir, 'lazyfs.out'), 15)}`,
        );
      await sleep(20);
    }
    return performance.now() - started;
  }

  #log() {
    try {
      return fs.readFileSync(this.logPath, 'utf8');
    } catch {
      return '';
    }
  }

  /** Writes a command to LazyFS's FIFO and waits until its log shows `done` once more; resolves the log's new text. */
  async command(command, done, timeoutMs = 60_000) {
    const before = this.#log();
    const count = (text) => text.split(done).length - 1;
    const already = count(before);
    const deadline = performance.now() + timeoutMs;
    let fd;
    // Non-blocking: an open for writing fails (ENXIO) rather than hangs while nobody reads the FIFO.
    while (fd === undefined) {
      try {
        fd = fs.openSync(this.fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
      } catch (error) {
        if (error.code !== 'ENXIO' && error.code !== 'ENOENT') throw error;
        if (performance.now() > deadline) throw new HarnessError(`LazyFS's FIFO ${this.fifo} has no reader`);
        await sleep(20);
      }
    }
    try {
      fs.writeSync(fd, `${command}\n`);
    } finally {
      fs.closeSync(fd);
    }
    for (;;) {
      const now = this.#log();
      if (count(now) > already) return now.slice(before.length);
      if (performance.now() > deadline)
        throw new HarnessError(`LazyFS did not complete "${command}" within ${seconds(timeoutMs)}`);
      await sleep(20);
    }
  }

  /** What LazyFS holds that was never fsync'ed: { bytes, files: backing-relative paths }. */
  async unsynced() {
    const text = await this.command('lazyfs::unsynced-data-report', 'total number of bytes un-fsynced');
    const bytes = Number(/total number of bytes un-fsynced: (\d+) bytes/.exec(text)?.[1] ?? Number.NaN);
    const files = new Set();
    for (const match of text.matchAll(/=> file: '([^']*)'/g))
      files.add(path.relative(this.backing, match[1]));
    return { bytes, files: [...files] };
  }

  /** The power cut, for the files: every write not fsync'ed is gone. */
  clearCache() {
    return this.command('lazyfs::clear-cache', 'cache is cleared.');
  }

  async unmount() {
    const child = this.child;
    if (!child) return;
    const exited =
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise((resolve) => child.once('exit', resolve));
    try {
      execFileSync(this.fusermount, ['-u', this.mountPoint], { stdio: 'pipe' });
    } catch (error) {
      throw new HarnessError(
        `fusermount3 -u ${this.mountPoint} failed: ${String(error.stderr ?? error.message).trim()}`,
      );
    }
    const gone = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
    if (!gone) {
      signal(child.pid, 'SIGKILL');
      await exited;
    }
    this.child = undefined;
    lazyMounts.delete(this);
  }

  /** At exit: unmount (lazily if busy) and stop LazyFS, whatever state things are in. */
  unmountSync() {
    if (this.isMounted()) {
      try {
        execFileSync(this.fusermount, ['-u', this.mountPoint], { stdio: 'ignore' });
      } catch {
        try {
          execFileSync(this.fusermount, ['-u', '-z', this.mountPoint], { stdio: 'ignore' });
        } catch {
          // reported below
        }
      }
    }
    if (this.child && this.child.exitCode === null && this.child.signalCode === null)
      signal(this.child.pid, 'SIGKILL');
    if (this.isMounted())
      console.error(`power-cut: ${this.mountPoint} is still mounted: fusermount3 -u -z ${this.mountPoint}`);
    lazyMounts.delete(this);
  }
}

/** "9.4 MB in 390 files (pg_wal 3, base 370, images 12, postgres.secret)": what a cut dropped. */
function describeDropped({ bytes, files }) {
  const groups = new Map();
  for (const file of files) {
    const parts = file.split(path.sep);
    const inside = parts.slice(1);
    let group;
    if (inside[0] === 'postgres')
      group = inside[1] === 'base' || inside[1] === 'global' ? inside[1] : (inside[1] ?? 'postgres');
    else group = inside[0] ?? file;
    if (inside[0] === 'postgres' && !['base', 'global', 'pg_wal', 'pg_xact'].includes(group))
      group = `postgres/${group}`;
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  const list = [...groups].map(([group, n]) => (n > 1 ? `${group} ${n}` : group)).join(', ');
  return `${(bytes / 1e6).toFixed(1)} MB in ${files.length} file${files.length === 1 ? '' : 's'}${list ? ` (${list})` : ''}`;
}

// ---------------------------------------------------------------------------------------------------
// The cut, for the processes: all of them stopped, then all killed.

function processState(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}
const isDead = (pid) => {
  const state = processState(pid);
  return state === undefined || state === 'Z' || state === 'X';
};

/**
 * SIGSTOP to `roots`, every process they started (their children lists in /proc) and every PostgreSQL
 * process of `cluster` — repeated until no new one shows up (a process stopped cannot start another) —
 * then SIGKILL to all: from the first SIGSTOP on, none of them runs another instruction, so none gets to
 * write, fsync, checkpoint or shut down (the embedded PostgreSQL's parent-death signal included).
 * Resolves the number of processes once they are all dead.
 */
async function cutProcesses(roots, cluster) {
  const frozen = new Set();
  for (let round = 0; round < 50; round++) {
    const found = [
      ...roots.filter((pid) => pid && !isDead(pid)),
      ...roots.flatMap((pid) => (pid ? descendantsOf(pid) : [])),
      ...(cluster ? postgresProcesses(cluster).map((proc) => proc.pid) : []),
    ];
    let added = 0;
    for (const pid of found) {
      if (frozen.has(pid)) continue;
      frozen.add(pid);
      signal(pid, 'SIGSTOP');
      added += 1;
    }
    if (added === 0) break;
  }
  for (const pid of frozen) signal(pid, 'SIGKILL');
  const deadline = performance.now() + 15_000;
  for (;;) {
    const left = [...frozen].filter((pid) => !isDead(pid));
    if (left.length === 0) return frozen.size;
    if (performance.now() > deadline)
      throw new HarnessError(`processes ${left.join(', ')} still alive 15 s after SIGKILL`);
    await sleep(10);
  }
}

// ---------------------------------------------------------------------------------------------------
// HTTP beyond JSON: multipart uploads and image bytes (Api.sendRaw: the Api's agent and session cookie).

/** How long an upload or an image's bytes may take to answer. */
const RAW_TIMEOUT_MS = 15_000;

/** PUT <path> with one file in the field "file", as the admin screens upload. */
async function upload(api, urlPath, fileName, bytes) {
  const boundary = `----power-cut-${Math.random().toString(36).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const answer = await api.sendRaw(
    'PUT',
    urlPath,
    { headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-mall-upload': '1' }, body },
    RAW_TIMEOUT_MS,
  );
  let parsed;
  try {
    parsed = JSON.parse(answer.bytes.toString('utf8'));
  } catch {
    parsed = answer.bytes.toString('utf8');
  }
  return { status: answer.status, body: parsed };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A small RGB PNG of noise: every one a different image (the key is the file's hash). */
function noisePng(random, width = 48, height = 32) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0; // filter: none
    for (let x = 0; x < width * 3; x++) raw[y * (width * 3 + 1) + 1 + x] = random.int(0, 255);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A variant's bytes look whole: not empty, and the format's header (RIFF…WEBP, or an ISO-BMFF ftyp box). */
function looksWhole(name, bytes) {
  if (bytes.length < 16) return false;
  if (name.endsWith('.webp'))
    return bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP';
  return bytes.toString('ascii', 4, 8) === 'ftyp';
}

// ---------------------------------------------------------------------------------------------------
// What the harness believes is in the mall: everything acknowledged; a change without an answer makes
// its thing uncertain until the next check reads what the server shows.

/**
 * @typedef {{ names: Set<string>, exists: boolean | null }} CategoryModel
 * @typedef {{ names: Set<string>, plans: Set<string | null> | null }} FloorModel   plans null: any
 */
function emptyModel() {
  return {
    /** @type {Map<string, CategoryModel>} */
    categories: new Map(),
    /** @type {Map<string, FloorModel>} */
    floors: new Map(),
    /** Creates without an answer: looked up by their (unique) name at the next check. */
    pendingCreates: [],
    /** Plan images to check at the next check: key → { floorId, acknowledged }. */
    newImages: new Map(),
  };
}

const WEIGHTS = [
  ['createCategory', 30],
  ['renameCategory', 14],
  ['deleteCategory', 8],
  ['createFloor', 14],
  ['renameFloor', 10],
];
/** Of the WRITERS, how many upload floor plans (an upload takes up to a second: they have writers of their own). */
const UPLOAD_WRITERS = 2;

class Planner {
  constructor(model, random, tag) {
    this.model = model;
    this.random = random;
    this.tag = tag;
    this.counter = 0;
    this.touched = new Set();
    const live = [...model.categories].filter(([, entry]) => entry.exists === true).map(([id]) => id);
    this.categoryIds = live;
    this.floorIds = [...model.floors.keys()];
  }

  name(prefix) {
    this.counter += 1;
    return `${prefix} ${this.tag}-${this.counter}`;
  }

  /** Something of `ids` no other write of this cycle touches. */
  untouched(ids) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const id = this.random.pick(ids);
      if (id === undefined) return undefined;
      if (this.touched.has(id)) continue;
      this.touched.add(id);
      return id;
    }
    return undefined;
  }

  /** The next change: an upload for the upload writers (while there is a floor left to take one), else a database change. */
  next({ uploads = false } = {}) {
    if (uploads) {
      const op = this.#make('uploadPlan');
      if (op) return op;
    }
    for (let attempt = 0; attempt < 10; attempt++) {
      const op = this.#make(this.random.weighted(WEIGHTS, 'createCategory'));
      if (op) return op;
    }
    return this.#make('createCategory');
  }

  #make(kind) {
    switch (kind) {
      case 'createCategory': {
        const name = this.name('PC Category');
        return { kind, method: 'POST', path: '/api/categories', body: { name }, name };
      }
      case 'createFloor': {
        const name = this.name('PC Floor');
        return { kind, method: 'POST', path: '/api/floors', body: { name }, name };
      }
      case 'renameCategory':
      case 'renameFloor': {
        const isCategory = kind === 'renameCategory';
        const id = this.untouched(isCategory ? this.categoryIds : this.floorIds);
        if (!id) return undefined;
        const name = this.name(isCategory ? 'PC Category renamed' : 'PC Floor renamed');
        return {
          kind,
          method: 'PATCH',
          path: `/api/${isCategory ? 'categories' : 'floors'}/${id}`,
          body: { name },
          id,
          name,
        };
      }
      case 'deleteCategory': {
        const id = this.untouched(this.categoryIds);
        if (!id) return undefined;
        return { kind, method: 'DELETE', path: `/api/categories/${id}`, id };
      }
      case 'uploadPlan': {
        const id = this.untouched(this.floorIds);
        if (!id) return undefined;
        return { kind, method: 'PUT', path: `/api/floors/${id}/plan`, id, png: noisePng(this.random) };
      }
      default:
        throw new Error(`unknown kind ${kind}`);
    }
  }
}

/** Sends one change; the record gets status/body, or error when no whole answer came. */
async function perform(api, op) {
  const record = { op };
  const started = performance.now();
  try {
    const answer =
      op.kind === 'uploadPlan'
        ? await upload(api, op.path, 'plan.png', op.png)
        : await api.send(op.method, op.path, op.body);
    record.status = answer.status;
    record.body = answer.body;
  } catch (error) {
    record.error = error.message;
  }
  record.ms = performance.now() - started;
  return record;
}

/** WRITERS writers until `killAt` ms, then `cut()`; resolves every record. */
async function burst(api, planner, killAt, cut) {
  const records = [];
  let stop = false;
  const writer = async (index) => {
    while (!stop) {
      const record = await perform(api, planner.next({ uploads: withImages && index < UPLOAD_WRITERS }));
      records.push(record);
      if (record.error !== undefined) return;
    }
  };
  const started = performance.now();
  const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
  await sleep(Math.max(0, killAt - (performance.now() - started)));
  stop = true;
  const processes = await cut();
  await Promise.all(writers);
  return { records, processes };
}

/** An acknowledged change, into the model. */
function applyAcknowledged(model, record) {
  const { op, body } = record;
  switch (op.kind) {
    case 'createCategory':
      model.categories.set(body.id, { names: new Set([op.name]), exists: true });
      break;
    case 'createFloor':
      model.floors.set(body.id, { names: new Set([op.name]), plans: new Set([null]) });
      break;
    case 'renameCategory': {
      const entry = model.categories.get(op.id);
      if (entry) entry.names = new Set([op.name]);
      break;
    }
    case 'renameFloor': {
      const entry = model.floors.get(op.id);
      if (entry) entry.names = new Set([op.name]);
      break;
    }
    case 'deleteCategory': {
      const entry = model.categories.get(op.id);
      if (entry) entry.exists = false;
      break;
    }
    case 'uploadPlan': {
      const entry = model.floors.get(op.id);
      if (entry) entry.plans = new Set([body.image]);
      model.newImages.set(body.image, { floorId: op.id, acknowledged: true });
      break;
    }
  }
}

/** A change without an answer: either outcome is right. */
function applyInDoubt(model, record) {
  const { op } = record;
  switch (op.kind) {
    case 'createCategory':
    case 'createFloor':
      model.pendingCreates.push({ kind: op.kind, name: op.name });
      break;
    case 'renameCategory':
      model.categories.get(op.id)?.names.add(op.name);
      break;
    case 'renameFloor':
      model.floors.get(op.id)?.names.add(op.name);
      break;
    case 'deleteCategory': {
      const entry = model.categories.get(op.id);
      if (entry) entry.exists = null;
      break;
    }
    case 'uploadPlan': {
      const entry = model.floors.get(op.id);
      if (entry) entry.plans = null;
      break;
    }
  }
}

/**
 * Everything acknowledged so far, against what the server shows: pushes a line per loss to `lost`
 * (acknowledged database changes) or `lostImages` (acknowledged uploads whose files are not whole), and
 * to `broken` what is wrong without having been acknowledged (an unanswered upload that committed with
 * files not whole). Then takes what the server shows as the truth for what was uncertain, and for what
 * was lost (so a loss is counted once). Resolves the number of things checked.
 */
async function checkAll(api, model, lost, lostImages, broken) {
  const [categories, floors] = await Promise.all([api.get('/api/categories'), api.get('/api/floors')]);
  if (categories.status !== 200) throw new HarnessError(`GET /api/categories: HTTP ${categories.status}`);
  if (floors.status !== 200) throw new HarnessError(`GET /api/floors: HTTP ${floors.status}`);
  const shownCategories = new Map(categories.body.items.map((item) => [item.id, item]));
  const shownFloors = new Map(floors.body.items.map((item) => [item.id, item]));
  let plans = new Map();
  if (withImages) {
    const guide = await api.get('/api/floor-guide');
    if (guide.status !== 200) throw new HarnessError(`GET /api/floor-guide: HTTP ${guide.status}`);
    plans = new Map(guide.body.floors.map((floor) => [floor.id, floor.planImage]));
  }
  let checked = 0;

  for (const [id, entry] of model.categories) {
    const shown = shownCategories.get(id);
    if (entry.exists === true) {
      checked += 1;
      if (!shown) lost.push(`category ${id} (${[...entry.names].join(' / ')}): acknowledged, missing`);
      else if (!entry.names.has(shown.name))
        lost.push(`category ${id}: shows "${shown.name}", acknowledged "${[...entry.names].join('" or "')}"`);
    } else if (entry.exists === false) {
      checked += 1;
      if (shown) lost.push(`category ${id} ("${shown.name}"): deleted (acknowledged), there again`);
    }
    if (shown) model.categories.set(id, { names: new Set([shown.name]), exists: true });
    else if (entry.exists !== false) model.categories.set(id, { names: entry.names, exists: false });
  }
  for (const [id, entry] of model.floors) {
    const shown = shownFloors.get(id);
    checked += 1;
    if (!shown) {
      lost.push(`floor ${id} (${[...entry.names].join(' / ')}): acknowledged, missing`);
      model.floors.delete(id);
      continue;
    }
    if (!entry.names.has(shown.name))
      lost.push(`floor ${id}: shows "${shown.name}", acknowledged "${[...entry.names].join('" or "')}"`);
    const plan = withImages ? (plans.get(id) ?? null) : null;
    if (withImages && entry.plans && !entry.plans.has(plan))
      lost.push(
        `floor ${id}: its plan is ${plan ?? 'none'}, acknowledged ${[...entry.plans].map((p) => p ?? 'none').join(' or ')}`,
      );
    if (withImages && entry.plans === null && plan !== null && !model.newImages.has(plan))
      model.newImages.set(plan, { floorId: id, acknowledged: false });
    model.floors.set(id, { names: new Set([shown.name]), plans: new Set([plan]) });
  }
  for (const pending of model.pendingCreates) {
    const map = pending.kind === 'createCategory' ? shownCategories : shownFloors;
    const found = [...map.values()].find((item) => item.name === pending.name);
    if (!found) continue;
    if (pending.kind === 'createCategory')
      model.categories.set(found.id, { names: new Set([found.name]), exists: true });
    else
      model.floors.set(found.id, {
        names: new Set([found.name]),
        plans: new Set([withImages ? (plans.get(found.id) ?? null) : null]),
      });
  }
  model.pendingCreates = [];

  // The images uploaded since the previous cut: the floor still shows it (else a newer one replaced it,
  // in doubt) → every variant must be served whole.
  const images = [...model.newImages].filter(([key, { floorId }]) =>
    model.floors.get(floorId)?.plans?.has(key),
  );
  await runLimited(
    images.map(([key, { acknowledged }]) => async () => {
      checked += 1;
      const bad = [];
      for (const variant of IMAGE_VARIANTS) {
        const { status, bytes } = await api.sendRaw(
          'GET',
          `/api/images/${key}/${variant}`,
          {},
          RAW_TIMEOUT_MS,
        );
        if (status !== 200) bad.push(`${variant}: HTTP ${status}`);
        else if (!looksWhole(variant, bytes))
          bad.push(`${variant}: ${bytes.length} bytes, not a whole image`);
      }
      if (bad.length === 0) return;
      const line = `plan image ${key.slice(0, 12)}…: ${bad.join('; ')}`;
      if (acknowledged) lostImages.push(`acknowledged upload, ${line}`);
      else broken.push(`unanswered upload that committed, ${line}`);
    }),
    CHECK_CONCURRENCY,
  );
  model.newImages = new Map();
  return checked;
}

// ---------------------------------------------------------------------------------------------------
// The app on LazyFS

/** A folder name long enough that the launcher puts PostgreSQL's socket in TMPDIR (LazyFS has no mknod). */
function dataDirOn(mountPoint, label) {
  let name = `mall-${label}-data-on-lazyfs`;
  while (`${mountPoint}/${name}/postgres.socket/.s.PGSQL.5432`.length <= MAX_SOCKET_PATH) name += '-x';
  return path.join(mountPoint, name);
}

async function serverEnvironment(workDir, dataDir) {
  const serverTmp = path.join(workDir, 'tmp');
  fs.mkdirSync(serverTmp, { recursive: true, mode: 0o755 });
  fs.chmodSync(serverTmp, 0o755);
  return serverEnv({
    TMPDIR: serverTmp,
    MALL_DATA_DIR: dataDir,
    MALL_DEMO_DATA: 'off',
    MALL_ADMIN_INVITE_CODE: INVITE_CODE,
  });
}

/** A pg client on the embedded database the running server started (its socket and password). */
async function embeddedClient(dataDir, database) {
  const cluster = clusterOf(dataDir);
  const lines = fs.readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n');
  const socketDir = lines[4];
  const password = fs.readFileSync(path.join(dataDir, 'postgres.secret'), 'utf8').trim();
  const client = new pg.Client({ host: socketDir, port: Number(lines[3]), user: 'mall', password, database });
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function settingsOf(client) {
  const { rows } = await client.query(
    `select name, setting from pg_settings where name = any($1) order by name`,
    [['fsync', 'full_page_writes', 'synchronous_commit', 'wal_sync_method']],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.setting]));
}

/** fsync a file, and its folder (what the launcher does not do for postgres.secret). */
function fsyncPath(file) {
  for (const target of [file, path.dirname(file)]) {
    const fd = fs.openSync(target, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
}

function firstLine(text) {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('{'))
      .pop() ?? text.trim().split('\n').pop()
  );
}

/**
 * The cut right after the first start: a fresh folder, the server starts (initdb, migrations), its admin
 * registers (acknowledged), the power goes. It must start again, with that admin.
 */
async function firstStartCheck(lazy, workDir, mainJs) {
  const dataDir = dataDirOn(lazy.mountPoint, 'first-start');
  const env = await serverEnvironment(workDir, dataDir);
  const logPath = path.join(workDir, 'first-start-server.log');
  const server = new Server({ label: 'first start', mainJs, env, logPath });
  const started = await server.start(FIRST_START_TIMEOUT_MS);
  const api = new Api(server.port);
  try {
    await registerAccount(api, ADMIN_ACCOUNT);
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    await cutProcesses([server.pid], clusterOf(dataDir));
    await exited;
    const dropped = await lazy.unsynced();
    await lazy.clearCache();
    await lazy.unmount();
    await lazy.mount();
    const appFiles = dropped.files.filter((file) => !file.split(path.sep).includes('postgres'));
    const summary = `first start ${seconds(started)}, admin registered, cut: LazyFS dropped ${describeDropped(dropped)}`;
    let problem;
    try {
      await server.start(RESTART_TIMEOUT_MS);
      api.reconnect(server.port);
      const login = await api.send('POST', '/api/auth/login', ADMIN);
      if (login.status !== 200)
        problem = `the server came back but the acknowledged admin cannot sign in: HTTP ${login.status} ${JSON.stringify(login.body)}`;
      await server.stop();
    } catch (error) {
      if (!(error instanceof HarnessError)) throw error;
      problem = `the server does not start again: "${firstLine(tail(logPath, 5))}"`;
      if (options.verbose) console.error(error.message);
    }
    const unsyncedAppFiles = appFiles.length
      ? `; files of the app's own that were never fsync'ed: ${appFiles.map((file) => file.split(path.sep).slice(1).join('/')).join(', ')}`
      : '';
    return { ok: !problem, line: `${summary}; ${problem ?? 'came back, admin signs in'}${unsyncedAppFiles}` };
  } finally {
    api.close();
    if (server.isRunning()) await server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Cycles of the app on LazyFS: the real thing, or (unsafeCommit) control B. */
async function runMall({ label, unsafeCommit, random, binaries }) {
  const slug = label.replace(/[^a-z0-9]+/gi, '-');
  const workDir = makeWorkDir(`super-mall-power-cut-${slug}-`);
  const lazy = new LazyFs({ ...binaries, workDir, cacheSize: options['cache-size'] });
  const { mainJs } = copyBuiltServer(`power-cut-${slug}-`);
  const stats = {
    cycles: 0,
    acknowledged: 0,
    acknowledgedImages: 0,
    inDoubt: 0,
    checked: 0,
    lost: 0,
    lostImages: 0,
    problems: 0,
    droppedBytes: 0,
    restarts: [],
    firstStart: undefined,
  };
  const dataDir = dataDirOn(lazy.mountPoint, slug);
  const cluster = clusterOf(dataDir);
  const env = await serverEnvironment(workDir, dataDir);
  const logPath = path.join(workDir, 'server.log');
  const server = new Server({ label, mainJs, env, logPath });
  const api = new Api(server.port);
  const model = emptyModel();
  try {
    const mountMs = await lazy.mount();
    console.log(
      `[${label}] LazyFS mounted on ${lazy.mountPoint} in ${seconds(mountMs)} (cache ${options['cache-size']}, no eviction)`,
    );

    if (!unsafeCommit && !options['skip-first-start']) {
      const result = await firstStartCheck(lazy, workDir, mainJs);
      stats.firstStart = result;
      console.log(`[${label}] ${result.ok ? 'ok' : 'FAILED'}: ${result.line}`);
      if (!result.ok) stats.problems += 1;
    }

    const firstStart = await server.start(FIRST_START_TIMEOUT_MS);
    await registerAccount(api, ADMIN_ACCOUNT);
    // LazyFS never writes back what is not fsync'ed; a kernel would have within ~30 s (see the header).
    fsyncPath(path.join(dataDir, 'postgres.secret'));
    let client = await embeddedClient(dataDir, 'mall');
    if (unsafeCommit) {
      await client.query('alter database mall set synchronous_commit = off');
      await client.end();
      const code = await server.stop();
      if (code !== 0) throw new HarnessError(`[${label}] the server stopped with ${code}:\n${tail(logPath)}`);
      await server.start(RESTART_TIMEOUT_MS);
      api.reconnect(server.port);
      await ensureAdmin(api, ADMIN);
      client = await embeddedClient(dataDir, 'mall');
    }
    const settings = await settingsOf(client);
    await client.end();
    console.log(
      `[${label}] server ready in ${seconds(firstStart)} on port ${server.port}, MALL_DATA_DIR on LazyFS; ` +
        `a session on database mall sees ${Object.entries(settings)
          .map(([name, value]) => `${name}=${value}`)
          .join(', ')}` +
        `${unsafeCommit ? " (ALTER DATABASE mall SET synchronous_commit = off: the launcher's check, on database postgres, passed)" : ''}`,
    );
    if (unsafeCommit && settings.synchronous_commit !== 'off')
      throw new HarnessError(
        `[${label}] synchronous_commit is ${settings.synchronous_commit} on database mall: the control would test nothing`,
      );
    if (
      !unsafeCommit &&
      (settings.fsync !== 'on' || settings.synchronous_commit !== 'on' || settings.full_page_writes !== 'on')
    )
      throw new HarnessError(`[${label}] the server runs with ${JSON.stringify(settings)}`);

    // A few floors and categories to rename, delete and upload plans to from the first cycle on.
    const seedPlanner = new Planner(model, random, 'seed');
    for (const kind of ['createFloor', 'createCategory']) {
      for (let n = 0; n < 6; n++) {
        const name = seedPlanner.name(kind === 'createFloor' ? 'PC Floor' : 'PC Category');
        const op = {
          kind,
          method: 'POST',
          path: kind === 'createFloor' ? '/api/floors' : '/api/categories',
          body: { name },
          name,
        };
        const record = await perform(api, op);
        if (record.status !== 201)
          throw new HarnessError(
            `${op.method} ${op.path}: HTTP ${record.status} ${JSON.stringify(record.body)}`,
          );
        applyAcknowledged(model, record);
        stats.acknowledged += 1;
      }
    }

    for (let cycle = 1; cycle <= cycles; cycle++) {
      if (isInterrupted()) break;
      const planner = new Planner(model, random, `c${cycle}`);
      const killAt = random.int(KILL_WINDOW_MS[0], KILL_WINDOW_MS[1]);
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      // Checkpoints meanwhile (PostgreSQL makes one every 5 min, or when the WAL grows): so that cuts also
      // land in the middle of one — data files half written back, pg_control about to change.
      const checkpoints = { done: 0, running: true };
      const checkpointer = (async () => {
        const client = await embeddedClient(dataDir, 'mall');
        try {
          while (checkpoints.running) {
            await sleep(random.int(20, 250));
            if (!checkpoints.running) break;
            await client.query('checkpoint');
            checkpoints.done += 1;
          }
        } finally {
          await client.end().catch(() => {});
        }
      })().catch(() => {});
      const { records, processes } = await burst(api, planner, killAt, () => {
        checkpoints.running = false;
        return cutProcesses([server.pid], cluster);
      });
      await exited;
      await checkpointer;
      const dropped = await lazy.unsynced();
      await lazy.clearCache();
      await lazy.unmount();
      await lazy.mount();
      stats.droppedBytes += dropped.bytes;

      const acknowledged = records.filter((record) => is2xx(record.status));
      const unanswered = records.filter((record) => record.status === undefined);
      const failed = records.filter((record) => record.status !== undefined && record.status >= 500);
      const lost = [];
      const lostImages = [];
      const broken = failed.map(
        (record) =>
          `${record.op.method} ${record.op.path}: HTTP ${record.status} before the cut: ${JSON.stringify(record.body).slice(0, 200)}`,
      );
      for (const record of acknowledged) applyAcknowledged(model, record);
      for (const record of [...unanswered, ...failed]) applyInDoubt(model, record);

      let restartMs;
      try {
        restartMs = await server.start(RESTART_TIMEOUT_MS);
      } catch (error) {
        if (!(error instanceof HarnessError)) throw error;
        console.log(
          `[${label}] cut ${cycle}/${cycles} at ${killAt} ms: THE SERVER DOES NOT START AGAIN: "${firstLine(tail(logPath, 5))}"`,
        );
        if (options.verbose) console.error(error.message);
        stats.problems += 1;
        stats.notStarting = firstLine(tail(logPath, 5));
        stats.cycles = cycle;
        stats.acknowledged += acknowledged.length;
        break;
      }
      stats.restarts.push(restartMs);
      api.reconnect(server.port);
      const signedIn = await ensureAdmin(api, ADMIN);
      const checkStart = performance.now();
      const checked = await checkAll(api, model, lost, lostImages, broken);
      const checkMs = performance.now() - checkStart;

      const images = acknowledged.filter((record) => record.op.kind === 'uploadPlan').length;
      stats.cycles = cycle;
      stats.acknowledged += acknowledged.length;
      stats.acknowledgedImages += images;
      stats.inDoubt += unanswered.length;
      stats.checked += checked;
      stats.lost += lost.length;
      stats.lostImages += lostImages.length;
      stats.problems += broken.length;
      const verdict =
        lost.length + lostImages.length + broken.length === 0
          ? 'ok'
          : [
              lost.length && `${lost.length} LOST`,
              lostImages.length && `${lostImages.length} IMAGES LOST`,
              broken.length && `${broken.length} other problems`,
            ]
              .filter(Boolean)
              .join(', ');
      console.log(
        `[${label}] cut ${String(cycle).padStart(String(cycles).length)}/${cycles} at ${String(killAt).padStart(4)} ms: ` +
          `${records.length} sent, ${acknowledged.length} acknowledged (${images} uploads), ${unanswered.length} cut off; ` +
          `${checkpoints.done} checkpoints; ${processes} processes stopped and killed; LazyFS dropped ${describeDropped(dropped)}; ` +
          `restart ${seconds(restartMs)}${signedIn ? ' (signed in again)' : ''}; checked ${checked} in ${seconds(checkMs)}: ${verdict}`,
      );
      if (options.verbose) {
        const byKind = new Map();
        for (const record of acknowledged)
          byKind.set(record.op.kind, [...(byKind.get(record.op.kind) ?? []), record.ms]);
        console.log(
          `    acknowledged, by kind (count, slowest): ${[...byKind].map(([kind, ms]) => `${kind} ${ms.length} ${Math.round(Math.max(...ms))} ms`).join(', ')}`,
        );
      }
      const lines = [...lost, ...lostImages, ...broken];
      const shown = options.verbose ? lines : lines.slice(0, 8);
      for (const line of shown) console.log(`    ${line}`);
      if (shown.length < lines.length)
        console.log(`    … and ${lines.length - shown.length} more (--verbose)`);
    }

    if (server.isRunning()) {
      // Still healthy and writable after the last cut, and it stops cleanly.
      const after = await api.send('POST', '/api/categories', { name: `PC Category after the cuts ${seed}` });
      if (after.status !== 201) {
        console.log(`[${label}] a write after the last restart answered HTTP ${after.status}`);
        stats.problems += 1;
      }
      const code = await server.stop();
      if (code !== 0) {
        console.log(`[${label}] the server stopped with exit code ${code}`);
        stats.problems += 1;
      }
    }
  } catch (error) {
    if (error instanceof HarnessError && options.verbose) console.error(tail(logPath, 40));
    throw error;
  } finally {
    api.close();
    if (server.isRunning()) await server.kill();
    killPostgresProcesses(cluster);
    await lazy.unmount().catch((error) => console.error(`[${label}] ${error.message}`));
    removeWorkDir(workDir);
  }
  return stats;
}

// ---------------------------------------------------------------------------------------------------
// Control A: PostgreSQL from the npm binaries with fsync and synchronous_commit off, rows with pg.

function npmPostgresBin() {
  const bin = embeddedPostgresBin();
  if (!fs.existsSync(path.join(bin, 'postgres')))
    throw new HarnessError(`${bin}/postgres is missing: run "npm install"`);
  return bin;
}

const asNobody = (program, args) => ({
  file: 'setpriv',
  args: [`--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups', '--', program, ...args],
});

class RawPostgres {
  constructor({ bin, cluster, socketDir, logPath }) {
    Object.assign(this, { bin, cluster, socketDir, logPath });
    this.child = undefined;
  }

  async start(extra = [], timeoutMs = RESTART_TIMEOUT_MS) {
    const { file, args } = asNobody(path.join(this.bin, 'postgres'), [
      '-D',
      this.cluster,
      '-c',
      'listen_addresses=',
      '-c',
      `unix_socket_directories=${this.socketDir}`,
      '-c',
      'port=5432',
      '-c',
      'logging_collector=off',
      ...extra,
    ]);
    const log = fs.openSync(this.logPath, 'a');
    const child = spawn(file, args, {
      cwd: '/',
      detached: true,
      env: { PATH: process.env.PATH, LC_ALL: 'C', TZ: 'UTC' },
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.child = child;
    const started = performance.now();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        const lines = tail(this.logPath, 30).split('\n');
        const cause = lines.filter((line) => /PANIC|FATAL/.test(line)).pop() ?? lines.pop();
        throw new HarnessError(`PostgreSQL exited while starting: ${cause}`);
      }
      if (performance.now() - started > timeoutMs)
        throw new HarnessError(`PostgreSQL did not accept connections within ${seconds(timeoutMs)}`);
      const client = this.client();
      try {
        await client.connect();
        await client.query('select 1');
        await client.end();
        return performance.now() - started;
      } catch {
        await client.end().catch(() => {});
      }
      await sleep(50);
    }
  }

  client() {
    const client = new pg.Client({ host: this.socketDir, port: 5432, user: 'mall', database: 'postgres' });
    client.on('error', () => {});
    return client;
  }

  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    signal(child.pid, 'SIGINT');
    await exited;
  }
}

async function runRawControl(random, binaries) {
  const label = 'control A';
  const workDir = makeWorkDir('super-mall-power-cut-control-a-');
  const lazy = new LazyFs({ ...binaries, workDir, cacheSize: options['cache-size'] });
  const stats = { cycles: 0, acknowledged: 0, lost: 0, corrupted: undefined, emptyLockFiles: 0 };
  const dataDir = path.join(lazy.mountPoint, 'data');
  const cluster = path.join(dataDir, 'postgres');
  const socketDir = path.join(workDir, 'socket');
  const bin = npmPostgresBin();
  const postgres = new RawPostgres({ bin, cluster, socketDir, logPath: path.join(workDir, 'postgres.log') });
  try {
    await lazy.mount();
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    fs.mkdirSync(cluster, { mode: 0o700 });
    fs.chownSync(cluster, NOBODY.uid, NOBODY.gid);
    fs.mkdirSync(socketDir, { mode: 0o700 });
    fs.chownSync(socketDir, NOBODY.uid, NOBODY.gid);
    const { file, args } = asNobody(path.join(bin, 'initdb'), [
      '-D',
      cluster,
      '-U',
      'mall',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
      '--lc-messages=C',
    ]);
    execFileSync(file, args, {
      cwd: '/',
      env: { PATH: process.env.PATH, LC_ALL: 'C', TZ: 'UTC' },
      stdio: 'pipe',
    });
    // Safely first: the table, and the unsafe settings written by PostgreSQL itself (ALTER SYSTEM writes
    // postgresql.auto.conf durably), then a clean shutdown (a checkpoint, fsync'ed): the cycles start
    // from a durable cluster.
    await postgres.start(['-c', 'fsync=on', '-c', 'synchronous_commit=on']);
    let client = postgres.client();
    await client.connect();
    await client.query(
      'create table power_cut_control (cycle int not null, writer int not null, seq int not null, payload text not null, primary key (cycle, writer, seq))',
    );
    await client.query('alter system set fsync = off');
    await client.query('alter system set synchronous_commit = off');
    await client.end();
    await postgres.stop();
    const autoConf = fs
      .readFileSync(path.join(cluster, 'postgresql.auto.conf'), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    console.log(
      `[${label}] PostgreSQL (npm binaries, as nobody) on LazyFS; postgresql.auto.conf: ${autoConf.join(', ')}`,
    );

    /** Acknowledged rows not yet found lost: "cycle/writer/seq". */
    const acknowledged = new Set();
    for (let cycle = 1; cycle <= cycles; cycle++) {
      if (isInterrupted()) break;
      const startMs = await postgres.start();
      client = postgres.client();
      await client.connect();
      const { rows } = await client.query(
        `select name, setting from pg_settings where name in ('fsync', 'synchronous_commit') order by name`,
      );
      await client.end();
      const settings = Object.fromEntries(rows.map((row) => [row.name, row.setting]));
      if (settings.fsync !== 'off' || settings.synchronous_commit !== 'off')
        throw new HarnessError(
          `[${label}] PostgreSQL runs with ${JSON.stringify(settings)}: the control would test nothing`,
        );

      const killAt = random.int(KILL_WINDOW_MS[0], KILL_WINDOW_MS[1]);
      let stop = false;
      const acked = [];
      const writer = async (w) => {
        const c = postgres.client();
        try {
          await c.connect();
        } catch {
          return;
        }
        for (let seq = 1; !stop; seq++) {
          try {
            await c.query('insert into power_cut_control values ($1, $2, $3, $4)', [
              cycle,
              w,
              seq,
              `row ${cycle}/${w}/${seq}`,
            ]);
            acked.push(`${cycle}/${w}/${seq}`);
          } catch {
            break;
          }
        }
        await c.end().catch(() => {});
      };
      const started = performance.now();
      const writers = Array.from({ length: CONTROL_WRITERS }, (_, w) => writer(w + 1));
      await sleep(Math.max(0, killAt - (performance.now() - started)));
      stop = true;
      const exited = new Promise((resolve) => postgres.child.once('exit', resolve));
      const processes = await cutProcesses([postgres.child.pid], cluster);
      await exited;
      await Promise.all(writers);
      for (const key of acked) acknowledged.add(key);
      const dropped = await lazy.unsynced();
      await lazy.clearCache();
      await lazy.unmount();
      await lazy.mount();
      stats.cycles = cycle;
      stats.acknowledged += acked.length;
      let restartMs;
      let note = '';
      try {
        try {
          restartMs = await postgres.start();
        } catch (error) {
          // With fsync off, postmaster.pid is not fsync'ed either: it comes back empty and PostgreSQL
          // refuses to start ("lock file is empty … the remnant of a previous server startup crash").
          // Removed, as an operator would, to see what is left of the acknowledged rows.
          if (!/lock file "postmaster\.pid" is empty/.test(error.message)) throw error;
          fs.rmSync(path.join(cluster, 'postmaster.pid'), { force: true });
          stats.emptyLockFiles += 1;
          note = ' (postmaster.pid came back empty: removed)';
          restartMs = await postgres.start();
        }
      } catch (error) {
        stats.corrupted = error.message;
        console.log(
          `[${label}] cut ${cycle}/${cycles} at ${killAt} ms: ${acked.length} rows acknowledged; ${processes} processes killed; ` +
            `LazyFS dropped ${describeDropped(dropped)}; THE CLUSTER DOES NOT START AGAIN: ${error.message}`,
        );
        break;
      }
      client = postgres.client();
      await client.connect();
      const present = new Set(
        (
          await client.query(`select cycle || '/' || writer || '/' || seq as key from power_cut_control`)
        ).rows.map((row) => row.key),
      );
      await client.end();
      let lostNow = 0;
      for (const key of acknowledged) {
        if (present.has(key)) continue;
        lostNow += 1;
        acknowledged.delete(key);
      }
      stats.lost += lostNow;
      console.log(
        `[${label}] cut ${cycle}/${cycles} (started in ${seconds(startMs)}) at ${killAt} ms: ${acked.length} rows acknowledged; ${processes} processes killed; ` +
          `LazyFS dropped ${describeDropped(dropped)}; restart ${seconds(restartMs)}${note}; ` +
          `${lostNow} acknowledged rows ${lostNow ? 'LOST' : 'lost'} (${acknowledged.size} acknowledged rows present)`,
      );
      await postgres.stop();
    }
  } finally {
    if (postgres.child && postgres.child.exitCode === null && postgres.child.signalCode === null)
      await cutProcesses([postgres.child.pid], cluster);
    await lazy.unmount().catch((error) => console.error(`[${label}] ${error.message}`));
    removeWorkDir(workDir);
  }
  return stats;
}

// ---------------------------------------------------------------------------------------------------

const binaries = requirements();
const watchdog = startWatchdog('power-cut', (options.unsafe ? 2 : 1) * (240_000 + cycles * 120_000));

const random = makeRandom(seed);
const runStarted = performance.now();
let exitCode = 0;
try {
  if (!options.unsafe) {
    console.log(
      `power-cut: ${cycles} power cut${cycles > 1 ? 's' : ''} of the app on the embedded database on LazyFS (${binaries.binary}), ` +
        `seed ${seed}, Node ${process.version}${withImages ? '' : ', no image uploads'}`,
    );
    const stats = await runMall({ label: 'embedded', unsafeCommit: false, random, binaries });
    const restarts = stats.restarts.length
      ? `, restart after a cut ${seconds(Math.min(...stats.restarts))}–${seconds(Math.max(...stats.restarts))}`
      : '';
    console.log(
      `power-cut: ${stats.cycles} cuts in ${seconds(performance.now() - runStarted)}: ${stats.acknowledged} acknowledged changes ` +
        `(${stats.acknowledgedImages} plan uploads), ${stats.inDoubt} cut off; LazyFS dropped ${(stats.droppedBytes / 1e6).toFixed(1)} MB unsynced in all${restarts}; ` +
        `checked ${stats.checked} times after the cuts: ${stats.lost} database changes lost, ${stats.lostImages} acknowledged uploads lost, ` +
        `${stats.problems} other problems${stats.firstStart ? ` (first start: ${stats.firstStart.ok ? 'ok' : 'FAILED'})` : ''}`,
    );
    if (stats.lost + stats.lostImages + stats.problems > 0 || stats.cycles < cycles) exitCode = 1;
  } else {
    console.log(
      `power-cut --unsafe: the controls, ${cycles} cut${cycles > 1 ? 's' : ''} each, seed ${seed}, Node ${process.version}`,
    );
    const a = await runRawControl(random, binaries);
    const b = await runMall({ label: 'control B', unsafeCommit: true, random, binaries });
    const aTeeth = a.lost > 0 || a.corrupted !== undefined;
    // Database changes only: the image files are lost whatever the setting (see the doc).
    const bTeeth = b.lost > 0 || b.notStarting !== undefined;
    console.log(
      `power-cut --unsafe: control A (fsync=off, synchronous_commit=off): ${a.cycles} cuts, ${a.acknowledged} rows acknowledged, ` +
        `${a.lost} lost${a.emptyLockFiles ? ` (postmaster.pid came back empty ${a.emptyLockFiles}×: removed)` : ''}` +
        `${a.corrupted ? `, then the cluster did not start: ${a.corrupted}` : ''}; ` +
        `control B (the app, synchronous_commit=off): ${b.cycles} cuts, ${b.acknowledged} acknowledged changes, ${b.lost} database changes lost` +
        `${b.notStarting ? `, then the server did not start: ${b.notStarting}` : ''}; ` +
        `${aTeeth && bTeeth ? 'both lost acknowledged changes: the method detects them' : 'A CONTROL LOST NOTHING: the method would prove nothing'} ` +
        `(${seconds(performance.now() - runStarted)})`,
    );
    if (!aTeeth || !bTeeth) exitCode = 1;
  }
} catch (error) {
  if (error instanceof HarnessError) console.error(`power-cut: ${error.message}`);
  else console.error(error);
  exitCode = 1;
} finally {
  clearTimeout(watchdog);
}
process.exit(exitCode);
