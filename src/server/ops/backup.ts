// Backup and restore of the configured database (issue #6), shared by scripts/backup.ts and
// scripts/restore.ts and tested in backup.api.test.ts.
//
// - Embedded (the PostgreSQL server the app starts on MALL_DATA_DIR, which has no pg_dump): the backup is
//   a gzip'd tarball holding a manifest (format, the migrations applied, every public table with its
//   columns and row count, the sequences' values), each table's rows in COPY text format
//   (tables/<name>.copy, db/table-copy.ts) and the image files (images/<2 chars>/<key>/<variant>).
//   It is taken online, in one REPEATABLE READ READ ONLY transaction, so it is consistent while the mall
//   runs: when a server runs on MALL_DATA_DIR (its postmaster.pid names a live process) the backup
//   connects to it through its socket with the password file; else it starts the embedded server itself,
//   as a start does (migrations; a PGlite folder of an earlier release moved in), and stops it after.
//   The image files are read after the tables: one removed during the backup may be missing from it.
// - Embedded restore: no server may be running on MALL_DATA_DIR (refused); the restore starts the
//   embedded server itself. Into an empty database, or with `force` one that holds a mall, in ONE
//   transaction: schemas public and drizzle made again by this release's migrations up to the backup's
//   level, every table copied in (no trigger or foreign-key check fires), the sequences set, then the
//   remaining migrations — a backup of an older release comes back migrated; one of a newer release (a
//   migration this release does not have) is refused before anything is touched. Then the image files,
//   staged beside MALL_DATA_DIR/images while the backup is read, replace that folder.
// - Backups of the PGlite releases (PGlite's own gzip'd tarball of its data folder, alone or as
//   database.tar.gz beside the images) still restore: the tarball is opened by an in-memory PGlite and
//   its tables copied the same way.
// - PostgreSQL (DATABASE_URL): `pg_dump --format=custom` of the DATABASE_URL database, and `pg_restore
//   --clean --if-exists --no-owner` into it, in one transaction. Both run online; the programs come from
//   the newest /usr/lib/postgresql/*/bin (else PATH).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, gunzipSync } from 'node:zlib';
import pg from 'pg';
import tar from 'tar-stream';
import { z } from 'zod';
import { IMAGE_KEY_PATTERN, IMAGE_VARIANT_PATTERN } from '../../shared/images';
import { type Database, openPostgres } from '../db/client';
import {
  DATABASE_NAME,
  DATABASE_ROLE,
  EmbeddedStartError,
  embeddedPaths,
  isInitialised,
} from '../db/embedded-postgres';
import { runMigrations } from '../db/migrate';
import { openPglite, pgliteFolder, pgliteSource } from '../db/pglite-move';
import {
  applyCopySettings,
  type CopySource,
  copyOut,
  migrationLevel,
  queryOf,
  readLayout,
  replaceContents,
  type SequenceValue,
  TableCopyError,
} from '../db/table-copy';
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

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

// ---------------------------------------------------------------------------------------------------
// The embedded server, for a backup or a restore

interface EmbeddedConnection {
  pool: pg.Pool;
  /** The server this process started (undefined: a running server's, reached through its socket). */
  database?: Database;
  close(): Promise<void>;
}

/** The server running on MALL_DATA_DIR's cluster, from its postmaster.pid, if its process is alive. */
function runningServer(dataDir: string): { pid: number; socketDir: string; port: number } | undefined {
  const pidFile = path.join(embeddedPaths(dataDir).cluster, 'postmaster.pid');
  let lines: string[];
  try {
    lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new BackupError(
      `Cannot tell whether a server uses the embedded database (${pidFile}: ${code}): run this as the user that runs Super Mall.`,
    );
  }
  const pid = Number.parseInt(lines[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined; // left by a crash
  }
  // postmaster.pid: pid, data folder, start time, port, socket folder, …
  return { pid, port: Number.parseInt(lines[3] ?? '', 10), socketDir: (lines[4] ?? '').trim() };
}

/**
 * A backup reaches a running server through its socket, else starts the embedded server as a start does;
 * a restore refuses a running server and starts it itself.
 */
async function connectEmbedded(env: Env, purpose: 'backup' | 'restore'): Promise<EmbeddedConnection> {
  const dataDir = env.MALL_DATA_DIR;
  const running = runningServer(dataDir);
  if (running && purpose === 'restore') {
    throw new BackupError(
      `Cannot restore while a server uses the embedded database in ${path.resolve(dataDir)} (PostgreSQL process ${running.pid}): stop Super Mall first.`,
    );
  }
  if (running) {
    let password: string;
    try {
      password = fs.readFileSync(embeddedPaths(dataDir).secret, 'utf8').trim();
    } catch (error) {
      throw new BackupError(
        `The embedded database's password file cannot be read (${(error as NodeJS.ErrnoException).code}): run this as the user that runs Super Mall.`,
      );
    }
    const pool = new pg.Pool({
      host: running.socketDir,
      port: running.port,
      user: DATABASE_ROLE,
      password,
      database: DATABASE_NAME,
      max: 1,
    });
    pool.on('error', () => {});
    try {
      await pool.query('select 1');
    } catch (error) {
      await pool.end().catch(() => {});
      throw new BackupError(
        `The server running on ${path.resolve(dataDir)} could not be reached: ${messageOf(error)}`,
      );
    }
    return { pool, close: () => pool.end() };
  }
  if (
    purpose === 'backup' &&
    !isInitialised(dataDir) &&
    !fs.existsSync(path.join(pgliteFolder(dataDir), 'PG_VERSION'))
  ) {
    throw new BackupError(
      `There is no embedded database in ${path.resolve(dataDir)} (MALL_DATA_DIR=${dataDir}): nothing to back up. ` +
        'Set MALL_DATA_DIR to the folder the server uses, or DATABASE_URL for PostgreSQL.',
    );
  }
  let database: Database;
  try {
    database = await openConfiguredDatabase(env, quiet, { demoData: false });
  } catch (error) {
    if (error instanceof EmbeddedStartError) throw new BackupError(error.message);
    throw error;
  }
  return { pool: database.pool, database, close: () => database.close() };
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
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

async function backupEmbedded(env: Env, file: string): Promise<BackupResult> {
  const connection = await connectEmbedded(env, 'backup');
  try {
    let manifest: Manifest | undefined;
    const imagesDir = path.join(env.MALL_DATA_DIR, 'images');
    const bytes = await writeAtomically(file, async (temp) => {
      manifest = await writeEmbeddedBackup(temp, connection.pool, imagesDir);
    });
    const contents: Contents = {};
    for (const table of manifest?.tables ?? []) {
      if ((CONTENT_TABLES as readonly string[]).includes(table.name)) {
        contents[table.name as keyof Contents] = table.rows;
      }
    }
    return { kind: 'embedded', file, bytes, contents };
  } finally {
    await connection.close();
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

// The embedded backup's tarball (docs/decisions/020): the manifest first, the tables, the images.
const MANIFEST_ENTRY = 'super-mall-backup.json';
/** This release's backup format; 1 was PGlite's tarball in database.tar.gz (still restored). */
const BACKUP_FORMAT = 2;
const TABLES_PREFIX = 'tables/';
const LEGACY_DATABASE_ENTRY = 'database.tar.gz';
const IMAGES_PREFIX = 'images/';
/** images/<2 characters>/<key>/<variant>: nothing else is unpacked (a crafted name cannot climb out). */
const IMAGE_ENTRY = new RegExp(
  `^images/([A-Za-z0-9_-]{2})/(${IMAGE_KEY_PATTERN.source.slice(1, -1)})/(${IMAGE_VARIANT_PATTERN.source.slice(1, -1)})$`,
);
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
const tableEntry = (table: string) => `${TABLES_PREFIX}${table}.copy`;

const ManifestSchema = z.object({
  backup: z.literal('super-mall-embedded'),
  format: z.literal(BACKUP_FORMAT),
  madeAt: z.string(),
  postgres: z.string().optional(),
  /** How the tables' rows are written: PostgreSQL's COPY text format, under db/table-copy.ts' settings. */
  copy: z.literal('text'),
  migrations: z.array(z.object({ hash: z.string(), createdAt: z.number().int() })),
  tables: z.array(
    z.object({
      name: z.string().regex(IDENTIFIER),
      columns: z.array(z.string().min(1)),
      rows: z.number().int().min(0),
    }),
  ),
  sequences: z.array(
    z.object({
      name: z.string().regex(IDENTIFIER),
      lastValue: z.string().regex(/^-?\d+$/),
      isCalled: z.boolean(),
    }),
  ),
  images: z.number().int().min(0),
});
type Manifest = z.infer<typeof ManifestSchema>;

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

/**
 * The tables' rows, read in one REPEATABLE READ READ ONLY transaction (consistent while the server runs),
 * each spooled to a file beside the backup (a tar entry's size comes first), then packed with the images.
 */
async function writeEmbeddedBackup(temp: string, pool: pg.Pool, imagesDir: string): Promise<Manifest> {
  fs.rmSync(`${temp}.tables`, { recursive: true, force: true });
  fs.mkdirSync(`${temp}.tables`);
  const spool = (table: string) => path.join(`${temp}.tables`, `${table}.copy`);
  try {
    const client = await pool.connect();
    let manifest: Manifest;
    try {
      await client.query('begin isolation level repeatable read read only');
      const query = queryOf(client);
      await applyCopySettings(query, true);
      const layout = await readLayout(query);
      if (!layout.tables.some((table) => table.name === 'shops')) {
        throw new BackupError('The embedded database holds no Super Mall tables: nothing to back up.');
      }
      const tables: Manifest['tables'] = [];
      for (const table of layout.tables) {
        const rows = copyOut(client, table);
        await pipeline(rows, fs.createWriteStream(spool(table.name)));
        tables.push({ ...table, rows: rows.rowCount });
      }
      const [version] = await query('show server_version');
      await client.query('commit');
      manifest = {
        backup: 'super-mall-embedded',
        format: BACKUP_FORMAT,
        madeAt: new Date().toISOString(),
        postgres: version?.server_version as string | undefined,
        copy: 'text',
        migrations: layout.migrations,
        tables,
        sequences: layout.sequences,
        images: 0,
      };
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    const files = await imageFiles(imagesDir);
    manifest.images = files.length;

    const pack = tar.pack();
    // Level 6: COPY text shrinks well; AVIF/WebP do not, and cost little to try.
    const written = pipeline(pack, createGzip({ level: 6 }), fs.createWriteStream(temp));
    const add = (name: string, size: number, source: Readable | Buffer) =>
      new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name, size, mtime: new Date(0) }, (error) =>
          error ? reject(error) : resolve(),
        );
        if (Buffer.isBuffer(source)) entry.end(source);
        else pipeline(source, entry).catch(reject);
      });
    try {
      const json = Buffer.from(JSON.stringify(manifest, null, 1));
      await add(MANIFEST_ENTRY, json.length, json);
      for (const table of manifest.tables) {
        const file = spool(table.name);
        await add(tableEntry(table.name), fs.statSync(file).size, fs.createReadStream(file));
      }
      for (const name of files) {
        let bytes: Buffer;
        try {
          bytes = await fs.promises.readFile(path.join(imagesDir, name));
        } catch (error) {
          // Removed since it was listed (the server runs): a picture nothing uses any more.
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw error;
        }
        await add(`${IMAGES_PREFIX}${name}`, bytes.length, bytes);
      }
      pack.finalize();
    } catch (error) {
      pack.destroy(error as Error);
    }
    await written;
    return manifest;
  } finally {
    fs.rmSync(`${temp}.tables`, { recursive: true, force: true });
  }
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

const damaged = (file: string, error: unknown) =>
  new BackupError(`${file} is damaged or incomplete (${messageOf(error)}).`);

/** Refuses a file that is not a whole gzip'd tarball of a PostgreSQL data directory, before touching anything. */
export function checkEmbeddedBackup(file: string, data: Uint8Array): void {
  let tar: Buffer;
  try {
    tar = gunzipSync(data);
  } catch (error) {
    throw damaged(file, error);
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

/**
 * Each entry of the backup's tarball, read from the file as it streams in. `visit` must consume the
 * entry's stream; returning false stops (the rest of the file is not read).
 */
async function readEntries(
  file: string,
  visit: (
    name: string,
    type: string | null | undefined,
    data: AsyncIterable<unknown>,
  ) => Promise<boolean | undefined>,
): Promise<void> {
  const extract = tar.extract();
  const reading = pipeline(fs.createReadStream(file), createGunzip(), extract);
  // why: leaving the loop early (a refused entry, or enough read) ends the pipeline too; its failure is
  // reported below
  reading.catch(() => {});
  let stopped = false;
  try {
    for await (const entry of extract) {
      if ((await visit(entry.header.name, entry.header.type, entry)) === false) {
        stopped = true;
        break;
      }
    }
    if (!stopped) await reading;
  } catch (error) {
    if (error instanceof BackupError || error instanceof TableCopyError) throw error;
    throw damaged(file, error);
  }
}

/** Reads an entry to its end, keeping nothing. */
async function skip(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) {
    // nothing kept
  }
}

async function drain(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What the first entry of an embedded backup says it is. */
type BackupFormat = { format: 'tables'; manifest: Manifest } | { format: 'pglite' };

async function readFormat(file: string): Promise<BackupFormat> {
  let first: { name: string; data?: Buffer } | undefined;
  await readEntries(file, async (name, _type, data) => {
    first = { name, data: name === MANIFEST_ENTRY ? await drain(data) : undefined };
    return false;
  });
  if (!first) throw new BackupError(`${file} is an empty tarball, not a Super Mall backup.`);
  // PGlite's tarball alone (a backup of the first PGlite releases): no manifest.
  if (!first.data) return { format: 'pglite' };
  let json: { backup?: unknown; format?: unknown };
  try {
    json = JSON.parse(first.data.toString('utf8'));
  } catch (error) {
    throw damaged(file, error);
  }
  // The PGlite releases' manifest had no format: their database is PGlite's tarball, database.tar.gz.
  if (json.format === undefined) return { format: 'pglite' };
  if (typeof json.format === 'number' && json.format > BACKUP_FORMAT) {
    throw new BackupError(
      `${file} was made by a newer release of Super Mall (backup format ${json.format}): restore it with that release or a newer one.`,
    );
  }
  const parsed = ManifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new BackupError(
      `${file} has a manifest this release cannot read (${parsed.error.issues[0]?.message}).`,
    );
  }
  return { format: 'tables', manifest: parsed.data };
}

/**
 * Pass one over a backup of this release's format: every entry is the manifest, a table it lists (each
 * once) or an image file (unpacked into `staged`); anything else refuses the backup before anything is
 * written but the staged images.
 */
async function checkTablesBackup(file: string, manifest: Manifest, staged: string): Promise<void> {
  const expected = new Set(manifest.tables.map((table) => tableEntry(table.name)));
  const seen = new Set<string>();
  let first = true;
  await readEntries(file, async (name, type, data) => {
    if (first) {
      first = false;
      await skip(data);
      return true;
    }
    if (type !== 'file') throw new BackupError(`${file} holds an unexpected entry: ${name}`);
    if (name.startsWith(TABLES_PREFIX)) {
      if (!expected.has(name) || seen.has(name))
        throw new BackupError(`${file} holds an unexpected entry: ${name}`);
      seen.add(name);
      await skip(data); // read in the second pass, into the database
      return true;
    }
    if (!name.startsWith(IMAGES_PREFIX)) throw new BackupError(`${file} holds an unexpected entry: ${name}`);
    if (!IMAGE_ENTRY.test(name)) throw new BackupError(`${file} holds an unexpected image file: ${name}`);
    const target = path.join(staged, name.slice(IMAGES_PREFIX.length));
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.writeFile(target, await drain(data));
    return true;
  });
  const missing = [...expected].filter((name) => !seen.has(name));
  if (missing.length > 0) throw new BackupError(`${file} is incomplete: ${missing.join(', ')} missing.`);
}

/** Pass two: the tables' rows, streamed from the file into the target as they come. */
function tablesSource(file: string, manifest: Manifest): CopySource {
  const byEntry = new Map(manifest.tables.map((table) => [tableEntry(table.name), table.name]));
  return {
    tables: manifest.tables.map(({ name, columns }) => ({ name, columns })),
    sequences: manifest.sequences as SequenceValue[],
    migrations: manifest.migrations,
    rows: Object.fromEntries(manifest.tables.map((table) => [table.name, table.rows])),
    async *copies() {
      const extract = tar.extract();
      const reading = pipeline(fs.createReadStream(file), createGunzip(), extract);
      reading.catch(() => {});
      for await (const entry of extract) {
        const table = byEntry.get(entry.header.name);
        // tar-stream's entries are streamx streams: made a Node stream for the COPY's pipeline.
        if (table) yield { table, data: Readable.from(entry) };
        else await skip(entry);
      }
      await reading;
    },
  };
}

/**
 * A backup of the PGlite releases: the database's tarball (PGlite's `dumpDataDir`), its image files
 * unpacked into `staged`. A backup of the database alone (PGlite's tarball, as made before images were
 * carried) is returned whole, with no images.
 */
async function readPgliteBackup(file: string, staged: string): Promise<Uint8Array> {
  const whole = fs.readFileSync(file);
  let head: Buffer;
  try {
    // The first entry's header is enough to tell the two apart.
    head = gunzipSync(whole.subarray(0, Math.min(whole.length, 64 * 1024)), { finishFlush: 2 });
  } catch (error) {
    throw damaged(file, error);
  }
  if (head.subarray(0, MANIFEST_ENTRY.length).toString('latin1') !== MANIFEST_ENTRY) return whole;
  let database: Buffer | undefined;
  await readEntries(file, async (name, type, data) => {
    const bytes = await drain(data);
    if (type !== 'file') return true;
    if (name === LEGACY_DATABASE_ENTRY) {
      database = bytes;
      return true;
    }
    if (!name.startsWith(IMAGES_PREFIX)) return true;
    if (!IMAGE_ENTRY.test(name)) throw new BackupError(`${file} holds an unexpected image file: ${name}`);
    const target = path.join(staged, name.slice(IMAGES_PREFIX.length));
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.writeFile(target, bytes);
    return true;
  });
  if (!database) throw new BackupError(`${file} holds no database (damaged or another file).`);
  return database;
}

/** PGlite, in memory, on a PGlite release's backup; closed by the caller. */
async function openPgliteBackup(file: string, data: Uint8Array) {
  checkEmbeddedBackup(file, data);
  let pglite: Awaited<ReturnType<typeof openPglite>>;
  try {
    pglite = await openPglite({ loadDataDir: new Blob([data as Uint8Array<ArrayBuffer>]) });
  } catch (error) {
    throw new BackupError(`Could not open the database in ${file}: ${messageOf(error)}`);
  }
  try {
    const source = await pgliteSource(pglite);
    if (!source.tables.some((table) => table.name === 'shops')) {
      throw new BackupError(`${file} holds a database, but not a Super Mall one (no shops table).`);
    }
    return { pglite, source };
  } catch (error) {
    await pglite.close();
    throw error;
  }
}

/** A backup of a newer release (a migration this release does not have) is refused. */
function checkMigrations(file: string, migrations: CopySource['migrations']): void {
  try {
    migrationLevel(migrations);
  } catch (error) {
    if (error instanceof TableCopyError)
      throw new BackupError(`${file} cannot be restored: ${error.message}.`);
    throw error;
  }
}

async function restoreEmbedded(env: Env, file: string, force: boolean): Promise<RestoreResult> {
  const imagesDir = path.join(env.MALL_DATA_DIR, 'images');
  // The images are unpacked beside their folder first, and put in place once the database is restored.
  const staged = `${imagesDir}.restoring-${process.pid}`;
  // A refused backup leaves no trace: not even the MALL_DATA_DIR its staged images made.
  const dataDirExisted = fs.existsSync(env.MALL_DATA_DIR);
  let pglite: Awaited<ReturnType<typeof openPglite>> | undefined;
  try {
    // Everything that can refuse the backup is checked before the database is touched.
    const format = await readFormat(file);
    let source: CopySource;
    if (format.format === 'tables') {
      if (!format.manifest.tables.some((table) => table.name === 'shops')) {
        throw new BackupError(`${file} holds a database, but not a Super Mall one (no shops table).`);
      }
      checkMigrations(file, format.manifest.migrations);
      await checkTablesBackup(file, format.manifest, staged);
      source = tablesSource(file, format.manifest);
    } else {
      const opened = await openPgliteBackup(file, await readPgliteBackup(file, staged));
      pglite = opened.pglite;
      source = opened.source;
      checkMigrations(file, source.migrations);
    }

    const connection = await connectEmbedded(env, 'restore');
    let contents: Contents;
    let replaced: boolean;
    try {
      const existing = await countContents(connection.pool);
      replaced = Object.values(existing).some((n) => (n ?? 0) > 0);
      if (replaced && !force) {
        throw new BackupError(
          `The embedded database in ${path.resolve(env.MALL_DATA_DIR)} already holds a mall (${describeContents(existing)}). ` +
            'A restore goes only into an empty or new MALL_DATA_DIR; pass --force to replace that database with the backup.',
        );
      }
      try {
        await replaceContents(connection.pool, source, 'rebuild');
      } catch (error) {
        if (error instanceof BackupError) throw error;
        throw new BackupError(
          `Could not restore ${file}: ${messageOf(error)}` +
            (replaced ? ' (the database that was there is unchanged)' : ''),
        );
      }
      // As a start would: names keyed (a backup older than the keys gets them), statistics made.
      if (connection.database) await runMigrations(connection.database);
      await connection.pool.query('analyze');
      contents = await countContents(connection.pool);
    } finally {
      await connection.close();
    }
    // The images that were there belonged to the database that was: the backup's replace them.
    fs.rmSync(imagesDir, { recursive: true, force: true });
    if (fs.existsSync(staged)) fs.renameSync(staged, imagesDir);
    return { kind: 'embedded', file, contents, replaced };
  } catch (error) {
    fs.rmSync(staged, { recursive: true, force: true });
    if (!dataDirExisted) {
      try {
        fs.rmdirSync(env.MALL_DATA_DIR); // only when empty: a database made meanwhile stays
      } catch {
        // not empty, or not there
      }
    }
    throw error;
  } finally {
    await pglite?.close();
    fs.rmSync(staged, { recursive: true, force: true });
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
