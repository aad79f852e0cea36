// Backup and restore of the configured database (issue #6), shared by scripts/backup.ts and
// scripts/restore.ts and tested in backup.api.test.ts.
//
// - Embedded (PGlite): the backup is a gzip'd tarball holding PGlite's own gzip'd tarball of its data
//   directory (`dumpDataDir`, entry database.tar.gz) and the image files (MALL_DATA_DIR/images, entries
//   images/…), taken under the data directory's lock, so never while a server uses it. A restore opens
//   PGlite with `loadDataDir` on MALL_DATA_DIR/pgdata (which must be empty or missing unless `force`),
//   closes it, then puts the images in place. A backup made before images were carried (PGlite's tarball
//   alone) still restores, without images.
// - PostgreSQL: `pg_dump --format=custom` of the DATABASE_URL database, and `pg_restore --clean
//   --if-exists --no-owner` into it, in one transaction. Both run online; the programs come from the
//   newest /usr/lib/postgresql/*/bin (else PATH).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, gunzipSync } from 'node:zlib';
import type pg from 'pg';
import tar from 'tar-stream';
import { IMAGE_KEY_PATTERN, IMAGE_VARIANT_PATTERN } from '../../shared/images';
import { openEmbedded, openPostgres } from '../db/client';
import { DataDirInUseError, lockDataDir } from '../db/data-dir-lock';
import { isInitialised, pgDataDir } from '../db/early-embedded';
import type { Env } from '../env';
import { openConfiguredDatabase } from '../start';

/** An expected failure: its message is for the operator, as is (no stack trace). */
export class BackupError extends Error {}

export type BackupKind = 'embedded' | 'postgres';

/** Rows in the tables an operator recognises; a table that does not exist is left out. */
export type Contents = Partial<Record<(typeof CONTENT_TABLES)[number], number>>;
const CONTENT_TABLES = ['users', 'categories', 'floors', 'shops', 'products', 'offers', 'images'] as const;

export interface BackupResult {
  kind: BackupKind;
  file: string;
  bytes: number;
  contents: Contents;
}

export interface RestoreResult {
  kind: BackupKind;
  file: string;
  contents: Contents;
  /** A database that held data was replaced (--force). */
  replaced?: boolean;
}

export interface BackupOptions {
  /** Overwrite an existing backup file. */
  force?: boolean;
}

export interface RestoreOptions {
  /** Replace a database that already holds data. */
  force?: boolean;
}

const quiet = { info: () => {} };

/** 'embedded' for a gzip'd tarball, 'postgres' for a pg_dump custom-format archive, else undefined. */
export function detectBackupKind(head: Uint8Array): BackupKind | undefined {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'embedded';
  if (head.length >= 5 && Buffer.from(head.subarray(0, 5)).toString('latin1') === 'PGDMP') return 'postgres';
  return undefined;
}

/** Counts rows of the tables in CONTENT_TABLES that exist. */
export async function countContents(pool: pg.Pool): Promise<Contents> {
  const contents: Contents = {};
  for (const table of CONTENT_TABLES) {
    const { rows } = await pool.query<{ present: boolean }>('select to_regclass($1) is not null as present', [
      `public.${table}`,
    ]);
    if (!rows[0]?.present) continue;
    const count = await pool.query<{ n: string }>(`select count(*)::text as n from public."${table}"`);
    contents[table] = Number(count.rows[0]?.n ?? 0);
  }
  return contents;
}

export function describeContents(contents: Contents): string {
  const parts = CONTENT_TABLES.filter((table) => contents[table] !== undefined).map(
    (table) => `${contents[table]} ${table}`,
  );
  return parts.length > 0 ? parts.join(', ') : 'no Super Mall tables';
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// ---------------------------------------------------------------------------------------------------
// Backup

export async function backupDatabase(
  env: Env,
  outFile: string,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const file = path.resolve(outFile);
  prepareOutput(file, options.force === true);
  return env.DATABASE_URL ? backupPostgres(env.DATABASE_URL, file) : backupEmbedded(env, file);
}

function prepareOutput(file: string, force: boolean) {
  const dir = path.dirname(file);
  if (!fs.existsSync(dir)) throw new BackupError(`The folder ${dir} does not exist: create it first.`);
  if (!fs.statSync(dir).isDirectory()) throw new BackupError(`${dir} is not a folder.`);
  if (fs.existsSync(file)) {
    if (fs.statSync(file).isDirectory()) throw new BackupError(`${file} is a folder; give a file name.`);
    if (!force) throw new BackupError(`${file} already exists. Pass --force to overwrite it.`);
  }
}

/** Writes to a temporary file beside `file`, then renames it: a failed backup never leaves half a file. */
async function writeAtomically(file: string, write: (temp: string) => Promise<void>): Promise<number> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
  try {
    await write(temp);
    const { size } = fs.statSync(temp);
    fs.renameSync(temp, file);
    return size;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

async function backupEmbedded(env: Env, file: string): Promise<BackupResult> {
  const pgDir = pgDataDir(env.MALL_DATA_DIR);
  if (!isInitialised(env.MALL_DATA_DIR)) {
    throw new BackupError(
      `There is no embedded database in ${path.resolve(pgDir)} (MALL_DATA_DIR=${env.MALL_DATA_DIR}): nothing to back up. ` +
        'Set MALL_DATA_DIR to the folder the server uses, or DATABASE_URL for PostgreSQL.',
    );
  }
  let opened: Awaited<ReturnType<typeof openConfiguredDatabase>>;
  try {
    opened = await openConfiguredDatabase(env, quiet, { demoData: false });
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      throw new BackupError(
        `Cannot back up the embedded database while a server uses it. ${error.message} ` +
          '(The embedded database serves one process at a time.)',
      );
    }
    throw error;
  }
  try {
    const contents = await countContents(opened.database.pool);
    const dump = opened.database.dump;
    if (!dump) throw new BackupError('The embedded database cannot be dumped.');
    const data = await dump();
    const imagesDir = path.join(env.MALL_DATA_DIR, 'images');
    const bytes = await writeAtomically(file, (temp) => writeEmbeddedBackup(temp, data, imagesDir));
    return { kind: 'embedded', file, bytes, contents };
  } finally {
    await opened.close();
  }
}

async function backupPostgres(url: string, file: string): Promise<BackupResult> {
  const contents = await withPostgres(url, countContents);
  const pgDump = findPgProgram('pg_dump');
  const { url: connection, env } = connectionFor(url);
  const bytes = await writeAtomically(file, async (temp) => {
    await runProgram(
      pgDump,
      ['--format=custom', '--no-password', `--file=${temp}`, `--dbname=${connection}`],
      env,
    );
  });
  return { kind: 'postgres', file, bytes, contents };
}

// ---------------------------------------------------------------------------------------------------
// Restore

export async function restoreDatabase(
  env: Env,
  inFile: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const file = path.resolve(inFile);
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist.`);
  if (!fs.statSync(file).isFile()) throw new BackupError(`${file} is not a file.`);
  const head = readHead(file, 8);
  const kind = detectBackupKind(head);
  if (!kind) {
    throw new BackupError(
      `${file} is not a Super Mall backup: expected a gzip'd embedded database (npm run backup without ` +
        'DATABASE_URL) or a pg_dump custom-format archive (with DATABASE_URL).',
    );
  }
  const target: BackupKind = env.DATABASE_URL ? 'postgres' : 'embedded';
  if (kind !== target) {
    throw new BackupError(
      kind === 'embedded'
        ? `${file} is a backup of the embedded database, but DATABASE_URL is set (PostgreSQL). ` +
            'Unset DATABASE_URL to restore it into MALL_DATA_DIR.'
        : `${file} is a PostgreSQL backup (pg_dump), but DATABASE_URL is not set. ` +
            'Set DATABASE_URL to the PostgreSQL database to restore it into.',
    );
  }
  return env.DATABASE_URL
    ? restorePostgres(env.DATABASE_URL, file, options.force === true)
    : restoreEmbedded(env, file, options.force === true);
}

function readHead(file: string, length: number): Uint8Array {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = fs.readSync(fd, buffer, 0, length, 0);
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/** Refuses a file that is not a whole gzip'd tarball of a PostgreSQL data directory, before touching anything. */
export function checkEmbeddedBackup(file: string, data: Uint8Array): void {
  let tar: Buffer;
  try {
    tar = gunzipSync(data);
  } catch (error) {
    throw new BackupError(
      `${file} is damaged or incomplete (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const names = tarEntryNames(tar);
  if (!names)
    throw new BackupError(`${file} is not a tarball of a database folder (damaged or another file).`);
  if (!names.some((name) => /(^|\/)PG_VERSION$/.test(name))) {
    throw new BackupError(`${file} is a tarball but not of a database folder (it has no PG_VERSION).`);
  }
}

/** Entry names of a ustar archive, or undefined when it is not one. */
function tarEntryNames(tar: Buffer): string[] | undefined {
  const names: string[] = [];
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return names;
    if (header.subarray(257, 262).toString('latin1') !== 'ustar') return undefined;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const prefix = field(345, 155);
    const name = field(0, 100);
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) return undefined;
    names.push(prefix ? `${prefix}/${name}` : name);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return names.length > 0 ? names : undefined;
}

// The embedded backup's own tarball (docs/decisions/020): a manifest, the database, the images.
const MANIFEST_ENTRY = 'super-mall-backup.json';
const DATABASE_ENTRY = 'database.tar.gz';
const IMAGES_PREFIX = 'images/';
/** images/<2 characters>/<key>/<variant>: nothing else is unpacked (a crafted name cannot climb out). */
const IMAGE_ENTRY = new RegExp(
  `^images/([A-Za-z0-9_-]{2})/(${IMAGE_KEY_PATTERN.source.slice(1, -1)})/(${IMAGE_VARIANT_PATTERN.source.slice(1, -1)})$`,
);

/** Every image file under `dir`, as "xx/<key>/<variant>" (half-written `.tmp` files left out). */
async function imageFiles(dir: string): Promise<string[]> {
  const list = async (folder: string) => {
    try {
      return (await fs.promises.readdir(folder)).filter((name) => !name.endsWith('.tmp')).sort();
    } catch {
      return [];
    }
  };
  const files: string[] = [];
  for (const prefix of await list(dir))
    for (const key of await list(path.join(dir, prefix)))
      for (const variant of await list(path.join(dir, prefix, key)))
        files.push(`${prefix}/${key}/${variant}`);
  return files;
}

async function writeEmbeddedBackup(temp: string, database: Uint8Array, imagesDir: string): Promise<void> {
  const pack = tar.pack();
  // Level 1: the database is gzip'd already and AVIF/WebP do not shrink; the wrapper only needs to be gzip.
  const written = pipeline(pack, createGzip({ level: 1 }), fs.createWriteStream(temp));
  const add = (name: string, bytes: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      pack.entry({ name, size: bytes.length, mtime: new Date(0) }, Buffer.from(bytes), (error) =>
        error ? reject(error) : resolve(),
      );
    });
  try {
    const files = await imageFiles(imagesDir);
    await add(
      MANIFEST_ENTRY,
      Buffer.from(JSON.stringify({ backup: 'super-mall-embedded', images: files.length })),
    );
    await add(DATABASE_ENTRY, database);
    for (const name of files)
      await add(`${IMAGES_PREFIX}${name}`, await fs.promises.readFile(path.join(imagesDir, name)));
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
  }
  await written;
}

/**
 * The database's tarball in a backup, its image files unpacked into `staged`. A backup of the database
 * alone (PGlite's tarball, as made before images were carried) is returned whole, with no images.
 */
async function readEmbeddedBackup(file: string, whole: Buffer, staged: string): Promise<Uint8Array> {
  let head: Buffer;
  try {
    // The first entry's header is enough to tell the two apart.
    head = gunzipSync(whole.subarray(0, Math.min(whole.length, 64 * 1024)), { finishFlush: 2 });
  } catch (error) {
    throw new BackupError(
      `${file} is damaged or incomplete (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (head.subarray(0, MANIFEST_ENTRY.length).toString('latin1') !== MANIFEST_ENTRY) return whole;
  let database: Buffer | undefined;
  const extract = tar.extract();
  try {
    const reading = pipeline(Readable.from([whole]), createGunzip(), extract);
    // why: leaving the loop early (a refused entry) ends the pipeline too; its failure is reported below
    reading.catch(() => {});
    for await (const entry of extract) {
      const { name, type } = entry.header;
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (type !== 'file') continue;
      if (name === DATABASE_ENTRY) {
        database = Buffer.concat(chunks);
        continue;
      }
      if (!name.startsWith(IMAGES_PREFIX)) continue;
      if (!IMAGE_ENTRY.test(name)) throw new BackupError(`${file} holds an unexpected image file: ${name}`);
      const target = path.join(staged, name.slice(IMAGES_PREFIX.length));
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.writeFile(target, Buffer.concat(chunks));
    }
    await reading;
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(
      `${file} is damaged or incomplete (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (!database) throw new BackupError(`${file} holds no database (damaged or another file).`);
  return database;
}

function isEmptyOrMissing(dir: string): boolean {
  if (!fs.existsSync(dir)) return true;
  return fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length === 0;
}

async function restoreEmbedded(env: Env, file: string, force: boolean): Promise<RestoreResult> {
  const whole = fs.readFileSync(file);
  const imagesDir = path.join(env.MALL_DATA_DIR, 'images');
  // The images are unpacked beside the data directory first, and put in place once the database is.
  const staged = `${imagesDir}.restoring-${process.pid}`;
  let data: Uint8Array;
  try {
    data = await readEmbeddedBackup(file, whole, staged);
  } catch (error) {
    fs.rmSync(staged, { recursive: true, force: true });
    throw error;
  }
  checkEmbeddedBackup(file, data);

  let release: () => void;
  try {
    release = lockDataDir(env.MALL_DATA_DIR);
  } catch (error) {
    fs.rmSync(staged, { recursive: true, force: true });
    if (error instanceof DataDirInUseError) {
      throw new BackupError(`Cannot restore while a server uses the embedded database. ${error.message}`);
    }
    throw error;
  }
  const pgDir = pgDataDir(env.MALL_DATA_DIR);
  let aside: string | undefined;
  try {
    if (!isEmptyOrMissing(pgDir)) {
      if (!force) {
        throw new BackupError(
          `${path.resolve(pgDir)} already holds a database. A restore goes only into an empty or new ` +
            'MALL_DATA_DIR; pass --force to replace that database with the backup.',
        );
      }
      // Kept until the backup is in place, and put back if the restore fails.
      aside = `${pgDir}.before-restore-${Date.now()}`;
      fs.renameSync(pgDir, aside);
    }
    fs.rmSync(pgDir, { recursive: true, force: true });

    let contents: Contents;
    try {
      const database = await openEmbedded({ dataDir: pgDir, loadDataDir: data });
      try {
        contents = await countContents(database.pool);
      } finally {
        await database.close();
      }
    } catch (error) {
      fs.rmSync(pgDir, { recursive: true, force: true });
      if (aside) {
        fs.renameSync(aside, pgDir);
        aside = undefined;
      }
      throw new BackupError(
        `Could not restore ${file}: ${error instanceof Error ? error.message : String(error)}` +
          (force ? ' (the database that was there is unchanged)' : ''),
      );
    }
    if (contents.shops === undefined) {
      fs.rmSync(pgDir, { recursive: true, force: true });
      if (aside) {
        fs.renameSync(aside, pgDir);
        aside = undefined;
      }
      throw new BackupError(`${file} holds a database, but not a Super Mall one (no shops table).`);
    }
    const replaced = aside !== undefined;
    if (aside) fs.rmSync(aside, { recursive: true, force: true });
    // The images that were there belonged to the database that was: the backup's replace them.
    fs.rmSync(imagesDir, { recursive: true, force: true });
    if (fs.existsSync(staged)) fs.renameSync(staged, imagesDir);
    return { kind: 'embedded', file, contents, replaced };
  } finally {
    fs.rmSync(staged, { recursive: true, force: true });
    release();
  }
}

async function restorePostgres(url: string, file: string, force: boolean): Promise<RestoreResult> {
  const existing = await withPostgres(url, countContents);
  const rows = Object.values(existing).reduce((sum, n) => sum + (n ?? 0), 0);
  if (rows > 0 && !force) {
    throw new BackupError(
      `The database in DATABASE_URL already holds a mall (${describeContents(existing)}). ` +
        'Pass --force to replace it with the backup.',
    );
  }
  const pgRestore = findPgProgram('pg_restore');
  const { url: connection, env } = connectionFor(url);
  await runProgram(
    pgRestore,
    [
      '--clean',
      '--if-exists',
      '--no-owner',
      // All or nothing: on any error the database is left as it was.
      '--single-transaction',
      '--exit-on-error',
      '--no-password',
      `--dbname=${connection}`,
      file,
    ],
    env,
  );
  const contents = await withPostgres(url, countContents);
  return { kind: 'postgres', file, contents, replaced: rows > 0 };
}

// ---------------------------------------------------------------------------------------------------
// PostgreSQL programs

const PG_ROOT = '/usr/lib/postgresql';

/** The newest /usr/lib/postgresql/<version>/bin/<program>, else the one on PATH, else a clear error. */
export function findPgProgram(program: 'pg_dump' | 'pg_restore'): string {
  let versions: string[] = [];
  try {
    versions = fs.readdirSync(PG_ROOT);
  } catch {
    // No Debian PostgreSQL packages: try PATH.
  }
  const found = versions
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    .map((name) => path.join(PG_ROOT, name, 'bin', program))
    .find((candidate) => fs.existsSync(candidate));
  if (found) return found;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, program);
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new BackupError(
    `${program} was not found under ${PG_ROOT}/*/bin or on PATH. Install the PostgreSQL client programs ` +
      '(Debian: apt-get install postgresql-client), in a version at least that of the server.',
  );
}

/** The URL without its password (which goes in PGPASSWORD instead: a command line is visible to `ps`). */
function connectionFor(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (url.password) {
    env.PGPASSWORD = decodeURIComponent(url.password);
    url.password = '';
  }
  return { url: url.toString(), env };
}

/** Hides the password of any connection URL in `text` (error messages may quote DATABASE_URL). */
function redact(text: string): string {
  return text.replace(/(postgres(?:ql)?:\/\/[^:/@\s]*:)[^@\s]*@/g, '$1***@');
}

function runProgram(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const name = path.basename(program);
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error) => reject(new BackupError(`${name} could not run: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      const how = code !== null ? `exit code ${code}` : `signal ${signal}`;
      let hint = '';
      if (/server version mismatch/i.test(output)) {
        hint = `\n${name} (${program}) is older than the server: install the client programs of the server's version or newer.`;
      }
      reject(new BackupError(`${name} failed (${how}):\n${redact(output.trim())}${hint}`));
    });
  });
}

async function withPostgres<T>(url: string, task: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const database = await openPostgres(url, 1);
  try {
    return await task(database.pool);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new BackupError(`Could not use the PostgreSQL database in DATABASE_URL: ${redact(message)}`);
  } finally {
    await database.close();
  }
}
