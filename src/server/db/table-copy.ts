// Copies every table of schema `public` from one PostgreSQL into another, exactly: each table's rows in
// COPY text format (PostgreSQL's own rendering of every type, read back by the same code: timestamps keep
// their microseconds, numeric its digits, bytea, jsonb and arrays their bytes), the sequences set to the
// source's values. Used by db/pglite-move.ts (a PGlite data folder of an earlier release moved into the
// embedded server) and ops/backup.ts (the embedded database's backups and restores).
//
// The target is filled in one transaction, under `session_replication_role = replica` (no trigger and no
// foreign-key check fires: the rows come from a consistent database; generated columns are computed as
// usual and left out of the copy), so a failure leaves it as it was and a repeated copy gives the same
// result. Drizzle's own table (schema `drizzle`) is not copied: the target's records its own migrations.

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { type MigrationMeta, readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

// Beside this file in the sources, beside the bundle in dist/server (as in migrate.ts).
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** A mismatch between the data and this release's tables, for the operator as is. */
export class TableCopyError extends Error {}

/** A table of schema public and the columns the copy carries (generated columns are left out). */
export interface TableLayout {
  name: string;
  columns: string[];
}

export interface SequenceValue {
  name: string;
  /** bigint as text. */
  lastValue: string;
  isCalled: boolean;
}

/** One of drizzle's records of an applied migration (its journal's `when` is `createdAt`). */
export interface AppliedMigration {
  hash: string;
  createdAt: number;
}

/** What a database holds, besides its rows. */
export interface DatabaseLayout {
  tables: TableLayout[];
  sequences: SequenceValue[];
  migrations: AppliedMigration[];
}

/** Runs one statement, returns its rows: a `pg` client, or PGlite. */
export type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export const queryOf =
  (client: pg.ClientBase | pg.Pool): Query =>
  async (text, params) =>
    (await client.query(text, params)).rows;

/**
 * The session settings both sides of a copy use, so that the text a COPY writes is read back as it was
 * meant (a timestamp with time zone is written in the session's zone, an interval in its style…).
 */
const COPY_SETTINGS: Record<string, string> = {
  DateStyle: 'ISO, YMD',
  IntervalStyle: 'postgres',
  TimeZone: 'UTC',
  extra_float_digits: '3',
  bytea_output: 'hex',
};

/** Applies COPY_SETTINGS to the session (or, `local`, to the open transaction). */
export async function applyCopySettings(query: Query, local: boolean): Promise<void> {
  const names = Object.keys(COPY_SETTINGS);
  await query(
    `select ${names.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, ${local})`).join(', ')}`,
    names.flatMap((name) => [name, COPY_SETTINGS[name]]),
  );
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (table: string) => `public.${quoteIdent(table)}`;

/** `COPY public."t" ("a", "b") TO <target>` (STDOUT for a server, '/dev/blob' for PGlite). */
export function copyOutSql(table: TableLayout, target: 'STDOUT' | "'/dev/blob'" = 'STDOUT'): string {
  return `COPY ${qualified(table.name)} (${table.columns.map(quoteIdent).join(', ')}) TO ${target}`;
}

/** A table's rows, as COPY text, from a server (inside the caller's transaction). */
export function copyOut(client: pg.ClientBase, table: TableLayout): Readable & { rowCount: number } {
  return client.query(copyTo(copyOutSql(table)));
}

/** The tables and sequences of schema public, and drizzle's record of applied migrations. */
export async function readLayout(query: Query): Promise<DatabaseLayout> {
  const tables = (
    await query(
      `select c.relname::text as name,
              coalesce(json_agg(a.attname::text order by a.attnum)
                         filter (where a.attnum > 0 and not a.attisdropped and a.attgenerated = ''), '[]') as columns
         from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
         left join pg_attribute a on a.attrelid = c.oid
        where n.nspname = 'public' and c.relkind in ('r', 'p')
        group by c.relname
        order by c.relname`,
    )
  ).map((row) => ({ name: row.name as string, columns: row.columns as string[] }));
  const sequences: SequenceValue[] = [];
  const names = await query(
    `select c.relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  for (const { name } of names) {
    const [row] = await query(
      `select last_value::text as value, is_called from ${qualified(name as string)}`,
    );
    sequences.push({
      name: name as string,
      lastValue: row?.value as string,
      isCalled: row?.is_called === true,
    });
  }
  let migrations: AppliedMigration[] = [];
  const [present] = await query(`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (present?.present === true) {
    migrations = (
      await query(
        'select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by created_at, id',
      )
    ).map((row) => ({ hash: row.hash as string, createdAt: Number(row.created_at) }));
  }
  return { tables, sequences, migrations };
}

/** This release's migrations, in order. */
export function releaseMigrations(): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder });
}

/**
 * How many of this release's migrations the data was made at: its applied migrations must be the first
 * ones of this release's (compared as drizzle does, by their journal time). Newer data is refused.
 */
export function migrationLevel(
  applied: AppliedMigration[],
  release: MigrationMeta[] = releaseMigrations(),
): number {
  const known = new Set(release.map((migration) => migration.folderMillis));
  const unknown = applied.filter((migration) => !known.has(migration.createdAt));
  if (unknown.length > 0) {
    throw new TableCopyError(
      `it was made by a newer release of Super Mall (${unknown.length} database migration${unknown.length === 1 ? '' : 's'} this release does not have): use that release or a newer one`,
    );
  }
  const level = applied.length;
  const prefix = release.slice(0, level).map((migration) => migration.folderMillis);
  if (prefix.some((when, i) => when !== applied[i]?.createdAt)) {
    throw new TableCopyError(
      "its database migrations are not this release's first ones (some were skipped): it cannot be copied",
    );
  }
  return level;
}

/**
 * Applies migrations on a client inside the caller's transaction, recording them as drizzle's migrator
 * does (drizzle-orm's PgDialect.migrate), so that a later `runMigrations` finds them applied. Drizzle's
 * own migrator cannot be used here: it commits a transaction of its own.
 */
async function applyMigrations(client: pg.ClientBase, migrations: MigrationMeta[]): Promise<void> {
  await client.query('CREATE SCHEMA IF NOT EXISTS "drizzle"');
  await client.query(
    'CREATE TABLE IF NOT EXISTS "drizzle"."__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
  );
  for (const migration of migrations) {
    for (const statement of migration.sql) await client.query(statement);
    await client.query(
      'insert into "drizzle"."__drizzle_migrations" ("hash", "created_at") values ($1, $2)',
      [migration.hash, migration.folderMillis],
    );
  }
}

/** One table's rows in COPY text format, with the columns in `columns`' order. */
export interface TableCopy {
  table: string;
  data: Readable | Uint8Array;
}

export interface CopySource extends DatabaseLayout {
  /** Every table's COPY text, each table once, in any order. */
  copies(): AsyncIterable<TableCopy>;
  /** The row counts the copies must give (a backup's manifest), when known. */
  rows?: Record<string, number>;
}

/**
 * How the target's tables are made ready:
 * - `truncate`: the target already has this release's tables (migrated), and so must the source;
 * - `rebuild`: schemas public and drizzle are dropped and made again by this release's migrations up to
 *   the source's level, and after the copy the remaining migrations run: data of an older release comes
 *   in as that release had it and is then migrated — all in the same transaction.
 */
export type TargetMode = 'truncate' | 'rebuild';

/**
 * Replaces the contents of the target's public tables by the source's, in one transaction: a failure
 * leaves the target as it was. Returns the rows copied, by table.
 */
export async function replaceContents(
  pool: pg.Pool,
  source: CopySource,
  mode: TargetMode,
  /** Runs first inside the copy's transaction (a check that may refuse, a mark that commits with it). */
  inTransaction?: (client: pg.PoolClient) => Promise<void>,
): Promise<Record<string, number>> {
  const release = releaseMigrations();
  const level = migrationLevel(source.migrations, release);
  const client = await pool.connect();
  try {
    await client.query('begin');
    await inTransaction?.(client);
    const query = queryOf(client);
    await applyCopySettings(query, true);
    if (mode === 'rebuild') {
      await client.query('drop schema if exists "drizzle" cascade');
      await client.query('drop schema if exists public cascade');
      await client.query('create schema public');
      await applyMigrations(client, release.slice(0, level));
    } else if (level !== release.length) {
      throw new TableCopyError(
        `it was made at an older database version (${level} of this release's ${release.length} migrations) and was not migrated`,
      );
    }
    const target = await readLayout(query);
    if (mode === 'truncate' && target.migrations.length !== release.length) {
      throw new TableCopyError('the target database is not migrated to this release');
    }
    const tables = matchTables(source.tables, target.tables);

    await client.query('set local session_replication_role = replica');
    // Also after a rebuild: migrations seed rows (the catalogue's version…), which the source has its own of.
    if (target.tables.length > 0) {
      await client.query(
        `truncate ${target.tables.map((table) => qualified(table.name)).join(', ')} restart identity`,
      );
    }
    const counts: Record<string, number> = {};
    for await (const { table, data } of source.copies()) {
      const layout = tables.get(table);
      if (!layout) throw new TableCopyError(`it holds rows of a table it does not list (${table})`);
      if (table in counts) throw new TableCopyError(`it holds the rows of table ${table} twice`);
      const into = client.query(
        copyFrom(`COPY ${qualified(table)} (${layout.columns.map(quoteIdent).join(', ')}) FROM STDIN`),
      );
      await pipeline(data instanceof Uint8Array ? Readable.from([Buffer.from(data)]) : data, into);
      counts[table] = into.rowCount;
      const expected = source.rows?.[table];
      if (expected !== undefined && expected !== into.rowCount) {
        throw new TableCopyError(`table ${table} has ${into.rowCount} rows where ${expected} were expected`);
      }
    }
    const missing = [...tables.keys()].filter((table) => !(table in counts));
    if (missing.length > 0) throw new TableCopyError(`the rows of ${missing.join(', ')} are missing`);

    const targetSequences = new Set(target.sequences.map((sequence) => sequence.name));
    for (const sequence of source.sequences) {
      if (!targetSequences.has(sequence.name)) {
        throw new TableCopyError(`its sequence ${sequence.name} is not one of this release's`);
      }
      await client.query('select setval($1::regclass, $2::bigint, $3)', [
        qualified(sequence.name),
        sequence.lastValue,
        sequence.isCalled,
      ]);
    }
    if (mode === 'rebuild') {
      await client.query('set local session_replication_role = origin');
      await applyMigrations(client, release.slice(level));
    }
    await client.query('commit');
    return counts;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The target's tables by name, once both sides are found to have the same tables and columns. */
function matchTables(source: TableLayout[], target: TableLayout[]): Map<string, TableLayout> {
  const byName = new Map(target.map((table) => [table.name, table]));
  const problems: string[] = [];
  for (const table of source) {
    const into = byName.get(table.name);
    if (!into) {
      problems.push(`table ${table.name} is not one of this release's`);
      continue;
    }
    const columns = new Set(into.columns);
    const extra = table.columns.filter((column) => !columns.has(column));
    const lacking = into.columns.filter((column) => !table.columns.includes(column));
    if (extra.length > 0)
      problems.push(`${table.name} has columns this release's has not (${extra.join(', ')})`);
    if (lacking.length > 0) problems.push(`${table.name} lacks columns (${lacking.join(', ')})`);
  }
  const listed = new Set(source.map((table) => table.name));
  const absent = target.filter((table) => !listed.has(table.name)).map((table) => table.name);
  if (absent.length > 0) problems.push(`it has no table ${absent.join(', ')}`);
  if (problems.length > 0) {
    throw new TableCopyError(`its tables are not this release's at the same version: ${problems.join('; ')}`);
  }
  // The source's column order: its COPY text has them in that order.
  return new Map(source.map((table) => [table.name, table]));
}
