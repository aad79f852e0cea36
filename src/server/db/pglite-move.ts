// Moves the database of an earlier release, PGlite's data folder MALL_DATA_DIR/pgdata, into the embedded
// PostgreSQL server, once, at the first start of this release on that folder (start.ts calls it right
// after the migrations).
//
// PGlite (still installed for this alone) opens the old folder, the same migrations bring it to this
// release's tables, and every table of schema public is copied into the new server in one transaction
// (db/table-copy.ts: the target's tables truncated, then COPY text, then the sequences). Only after that
// commit is the old folder renamed aside (pgdata.pglite-moved-<UTC time>), never deleted: a crash
// between the commit and the rename makes the next start copy it again, which gives the same result.
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { syncFolderNow } from '../lib/durable-files';
import type { Database } from './client';
import { EmbeddedStartError } from './embedded-postgres';
import { runMigrations, type StartLog } from './migrate';
import {
  applyCopySettings,
  type CopySource,
  copyOutSql,
  migrationsFolder,
  readLayout,
  replaceContents,
} from './table-copy';

/** The data folder of the PGlite releases, inside MALL_DATA_DIR. */
export const pgliteFolder = (dataDir: string) => path.join(dataDir, 'pgdata');

/** The tables named in the log line. */
const MAIN_TABLES = ['users', 'shops', 'products', 'offers', 'categories', 'floors', 'images', 'audit_log'];

type PGliteInstance = import('@electric-sql/pglite').PGlite;

/** PGlite with the extensions the migrations create; loaded only when there is something to read. */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<PGliteInstance> {
  const [{ PGlite }, { pg_trgm }, { unaccent }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/unaccent'),
  ]);
  return PGlite.create({ ...options, extensions: { pg_trgm, unaccent } });
}

/** Reads every public table of a PGlite database as COPY text (each table's rows in memory at a time). */
export async function pgliteSource(db: PGliteInstance): Promise<CopySource> {
  const query = async (text: string, params?: unknown[]) =>
    (await db.query<Record<string, unknown>>(text, params)).rows;
  await applyCopySettings(query, false);
  const layout = await readLayout(query);
  return {
    ...layout,
    async *copies() {
      for (const table of layout.tables) {
        const result = await db.query(copyOutSql(table, "'/dev/blob'"));
        const blob = result.blob;
        yield { table: table.name, data: blob ? new Uint8Array(await blob.arrayBuffer()) : new Uint8Array() };
      }
    },
  };
}

function timestamp(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 14);
}

/** The embedded database's comment once a PGlite folder's contents were copied into it (same transaction). */
const MOVED_MARK = 'super-mall: moved in from PGlite';

/**
 * Inside the copy's transaction: refuses to empty a mall that did not come from PGlite (a `pgdata` folder
 * that reappeared — a rollback to the PGlite release, a folder renamed back — must never wipe the mall
 * the server has been keeping since), and marks the database as moved, with the copy. A start after a
 * crash between the copy's commit and the folder's renaming finds the mark and copies again (the same
 * contents).
 */
async function guardAndMark(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ name: string; note: string | null }>(
    `select datname as name, shobj_description(oid, 'pg_database') as note
       from pg_database where datname = current_database()`,
  );
  const { name, note } = rows[0] ?? { name: '', note: null };
  if (note !== MOVED_MARK) {
    const held = await client.query<{ n: string }>(
      'select (select count(*) from users) + (select count(*) from shops) + (select count(*) from categories) as n',
    );
    if (Number(held.rows[0]?.n ?? 0) > 0) {
      throw new Error(
        'the embedded server already holds a mall that did not come from this folder, and it is not emptied for it: move the pgdata folder out of MALL_DATA_DIR (restore a backup if you meant to go back to it)',
      );
    }
  }
  await client.query(`comment on database "${name.replaceAll('"', '""')}" is '${MOVED_MARK}'`);
}

/**
 * When MALL_DATA_DIR holds PGlite's data folder: copies it into `database` (the embedded server, migrated),
 * renames it aside and returns true. Else returns false at once.
 */
export async function moveFromPglite(database: Database, dataDir: string, log: StartLog): Promise<boolean> {
  const folder = pgliteFolder(dataDir);
  if (!fs.existsSync(path.join(folder, 'PG_VERSION'))) return false;
  const started = performance.now();
  log.info(
    { folder },
    'moving the PGlite database of an earlier release into the embedded PostgreSQL server',
  );

  let counts: Record<string, number>;
  try {
    const pglite = await openPglite({ dataDir: folder });
    try {
      const { drizzle } = await import('drizzle-orm/pglite');
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(drizzle(pglite), { migrationsFolder });
      counts = await replaceContents(database.pool, await pgliteSource(pglite), 'truncate', guardAndMark);
    } finally {
      await pglite.close();
    }
  } catch (error) {
    throw new EmbeddedStartError(
      `The PGlite database of an earlier release in ${path.resolve(folder)} could not be moved into the embedded PostgreSQL server: ` +
        `${error instanceof Error ? error.message : String(error)}. Nothing was moved, and the folder stays where it is (migrated to this release's tables).`,
    );
  }
  // Names kept unique as every start makes sure (a folder of a release older than the keys gets them).
  await runMigrations(database, log);
  await database.pool.query('analyze');

  const base = path.join(dataDir, `pgdata.pglite-moved-${timestamp(new Date())}`);
  let aside = base;
  for (let n = 2; fs.existsSync(aside); n++) aside = `${base}-${n}`;
  fs.renameSync(folder, aside);
  // The folder set aside for good: a power cut must not bring `pgdata` back under its old name.
  syncFolderNow(dataDir);

  const rows = Object.fromEntries(
    MAIN_TABLES.filter((table) => table in counts).map((table) => [table, counts[table]]),
  );
  const summary = Object.entries(rows)
    .map(([table, n]) => `${n} ${table}`)
    .join(', ');
  log.info(
    {
      rows,
      tables: Object.keys(counts).length,
      keptAside: path.resolve(aside),
      ms: Math.round(performance.now() - started),
    },
    `moved the PGlite database of an earlier release into the embedded PostgreSQL server (${summary}, all ${Object.keys(counts).length} tables); ` +
      `its old folder is kept as ${path.resolve(aside)}: remove it once you are satisfied`,
  );
  return true;
}
