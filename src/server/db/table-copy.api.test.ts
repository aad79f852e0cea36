// The table copy itself (db/table-copy.ts): values of every awkward type come through COPY text exactly,
// whatever the columns' order on each side; a copy that fails leaves the target as it was; data that is
// not this release's tables is refused. From an in-memory PGlite into a database of the run's embedded
// server (the role there is a superuser, as on the embedded database: session_replication_role needs it).
import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseUrlFor } from '../test/global-setup';
import { type Database, openPostgres } from './client';
import { openPglite, pgliteSource } from './pglite-move';
import { type CopySource, migrationsFolder, replaceContents, TableCopyError } from './table-copy';

const AWKWARD_COLUMNS = `id int primary key, at timestamptz, local timestamp, day date, amount numeric, ratio float8,
  small real, bytes bytea, doc jsonb, raw json, words text[], grid int[], span interval, note text, ref uuid,
  flag boolean, shout text generated always as (upper(note)) stored`;
/** The same columns in another order: the copy names its columns. */
const AWKWARD_COLUMNS_REORDERED = `note text, shout text generated always as (upper(note)) stored, flag boolean,
  ref uuid, span interval, grid int[], words text[], raw json, doc jsonb, bytes bytea, small real, ratio float8,
  amount numeric, day date, local timestamp, at timestamptz, id int primary key`;
const AWKWARD_ROWS = `
  (1, '2026-03-01 12:34:56.123456+05:30', '2026-03-01 00:00:00.000001', '2026-02-28', 12345678901234567890.123456789,
   1.0000000000000002, 3.4028235e38, '\\x00ff5c0a0d09'::bytea, '{"a": [1, 2.50, "x\\ty"], "b": null, "ü": "\\u00e9"}',
   '{ "kept":  "as written" , "dup": 1, "dup": 2 }', array['comma,here', 'quote"here', 'back\\slash', null, ''],
   array[1, null, 3], '1 year 2 mons 3 days 04:05:06.789', E'tab\\there\\nnewline \\\\ backslash 🛍️ é', gen_random_uuid(), true),
  (2, 'infinity', '-infinity', 'infinity', 'NaN', 'NaN', '-Infinity', '\\x'::bytea, '[]', 'null', '{}', '{}',
   '-1 days -00:00:00.000001', '', null, false),
  (3, '0001-01-01 00:00:00+00 BC', null, null, -0.000000000000000000001, -0.0, 1.17549435e-38, null, '"just a string"',
   '1e400', array['\\N', 'NULL'], null, null, E'\\\\N', null, null),
  (4, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null)`;
const ROWS_AS_TEXT = `select row(id, at, local, day, amount, ratio, small, bytes, doc, raw::text, words, grid, span, note,
  ref, flag, shout)::text as row from public.awkward order by id`;

const created: string[] = [];
let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
});
afterAll(async () => {
  for (const name of created) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

/** A database migrated to this release (the run's template). */
async function migratedDatabase(): Promise<Database> {
  const name = `mall_copy_${randomBytes(5).toString('hex')}`;
  created.push(name);
  await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
  return openPostgres(databaseUrlFor(inject('postgresUrl'), name), 2);
}

/** PGlite with this release's tables and the awkward one, filled. */
async function awkwardPglite(): Promise<PGlite> {
  const pglite = await openPglite({});
  await migrate(drizzle(pglite), { migrationsFolder });
  await pglite.exec(`set timezone = 'Asia/Kolkata'; create table public.awkward (${AWKWARD_COLUMNS});
    insert into public.awkward values ${AWKWARD_ROWS};
    insert into categories (name) values ('Books');
    select nextval('audit_log_id_seq'), nextval('audit_log_id_seq');`);
  return pglite;
}

async function rowsOf(query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>) {
  await query(`set timezone = 'UTC'`);
  await query(`set extra_float_digits = 3`);
  return (await query(ROWS_AS_TEXT)).rows.map((row) => row.row);
}

describe('copying every public table with COPY text', () => {
  it('copies every awkward value exactly, whatever the order of the columns, and the sequences', async () => {
    const pglite = await awkwardPglite();
    const target = await migratedDatabase();
    try {
      await target.pool.query(`create table public.awkward (${AWKWARD_COLUMNS_REORDERED})`);
      const counts = await replaceContents(target.pool, await pgliteSource(pglite), 'truncate');
      expect(counts).toMatchObject({ awkward: 4, categories: 1, shops: 0 });
      const expected = await rowsOf((text) => pglite.query(text));
      expect(expected).toHaveLength(4);
      const client = await target.pool.connect();
      try {
        expect(await rowsOf((text) => client.query(text))).toEqual(expected);
      } finally {
        client.release(true);
      }
      // The sequence goes on from the source's value.
      const { rows } = await target.pool.query<{ id: string }>(
        `insert into audit_log (actor_email, entity_type, entity_name, action, changes)
           values ('a@example.com', 'shop', 'S', 'update', '{}') returning id::text`,
      );
      expect(rows[0]?.id).toBe('3');
    } finally {
      await pglite.close();
      await target.close();
    }
  });

  it('leaves the target as it was when a copy fails, and refuses tables that are not the same', async () => {
    const pglite = await awkwardPglite();
    const target = await migratedDatabase();
    try {
      await target.pool.query(`create table public.awkward (${AWKWARD_COLUMNS})`);
      await target.pool.query(`insert into categories (name) values ('Toys')`);
      const categories = async () =>
        (await target.pool.query<{ name: string }>('select name from categories order by name')).rows.map(
          (row) => row.name,
        );
      const source = await pgliteSource(pglite);

      // A table whose rows are not what was announced: everything rolled back, the truncate too.
      const wrongCount: CopySource = { ...source, rows: { awkward: 5 } };
      await expect(replaceContents(target.pool, wrongCount, 'truncate')).rejects.toThrow(
        /awkward has 4 rows where 5 were expected/,
      );
      expect(await categories()).toEqual(['Toys']);

      // A table the target does not have, a table it lacks, a missing table's rows.
      const extra: CopySource = {
        ...source,
        tables: [...source.tables, { name: 'stranger', columns: ['id'] }],
      };
      await expect(replaceContents(target.pool, extra, 'truncate')).rejects.toThrow(
        /table stranger is not one of this release's/,
      );
      const lacking: CopySource = {
        ...source,
        tables: source.tables.filter((table) => table.name !== 'awkward'),
      };
      await expect(replaceContents(target.pool, lacking, 'truncate')).rejects.toThrow(
        /it has no table awkward/,
      );
      const silent: CopySource = {
        ...source,
        async *copies() {
          for await (const copy of source.copies()) if (copy.table !== 'shops') yield copy;
        },
      };
      await expect(replaceContents(target.pool, silent, 'truncate')).rejects.toThrow(
        /the rows of shops are missing/,
      );
      // Made by a newer release.
      const newer: CopySource = {
        ...source,
        migrations: [...source.migrations, { hash: 'f'.repeat(64), createdAt: 4_102_444_800_000 }],
      };
      const refusal = await replaceContents(target.pool, newer, 'truncate').catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(TableCopyError);
      expect((refusal as Error).message).toMatch(/made by a newer release of Super Mall/);
      expect(await categories()).toEqual(['Toys']);
    } finally {
      await pglite.close();
      await target.close();
    }
  });
});
