// Backup and restore round trips: the embedded database (every run on the embedded server: each test
// starts embedded servers of its own on temporary MALL_DATA_DIRs) and, with an external PostgreSQL
// (scripts/test-api.mjs --external or DATABASE_URL, where pg_dump matches the server), pg_dump/pg_restore
// on databases of that server. Every row of every table comes back identical.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { drizzle as pgliteDrizzle } from 'drizzle-orm/pglite';
import { migrate as pgliteMigrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashPassword } from '../auth/passwords';
import { createSession } from '../auth/sessions';
import { type Database, type Db, openEmbedded, openPostgres } from '../db/client';
import { loadDemoData } from '../db/demo-data';
import { runMigrations } from '../db/migrate';
import { openPglite } from '../db/pglite-move';
import * as schema from '../db/schema';
import {
  images,
  imageVariants,
  importRuns,
  importStagedRows,
  shops,
  signInAttempts,
  users,
} from '../db/schema';
import { applyCopySettings, migrationsFolder, type Query, readLayout } from '../db/table-copy';
import { parseEnv } from '../env';
import { mallToday } from '../lib/mall-time';
import { createOrPromoteAdmin } from '../modules/accounts/admin-accounts';
import { createInvite } from '../modules/accounts/invites';
import { databaseImageStore, fileImageStore, type ImageStore } from '../modules/images/store';
import { managerRepository } from '../modules/managers/repository';
import { databaseUrlFor } from '../test/global-setup';
import { TEST_TIME_ZONE } from '../test/harness';
import { performWrite } from '../write-path';
import { BackupError, backupDatabase, detectBackupKind, restoreDatabase } from './backup';

const server = inject('testServer');
const ROUND_TRIP_TIMEOUT = 240_000;

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'super-mall-backup-'));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});
/**
 * The demo mall with its pictures (kept in `images`: files embedded, rows in PostgreSQL), an admin with
 * a session and an invite, a user, and a failed sign-in: every table has rows.
 */
async function fillMall(database: Database, store: ImageStore) {
  const now = new Date();
  const summary = await loadDemoData(database.db, mallToday(TEST_TIME_ZONE, now), { images: store });
  const passwordHash = await hashPassword('secret-password');
  const [admin] = await database.db
    .insert(users)
    .values({ email: 'boss@example.com', role: 'admin', displayName: 'Boss', passwordHash, lastLogin: now })
    .returning({ id: users.id });
  if (!admin) throw new Error('no admin');
  const [shopper] = await database.db
    .insert(users)
    .values({ email: 'shopper@example.com', role: 'user', passwordHash })
    .returning({ id: users.id });
  if (!shopper) throw new Error('no shopper');
  await createSession(database.db, admin.id, now);
  await performWrite(database.db, { id: admin.id, email: 'boss@example.com' }, ({ tx }) =>
    createInvite(tx, admin.id, now),
  );
  // The shopper manages a shop, and another invite to manage it is open.
  const [shop] = await database.db.select({ id: shops.id }).from(shops).limit(1);
  if (!shop) throw new Error('no shop');
  const managers = managerRepository(database.db);
  await performWrite(database.db, { id: admin.id, email: 'boss@example.com' }, async ({ tx }) => {
    await managers.addManager(tx, shop.id, shopper.id, now);
    await managers.createInvite(tx, shop.id, admin.id, now);
  });
  // A picture whose variant's bytes are a row even on the embedded database (the table exists there too).
  const key = `${'a'.repeat(64)}-160x160`;
  await database.db.insert(images).values({ key, width: 160, height: 160 });
  await database.db
    .insert(imageVariants)
    .values({ imageKey: key, name: '160.webp', bytes: Buffer.from([0x52, 0x49, 0x46, 0x46]) });
  await database.db.update(shops).set({ logoImage: key }).where(eq(shops.id, shop.id));
  // A shop renamed and back: its passing address is kept as a redirect to it (migration 0016).
  const [renamed] = await database.db.select({ name: shops.name }).from(shops).where(eq(shops.id, shop.id));
  await database.db.update(shops).set({ name: 'Renamed for a while' }).where(eq(shops.id, shop.id));
  await database.db
    .update(shops)
    .set({ name: renamed?.name ?? 'Back' })
    .where(eq(shops.id, shop.id));
  // An event of the shop, repeating with an exception, waiting with a change (issue 35).
  await database.db.insert(schema.events).values({
    shopId: shop.id,
    title: 'Saturday market',
    placeKind: 'shop',
    placeShopId: shop.id,
    startDate: '2026-03-21',
    startTime: '10:00',
    endDate: '2026-03-21',
    endTime: '12:00',
    tags: ['market', 'food'],
    repeat: { freq: 'weekly', count: 6, except: ['2026-03-28'] },
    reviewState: 'pending',
    proposal: { title: 'Weekend market' },
    submittedBy: shopper.id,
    submittedAt: now,
  });
  // Insights' counts and a search synonym (issue 34).
  await database.db
    .insert(schema.insightCounts)
    .values({ day: '2026-03-01', hour: 14, metric: 'shop-view', subject: shop.id, n: 40 });
  await database.db.insert(schema.searchSynonyms).values({ term: 'loo', replacement: 'toilets' });
  // A finished import run, with its file (decision 022), and a run being written, with a staged row.
  const [running] = await database.db
    .insert(importRuns)
    .values({
      kind: 'shops',
      fileName: 'running.csv',
      content: 'name,category,floor\nStaged,Books,Ground\n',
      status: 'running',
      rowsTotal: 1,
      createdBy: admin.id,
      createdByEmail: 'boss@example.com',
      heartbeatAt: now,
    })
    .returning({ id: importRuns.id });
  await database.db.insert(importStagedRows).values({
    runId: running?.id as string,
    seq: 1,
    action: 'create',
    entityId: '00000000-0000-4000-8000-000000000001',
    entityName: 'Staged',
    values: { name: 'Staged' },
    changes: { name: { before: null, after: 'Staged' } },
  });
  await database.db.insert(importRuns).values({
    kind: 'shops',
    fileName: 'shops.csv',
    content: 'name,category,floor\n',
    status: 'done',
    rowsTotal: 0,
    result: { counts: { created: 0, updated: 0, unchanged: 0, refused: 0 } },
    createdBy: admin.id,
    createdByEmail: 'boss@example.com',
    finishedAt: now,
  });
  // An audit log entry (the log is backed up and restored with everything else).
  await createOrPromoteAdmin(database.db, 'boss@example.com', passwordHash);
  await database.db
    .insert(signInAttempts)
    .values({ email: 'shopper@example.com', address: '203.0.113.7', failures: 2 });
  return summary;
}

interface Snapshot {
  tables: Record<string, string[]>;
  sequences: string[];
  constraints: string[];
  indexes: string[];
}

/** Every row of every table (ordered by primary key, as JSON text), sequences, constraints and indexes. */
async function snapshot(pool: pg.Pool): Promise<Snapshot> {
  const { rows: tables } = await pool.query<{ schema: string; name: string }>(
    `select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
      order by 1, 2`,
  );
  const result: Snapshot = { tables: {}, sequences: [], constraints: [], indexes: [] };
  for (const { schema, name } of tables) {
    const qualified = `"${schema}"."${name}"`;
    const { rows: keys } = await pool.query<{ column: string }>(
      `select a.attname as column
         from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = $1::regclass and i.indisprimary
        order by array_position(i.indkey, a.attnum)`,
      [qualified],
    );
    const orderBy = keys.length > 0 ? keys.map((key) => `t."${key.column}"`).join(', ') : 't::text';
    const { rows } = await pool.query<{ row: string }>(
      `select row_to_json(t)::text as row from ${qualified} t order by ${orderBy}`,
    );
    result.tables[`${schema}.${name}`] = rows.map((row) => row.row);
  }
  result.sequences = (
    await pool.query<{ line: string }>(
      `select schemaname || '.' || sequencename || ' ' || coalesce(last_value::text, 'null') as line
         from pg_sequences order by 1`,
    )
  ).rows.map((row) => row.line);
  result.constraints = (
    await pool.query<{ line: string }>(
      `select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as line
         from pg_constraint where connamespace::regnamespace::text in ('public', 'drizzle') order by 1`,
    )
  ).rows.map((row) => row.line);
  result.indexes = (
    await pool.query<{ line: string }>(
      `select indexdef as line from pg_indexes where schemaname in ('public', 'drizzle') order by 1`,
    )
  ).rows.map((row) => row.line);
  return result;
}

/** A demo shop's logo and a product's photo: every variant's bytes, by "key/variant". */
async function pictureBytes(pool: pg.Pool, store: ImageStore): Promise<Map<string, Buffer>> {
  const { rows } = await pool.query<{ key: string }>(
    `(select logo_image as key from shops where logo_image is not null and name = 'Voltbay')
     union (select image from products where image is not null and name = 'Filter Coffee')`,
  );
  expect(rows).toHaveLength(2);
  const bytes = new Map<string, Buffer>();
  for (const { key } of rows) {
    for (const variant of ['160.webp', '160.avif', '480.webp', '1200.avif']) {
      const read = await store.read(key, variant);
      expect(read, `${key}/${variant}`).not.toBeNull();
      bytes.set(`${key}/${variant}`, read as Buffer);
    }
  }
  return bytes;
}

function expectFullMall(mall: Snapshot) {
  expect(mall.tables['public.products']).toHaveLength(150);
  expect(mall.tables['public.offers']).toHaveLength(20);
  expect(mall.tables['public.shops']).toHaveLength(24);
  expect(mall.tables['public.users']).toHaveLength(2);
  expect(mall.tables['drizzle.__drizzle_migrations']?.length).toBeGreaterThan(0);
  for (const [table, rows] of Object.entries(mall.tables)) expect(rows.length, table).toBeGreaterThan(0);
  expect(mall.constraints.some((line) => line.includes('products_offer_same_shop_fk'))).toBe(true);
}

async function expectRejection(promise: Promise<unknown>, message: RegExp) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BackupError);
  expect((error as Error).message).toMatch(message);
}

function newDataDir(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { mode: 0o755 });
  return dir;
}

/** Every entry of a (small) backup tarball, in order. */
async function readTar(file: string): Promise<{ name: string; data: Buffer }[]> {
  const entries: { name: string; data: Buffer }[] = [];
  const extract = tar.extract();
  const reading = pipeline(fs.createReadStream(file), createGunzip(), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    entries.push({ name: entry.header.name, data: Buffer.concat(chunks) });
  }
  await reading;
  return entries;
}

async function writeTar(file: string, entries: { name: string; data: Buffer | string }[]): Promise<void> {
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), fs.createWriteStream(file));
  for (const { name, data } of entries) pack.entry({ name }, data);
  pack.finalize();
  await written;
}

/** A copy of the migrations folder whose journal stops after `level` migrations (an older release's). */
function migrationsUpTo(level: number): string {
  const dir = fs.mkdtempSync(path.join(root, 'migrations-'));
  fs.cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, level);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

const RELEASE_MIGRATIONS = (
  JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  }
).entries.length;
/**
 * An older release's schema: without the import staging table (0014), the pins' triggers (0015) and the
 * public directory's slugs, store types and mall profile (0016).
 */
const OLDER_LEVEL = 14;
/** The tables the migrations since OLDER_LEVEL add (empty, or the mall profile's one default row, after a restore). */
const TABLES_SINCE_OLDER = [
  'import_staged_rows',
  'mall_profile',
  'shop_slug_redirects',
  'insight_counts',
  'search_synonyms',
  'events',
];

/**
 * The demo mall in a database at OLDER_LEVEL. The demo loader writes today's schema: the columns added
 * since (a category's store type, a shop's slug) are there while it runs, then gone, as the older
 * release had them.
 */
async function loadOlderDemoMall(query: Query, db: Db): Promise<void> {
  await query(`alter table categories add column schema_type text not null default 'Store'`);
  await query(`alter table shops add column slug text not null default ''`);
  // No events: that release had no events table.
  await loadDemoData(db, mallToday(TEST_TIME_ZONE, new Date()), { events: false });
  await query('alter table categories drop column schema_type');
  await query('alter table shops drop column slug');
}

/**
 * A restored older mall: every older table as it was (in its columns), the newer ones as migrated. The
 * catalogue version is the one row that moves: 0016 gives every shop its slug, a change to the directory.
 */
function expectOlderMallKept(after: Record<string, string>, before: Record<string, string>) {
  const {
    import_staged_rows,
    mall_profile,
    shop_slug_redirects,
    insight_counts,
    search_synonyms,
    events,
    catalog_version,
    ...kept
  } = after;
  expect([import_staged_rows, shop_slug_redirects, insight_counts, search_synonyms, events]).toEqual([
    '0 null',
    '0 null',
    '0 null',
    '0 null',
    '0 null',
  ]);
  expect(mall_profile).toMatch(/^1 [0-9a-f]{32}$/);
  expect(catalog_version).toMatch(/^1 [0-9a-f]{32}$/);
  const { catalog_version: _moved, ...older } = before;
  expect(kept).toEqual(older);
}

/** Each public table's columns in order, by table. */
async function columnsOf(query: Query): Promise<Record<string, string[]>> {
  const rows = await query(
    `select table_name as table, column_name as column from information_schema.columns
      where table_schema = 'public' order by table_name, ordinal_position`,
  );
  const columns: Record<string, string[]> = {};
  for (const row of rows) {
    const table = row.table as string;
    columns[table] = [...(columns[table] ?? []), row.column as string];
  }
  return columns;
}

/**
 * Row count and digest (each row as text, in order) of every public table, by name. With `only`, a table
 * it names is read in those columns alone (what an older release's backup had of it: a later migration's
 * columns left out).
 */
async function digests(query: Query, only?: Record<string, string[]>): Promise<Record<string, string>> {
  await applyCopySettings(query, false);
  const result: Record<string, string> = {};
  for (const { name } of (await readLayout(query)).tables) {
    const columns = only?.[name];
    const row = columns ? `row(${columns.map((column) => `t."${column}"`).join(', ')})::text` : 't::text';
    const [digest] = await query(
      `select count(*)::int as rows, md5(string_agg(${row}, ',' order by ${row})) as md5 from public."${name}" t`,
    );
    result[name] = `${digest?.rows} ${digest?.md5}`;
  }
  return result;
}

async function serverDigests(
  dataDir: string,
  only?: Record<string, string[]>,
): Promise<{ tables: Record<string, string>; migrations: number }> {
  const database = await openEmbedded(dataDir);
  try {
    const client = await database.pool.connect();
    try {
      const query: Query = async (text, params) => (await client.query(text, params)).rows;
      const migrations = (await readLayout(query)).migrations.length;
      return { tables: await digests(query, only), migrations };
    } finally {
      client.release(true);
    }
  } finally {
    await database.close();
  }
}

async function embeddedSnapshot(dataDir: string): Promise<Snapshot> {
  const database = await openEmbedded(dataDir);
  try {
    return await snapshot(database.pool);
  } finally {
    await database.close();
  }
}

async function expectSamePictures(dataDir: string, pictures: Map<string, Buffer>, files: number) {
  const database = await openEmbedded(dataDir);
  try {
    const store = fileImageStore(database.db, path.join(dataDir, 'images'));
    expect(await pictureBytes(database.pool, store)).toEqual(pictures);
    expect(await store.count()).toBe(files);
  } finally {
    await database.close();
  }
}

/** Nothing but the embedded database's files and the images: no staged images, no partial backup. */
function expectOnlyDatabaseFiles(dataDir: string) {
  expect(
    fs
      .readdirSync(dataDir)
      .filter((name) => !['images', 'postgres', 'postgres.secret', 'postgres.socket'].includes(name)),
  ).toEqual([]);
}

const IMAGE_KEY = `${'d'.repeat(43)}-160x160`;

if (server === 'embedded')
  describe('backup and restore of the embedded database', () => {
    it(
      'backs up while the server runs, and restores every row of every table and the images, identical',
      async () => {
        const source = newDataDir('source');
        const database = await openEmbedded(source);
        let before: Snapshot;
        let pictures: Map<string, Buffer>;
        let sourceFiles: number;
        const file = path.join(root, 'mall.tar.gz');
        try {
          await runMigrations(database);
          const store = fileImageStore(database.db, path.join(source, 'images'));
          await fillMall(database, store);
          before = await snapshot(database.pool);
          pictures = await pictureBytes(database.pool, store);
          sourceFiles = await store.count();
          expect(sourceFiles).toBeGreaterThan(100);

          // Online: the backup reaches the running server through its socket.
          const backup = await backupDatabase(parseEnv({ MALL_DATA_DIR: source }), file);
          expect(backup).toMatchObject({ kind: 'embedded', contents: { products: 150, users: 2 } });
          expect(detectBackupKind(fs.readFileSync(file).subarray(0, 8))).toBe('embedded');
          expect(fs.readdirSync(root).filter((name) => name.includes('partial'))).toEqual([]);
          // A restore is refused while a server runs on the folder.
          await expectRejection(
            restoreDatabase(parseEnv({ MALL_DATA_DIR: source }), file, { force: true }),
            /while a server uses the embedded database.*stop Super Mall first/,
          );
        } finally {
          await database.close();
        }
        expectFullMall(before);

        // Offline: the backup starts the database itself, and takes the same rows.
        const offline = path.join(root, 'offline.tar.gz');
        await backupDatabase(parseEnv({ MALL_DATA_DIR: source }), offline);
        const tableEntries = async (backup: string) =>
          (await readTar(backup)).filter((entry) => !entry.name.startsWith('super-mall-backup'));
        expect(await tableEntries(offline)).toEqual(await tableEntries(file));
        const entries = await readTar(file);
        expect(entries[0]?.name).toBe('super-mall-backup.json');
        const manifest = JSON.parse(entries[0]?.data.toString('utf8') as string);
        expect(manifest).toMatchObject({ backup: 'super-mall-embedded', format: 2, copy: 'text' });
        expect(manifest.migrations).toHaveLength(RELEASE_MIGRATIONS);
        expect(entries.filter((entry) => entry.name.startsWith('tables/'))).toHaveLength(
          manifest.tables.length,
        );

        // Into a new MALL_DATA_DIR.
        const target = path.join(root, 'target');
        const restored = await restoreDatabase(parseEnv({ MALL_DATA_DIR: target }), file);
        expect(restored).toMatchObject({ kind: 'embedded', replaced: false, contents: { shops: 24 } });
        expect(await embeddedSnapshot(target)).toEqual(before);
        await expectSamePictures(target, pictures, sourceFiles);
        expectOnlyDatabaseFiles(target);

        // Into a database that holds a mall: refused without --force, replaced with it.
        await expectRejection(
          restoreDatabase(parseEnv({ MALL_DATA_DIR: target }), file),
          /already holds a mall.*--force/,
        );
        const other = await openEmbedded(target);
        await other.pool.query('delete from products');
        await other.pool.query(`update shops set name = 'Renamed'`);
        await other.close();
        // A picture lost since the backup (its folder removed) is back after the restore.
        const [lost] = [...pictures.keys()];
        const lostKey = (lost as string).split('/')[0] as string;
        fs.rmSync(path.join(target, 'images', lostKey.slice(0, 2), lostKey), { recursive: true });
        const forced = await restoreDatabase(parseEnv({ MALL_DATA_DIR: target }), file, { force: true });
        expect(forced.replaced).toBe(true);
        expect(await embeddedSnapshot(target)).toEqual(before);
        await expectSamePictures(target, pictures, sourceFiles);
        expectOnlyDatabaseFiles(target);

        // The backup file is not overwritten without --force.
        await expectRejection(
          backupDatabase(parseEnv({ MALL_DATA_DIR: source }), file),
          /already exists.*--force/,
        );
      },
      ROUND_TRIP_TIMEOUT,
    );

    it(
      "restores an older release's backup migrated, and refuses a newer release's or a crafted one",
      async () => {
        // A database of an older release: its migrations, its mall.
        const older = newDataDir('older');
        const database = await openEmbedded(older);
        let before: Record<string, string>;
        let columns: Record<string, string[]>;
        const file = path.join(root, 'older.tar.gz');
        try {
          const { drizzle } = await import('drizzle-orm/node-postgres');
          const { migrate } = await import('drizzle-orm/node-postgres/migrator');
          await migrate(drizzle(database.pool), { migrationsFolder: migrationsUpTo(OLDER_LEVEL) });
          const client = await database.pool.connect();
          try {
            const query: Query = async (text, params) => (await client.query(text, params)).rows;
            await loadOlderDemoMall(query, database.db);
            await query(`insert into images (key, width, height) values ($1, 160, 160)`, [IMAGE_KEY]);
            before = await digests(query);
            columns = await columnsOf(query);
          } finally {
            client.release(true);
          }
          for (const table of TABLES_SINCE_OLDER) expect(before).not.toHaveProperty(table);
          await backupDatabase(parseEnv({ MALL_DATA_DIR: older }), file);
        } finally {
          await database.close();
        }

        const target = path.join(root, 'older-target');
        const restored = await restoreDatabase(parseEnv({ MALL_DATA_DIR: target }), file);
        expect(restored.contents).toMatchObject({ shops: 24, images: 1 });
        // Every row as the older release had it, in the columns it had; the tables since then empty
        // (the mall profile: its one row of defaults).
        const after = await serverDigests(target, columns);
        expect(after.migrations).toBe(RELEASE_MIGRATIONS);
        expectOlderMallKept(after.tables, before);

        // Made by a newer release (a migration this one does not have): refused, nothing touched.
        const entries = await readTar(file);
        const manifest = JSON.parse(entries[0]?.data.toString('utf8') as string);
        manifest.migrations.push({ hash: 'f'.repeat(64), createdAt: 4_102_444_800_000 });
        const newer = path.join(root, 'newer.tar.gz');
        await writeTar(newer, [
          { name: 'super-mall-backup.json', data: JSON.stringify(manifest) },
          ...entries.slice(1),
        ]);
        const untouched = path.join(root, 'untouched');
        await expectRejection(
          restoreDatabase(parseEnv({ MALL_DATA_DIR: untouched }), newer),
          /cannot be restored: it was made by a newer release of Super Mall/,
        );
        // A crafted image entry that would climb out of the images folder: refused, nothing written.
        const crafted = path.join(root, 'crafted.tar.gz');
        await writeTar(crafted, [
          ...entries,
          { name: `images/${IMAGE_KEY.slice(0, 2)}/${IMAGE_KEY}/160.webp`, data: 'fine' },
          { name: 'images/../../outside.txt', data: 'escaped' },
        ]);
        await expectRejection(
          restoreDatabase(parseEnv({ MALL_DATA_DIR: untouched }), crafted),
          /unexpected image file: images\/\.\.\/\.\.\/outside\.txt/,
        );
        expect(fs.existsSync(path.join(root, 'outside.txt'))).toBe(false);
        // A table's rows missing: refused.
        const partial = path.join(root, 'partial.tar.gz');
        await writeTar(
          partial,
          entries.filter((entry) => entry.name !== 'tables/shops.copy'),
        );
        await expectRejection(
          restoreDatabase(parseEnv({ MALL_DATA_DIR: untouched }), partial),
          /incomplete: tables\/shops\.copy missing/,
        );
        expect(fs.existsSync(untouched)).toBe(false);
        expect(fs.readdirSync(root).filter((name) => name.includes('restoring'))).toEqual([]);
      },
      ROUND_TRIP_TIMEOUT,
    );

    it(
      "restores the PGlite releases' backups: PGlite's tarball with the images, or alone",
      async () => {
        // As the last PGlite release made them: PGlite's gzip'd tarball of its data folder (dumpDataDir).
        const pglite: PGlite = await openPglite({});
        let before: Record<string, string>;
        let columns: Record<string, string[]>;
        let dump: Buffer;
        try {
          await pgliteMigrate(pgliteDrizzle(pglite), { migrationsFolder: migrationsUpTo(OLDER_LEVEL) });
          const db = pgliteDrizzle(pglite, { schema }) as unknown as Db;
          const query: Query = async (text, params) =>
            (await pglite.query<Record<string, unknown>>(text, params)).rows;
          await loadOlderDemoMall(query, db);
          await pglite.query(`insert into images (key, width, height) values ($1, 160, 160)`, [IMAGE_KEY]);
          await pglite.query(`update shops set logo_image = $1 where name = 'Voltbay'`, [IMAGE_KEY]);
          before = await digests(query);
          columns = await columnsOf(query);
          dump = Buffer.from(await ((await pglite.dumpDataDir('gzip')) as Blob).arrayBuffer());
        } finally {
          await pglite.close();
        }
        // Wrapped as the PGlite releases wrapped it: a manifest, database.tar.gz, the images.
        const wrapped = path.join(root, 'pglite.tar.gz');
        const picture = `images/${IMAGE_KEY.slice(0, 2)}/${IMAGE_KEY}/160.webp`;
        await writeTar(wrapped, [
          {
            name: 'super-mall-backup.json',
            data: JSON.stringify({ backup: 'super-mall-embedded', images: 1 }),
          },
          { name: 'database.tar.gz', data: dump },
          { name: picture, data: 'RIFF....WEBP' },
        ]);
        const target = path.join(root, 'pglite-target');
        const restored = await restoreDatabase(parseEnv({ MALL_DATA_DIR: target }), wrapped);
        expect(restored).toMatchObject({
          kind: 'embedded',
          replaced: false,
          contents: { shops: 24, images: 1 },
        });
        const after = await serverDigests(target, columns);
        expect(after.migrations).toBe(RELEASE_MIGRATIONS);
        expectOlderMallKept(after.tables, before);
        expect(fs.readFileSync(path.join(target, picture), 'utf8')).toBe('RIFF....WEBP');
        expectOnlyDatabaseFiles(target);

        // PGlite's tarball alone (made before images were carried).
        const alone = path.join(root, 'pglite-alone.tar.gz');
        fs.writeFileSync(alone, dump);
        const aloneTarget = path.join(root, 'pglite-alone-target');
        expect(await restoreDatabase(parseEnv({ MALL_DATA_DIR: aloneTarget }), alone)).toMatchObject({
          contents: { shops: 24 },
        });
        expect(fs.existsSync(path.join(aloneTarget, 'images'))).toBe(false);

        // A crafted one whose image entry would climb out: refused before anything is written.
        const crafted = path.join(root, 'pglite-crafted.tar.gz');
        await writeTar(crafted, [
          { name: 'super-mall-backup.json', data: '{}' },
          { name: 'database.tar.gz', data: Buffer.from([0x1f, 0x8b]) },
          { name: 'images/../../outside.txt', data: 'escaped' },
        ]);
        const empty = path.join(root, 'pglite-empty');
        await expectRejection(
          restoreDatabase(parseEnv({ MALL_DATA_DIR: empty }), crafted),
          /unexpected image file: images\/\.\.\/\.\.\/outside\.txt/,
        );
        expect(fs.existsSync(path.join(root, 'outside.txt'))).toBe(false);
        expect(fs.existsSync(empty)).toBe(false);
      },
      ROUND_TRIP_TIMEOUT,
    );

    it('explains bad input', async () => {
      const empty = path.join(root, 'empty');
      await expectRejection(
        backupDatabase(parseEnv({ MALL_DATA_DIR: empty }), path.join(root, 'empty.tar.gz')),
        /no embedded database/,
      );
      expect(fs.existsSync(path.join(root, 'empty.tar.gz'))).toBe(false);

      const notBackup = path.join(root, 'notes.txt');
      fs.writeFileSync(notBackup, 'hello');
      await expectRejection(
        restoreDatabase(parseEnv({ MALL_DATA_DIR: empty }), notBackup),
        /not a Super Mall/,
      );
      const pgDump = path.join(root, 'mall.dump');
      fs.writeFileSync(pgDump, 'PGDMP\u0001\u000e\u0000');
      await expectRejection(
        restoreDatabase(parseEnv({ MALL_DATA_DIR: empty }), pgDump),
        /PostgreSQL backup.*DATABASE_URL is not set/,
      );
      const truncated = path.join(root, 'truncated.tar.gz');
      fs.writeFileSync(truncated, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00]));
      await expectRejection(
        restoreDatabase(parseEnv({ MALL_DATA_DIR: empty }), truncated),
        /damaged or incomplete/,
      );
      await expectRejection(
        restoreDatabase(parseEnv({ MALL_DATA_DIR: empty }), path.join(root, 'missing.tar.gz')),
        /does not exist/,
      );
      const future = path.join(root, 'future.tar.gz');
      await writeTar(future, [
        {
          name: 'super-mall-backup.json',
          data: JSON.stringify({ backup: 'super-mall-embedded', format: 3 }),
        },
      ]);
      await expectRejection(
        restoreDatabase(parseEnv({ MALL_DATA_DIR: empty }), future),
        /newer release.*format 3/,
      );
      // None of these touched the target.
      expect(fs.existsSync(empty)).toBe(false);
    });
  });

// pg_dump must be at least the server's version: the Debian one a throwaway cluster (--external) is made of.
if (server === 'external')
  describe('backup and restore of a PostgreSQL database', () => {
    const serverUrl = inject('postgresUrl');
    const created: string[] = [];
    const admin = new pg.Client({ connectionString: serverUrl });

    beforeAll(async () => {
      await admin.connect();
    });
    afterAll(async () => {
      for (const name of created) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });

    async function newDatabase(template?: string): Promise<string> {
      const name = `mall_backup_${randomBytes(5).toString('hex')}`;
      created.push(name);
      await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
      return databaseUrlFor(serverUrl, name);
    }

    async function postgresSnapshot(url: string): Promise<Snapshot> {
      const database = await openPostgres(url, 1);
      try {
        return await snapshot(database.pool);
      } finally {
        await database.close();
      }
    }

    it(
      'restores every row of every table into a new database, identical',
      async () => {
        const sourceUrl = await newDatabase(inject('postgresTemplate'));
        const database = await openPostgres(sourceUrl, 2);
        let pictures: Map<string, Buffer>;
        try {
          const store = databaseImageStore(database.db);
          await fillMall(database, store);
          pictures = await pictureBytes(database.pool, store);
        } finally {
          await database.close();
        }
        const before = await postgresSnapshot(sourceUrl);
        expectFullMall(before);

        const file = path.join(root, 'mall.dump');
        const backup = await backupDatabase(parseEnv({ DATABASE_URL: sourceUrl }), file);
        expect(backup).toMatchObject({ kind: 'postgres', contents: { products: 150, users: 2 } });
        expect(detectBackupKind(fs.readFileSync(file).subarray(0, 8))).toBe('postgres');

        const targetUrl = await newDatabase();
        const restored = await restoreDatabase(parseEnv({ DATABASE_URL: targetUrl }), file);
        expect(restored).toMatchObject({ kind: 'postgres', replaced: false, contents: { shops: 24 } });
        expect(await postgresSnapshot(targetUrl)).toEqual(before);
        // The images came back with their rows: the same bytes are served for the same keys.
        const restoredDb = await openPostgres(targetUrl, 1);
        try {
          expect(await pictureBytes(restoredDb.pool, databaseImageStore(restoredDb.db))).toEqual(pictures);
        } finally {
          await restoredDb.close();
        }

        // Into a database that holds a mall: refused without --force, replaced with it.
        const changed = await openPostgres(targetUrl, 1);
        await changed.pool.query('delete from products');
        await changed.pool.query(`update shops set name = 'Renamed'`);
        await changed.close();
        await expectRejection(
          restoreDatabase(parseEnv({ DATABASE_URL: targetUrl }), file),
          /already holds a mall.*--force/,
        );
        const forced = await restoreDatabase(parseEnv({ DATABASE_URL: targetUrl }), file, { force: true });
        expect(forced.replaced).toBe(true);
        expect(await postgresSnapshot(targetUrl)).toEqual(before);
      },
      ROUND_TRIP_TIMEOUT,
    );

    it('explains a missing database, a damaged backup and one of the embedded database', async () => {
      await expectRejection(
        backupDatabase(
          parseEnv({ DATABASE_URL: databaseUrlFor(serverUrl, 'mall_backup_missing') }),
          path.join(root, 'missing.dump'),
        ),
        /Could not use the PostgreSQL database.*does not exist/,
      );
      expect(fs.existsSync(path.join(root, 'missing.dump'))).toBe(false);

      const targetUrl = await newDatabase();
      const truncated = path.join(root, 'truncated.dump');
      fs.writeFileSync(truncated, 'PGDMP\u0001\u000e\u0000');
      await expectRejection(
        restoreDatabase(parseEnv({ DATABASE_URL: targetUrl }), truncated),
        /pg_restore failed/,
      );
      const embedded = path.join(root, 'embedded.tar.gz');
      fs.writeFileSync(embedded, Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
      await expectRejection(
        restoreDatabase(parseEnv({ DATABASE_URL: targetUrl }), embedded),
        /backup of the embedded database, but DATABASE_URL is set/,
      );
    });
  });
