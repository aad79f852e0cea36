// Backup and restore round trips on the run's database (PGlite data directories, or PostgreSQL
// databases on the test server): every row of every table comes back identical.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hashPassword } from '../auth/passwords';
import { createSession } from '../auth/sessions';
import { type Database, openEmbedded, openPostgres } from '../db/client';
import { loadDemoData } from '../db/demo-data';
import {
  images,
  imageVariants,
  importRuns,
  importStagedRows,
  shops,
  signInAttempts,
  users,
} from '../db/schema';
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

const kind = inject('testDatabase');
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

// Each database's tests register only in the run on that database (npm run test:api runs both), so
// neither run reports the other's as skipped.
if (kind === 'pglite')
  describe('backup and restore of the embedded database', () => {
    async function embeddedSnapshot(dataDir: string): Promise<Snapshot> {
      const database = await openEmbedded({ dataDir: path.join(dataDir, 'pgdata') });
      try {
        return await snapshot(database.pool);
      } finally {
        await database.close();
      }
    }

    it(
      'restores every row of every table into a new data directory, identical',
      async () => {
        const source = path.join(root, 'source');
        fs.mkdirSync(source);
        const database = await openEmbedded({
          dataDir: path.join(source, 'pgdata'),
          loadDataDir: fs.readFileSync(inject('pgliteTemplatePath')),
        });
        let before: Snapshot;
        let pictures: Map<string, Buffer>;
        try {
          const store = fileImageStore(database.db, path.join(source, 'images'));
          await fillMall(database, store);
          before = await snapshot(database.pool);
          pictures = await pictureBytes(database.pool, store);
        } finally {
          await database.close();
        }
        expectFullMall(before);
        const sourceFiles = await fileImageStore(database.db, path.join(source, 'images')).count();
        expect(sourceFiles).toBeGreaterThan(100);

        const file = path.join(root, 'mall.tar.gz');
        const backup = await backupDatabase(parseEnv({ MALL_DATA_DIR: source }), file);
        expect(backup).toMatchObject({ kind: 'embedded', contents: { products: 150, users: 2 } });
        expect(detectBackupKind(fs.readFileSync(file).subarray(0, 8))).toBe('embedded');
        expect(fs.readdirSync(root).filter((name) => name.includes('partial'))).toEqual([]);

        const target = path.join(root, 'target');
        const restored = await restoreDatabase(parseEnv({ MALL_DATA_DIR: target }), file);
        expect(restored).toMatchObject({ kind: 'embedded', replaced: false, contents: { shops: 24 } });
        expect(await embeddedSnapshot(target)).toEqual(before);
        // The images came back: the same bytes are served for the same keys, and every file is there.
        await expectSamePictures(target, pictures, sourceFiles);
        // The lock was released: nothing is left behind but the database and its images.
        expect(fs.readdirSync(target).sort()).toEqual(['images', 'pgdata']);

        // Into a data directory that holds a database: refused without --force, replaced with it.
        await expectRejection(
          restoreDatabase(parseEnv({ MALL_DATA_DIR: source }), file),
          /already holds a database.*--force/,
        );
        const other = await openEmbedded({ dataDir: path.join(target, 'pgdata') });
        await other.pool.query('delete from products');
        await other.close();
        // A picture lost since the backup (its folder removed) is back after the restore.
        const [lost] = [...pictures.keys()];
        const lostKey = (lost as string).split('/')[0] as string;
        fs.rmSync(path.join(target, 'images', lostKey.slice(0, 2), lostKey), { recursive: true });
        const forced = await restoreDatabase(parseEnv({ MALL_DATA_DIR: target }), file, { force: true });
        expect(forced.replaced).toBe(true);
        expect(await embeddedSnapshot(target)).toEqual(before);
        await expectSamePictures(target, pictures, sourceFiles);
        expect(fs.readdirSync(target).sort()).toEqual(['images', 'pgdata']);

        // The backup file is not overwritten without --force.
        await expectRejection(
          backupDatabase(parseEnv({ MALL_DATA_DIR: source }), file),
          /already exists.*--force/,
        );
      },
      ROUND_TRIP_TIMEOUT,
    );

    async function expectSamePictures(dataDir: string, pictures: Map<string, Buffer>, files: number) {
      const database = await openEmbedded({ dataDir: path.join(dataDir, 'pgdata') });
      try {
        const store = fileImageStore(database.db, path.join(dataDir, 'images'));
        expect(await pictureBytes(database.pool, store)).toEqual(pictures);
        expect(await store.count()).toBe(files);
      } finally {
        await database.close();
      }
    }

    it('restores a backup of the database alone (made before images were carried)', async () => {
      const source = path.join(root, 'old-source');
      fs.mkdirSync(source);
      const database = await openEmbedded({
        dataDir: path.join(source, 'pgdata'),
        loadDataDir: fs.readFileSync(inject('pgliteTemplatePath')),
      });
      let dump: Uint8Array;
      try {
        await loadDemoData(database.db, mallToday(TEST_TIME_ZONE, new Date()));
        dump = await (database.dump as () => Promise<Uint8Array>)();
      } finally {
        await database.close();
      }
      const file = path.join(root, 'old.tar.gz');
      fs.writeFileSync(file, dump);
      const target = path.join(root, 'old-target');
      const restored = await restoreDatabase(parseEnv({ MALL_DATA_DIR: target }), file);
      expect(restored).toMatchObject({ kind: 'embedded', contents: { shops: 24, images: 0 } });
      expect(fs.readdirSync(target)).toEqual(['pgdata']);
    });

    it('refuses while a server holds the data directory, and explains bad input', async () => {
      const dir = path.join(root, 'busy');
      fs.mkdirSync(path.join(dir, 'pgdata'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'pgdata', 'PG_VERSION'), '17\n');
      // A live process other than this one holds the lock, as a running server would.
      fs.writeFileSync(path.join(dir, 'server.lock'), String(process.ppid));
      await expectRejection(
        backupDatabase(parseEnv({ MALL_DATA_DIR: dir }), path.join(root, 'busy.tar.gz')),
        /while a server uses it.*already using the data directory/,
      );
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
      // A crafted backup whose image entry would climb out of the images folder: refused, nothing written.
      const crafted = path.join(root, 'crafted.tar.gz');
      const pack = tar.pack();
      const written = pipeline(pack, createGzip(), fs.createWriteStream(crafted));
      pack.entry({ name: 'super-mall-backup.json' }, '{}');
      pack.entry({ name: 'database.tar.gz' }, Buffer.from([0x1f, 0x8b]));
      pack.entry({ name: 'images/../../outside.txt' }, 'escaped');
      pack.finalize();
      await written;
      await expectRejection(
        restoreDatabase(parseEnv({ MALL_DATA_DIR: empty }), crafted),
        /unexpected image file: images\/\.\.\/\.\.\/outside\.txt/,
      );
      expect(fs.existsSync(path.join(root, 'outside.txt'))).toBe(false);
      // None of these touched the target.
      expect(fs.existsSync(empty)).toBe(false);
    });
  });

if (kind === 'postgres')
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
