// Category and floor names' keys in the database (docs/decisions/011): an upgrade from a database whose
// names were unique by lower(name) only — look-alikes included — starts, keys every name and says which
// ones look like older ones; rows written without the server get their keys at the next start.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Directory, expectError, openDirectory, uniqueName } from '../test/catalog-fixtures';
import { databaseUrlFor } from '../test/global-setup';
import { createTestApp, type TestApp } from '../test/harness';
import { type Database, openPostgres } from './client';
import { runMigrations } from './migrate';
import { placeNameKeys } from './place-name-keys';

const MIGRATIONS = path.join(import.meta.dirname, 'migrations');
/** The last migration before the keys: names unique by lower(name). */
const BEFORE_KEYS = '0004_sign_in_attempts_per_address';

/** A fresh, empty database on the run's server, and how to get rid of it. */
async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const serverUrl = inject('postgresUrl');
  const name = `mall_keys_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const database = await openPostgres(databaseUrlFor(serverUrl, name), 2);
  return {
    database,
    drop: async () => {
      await database.close();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Applies the migrations up to and including `last`, from a copy of the folder cut there. */
async function migrateUpTo(database: Database, last: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mall-migrations-'));
  try {
    fs.cpSync(MIGRATIONS, dir, { recursive: true });
    const journalFile = path.join(dir, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
    const end = journal.entries.findIndex((entry) => entry.tag === last);
    expect(end).toBeGreaterThanOrEqual(0);
    journal.entries = journal.entries.slice(0, end + 1);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    await migrate(drizzle(database.pool), { migrationsFolder: dir });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A logger that keeps what start-up warns about. */
function recordingLog() {
  const warnings: Array<{ lookAlike: { table: string; name: string; like: { name: string } | null } }> = [];
  return {
    warnings,
    log: {
      info: () => {},
      warn: (object: unknown) => {
        warnings.push(object as (typeof warnings)[number]);
      },
    },
  };
}

describe('an upgrade with look-alike names already stored', () => {
  it('starts, keys every name, and names the look-alikes until an admin settles them', async () => {
    const { database, drop } = await freshDatabase();
    try {
      await migrateUpTo(database, BEFORE_KEYS);
      const pool = database.pool;
      // Oldest first: the one that keeps its name's keys is the one that was there first.
      const insert = (table: string, name: string, age: number) =>
        pool.query(
          `insert into ${table} (name, created_at) values ($1, now() - make_interval(mins => $2)) returning id`,
          [name, age],
        );
      const electronics = (await insert('categories', 'Electronics', 50)).rows[0].id;
      await insert('categories', 'Electronic\u0455', 40); // Cyrillic dze
      await insert('categories', 'Electronics\u00AD', 30); // soft hyphen
      await insert('categories', 'Fashion', 20);
      await insert('floors', 'Ground', 20);
      await insert('floors', '\uFF27round', 10); // fullwidth G

      const { log, warnings } = recordingLog();
      await runMigrations(database, log);

      const keys = async (table: string) =>
        (
          await pool.query<{ name: string; name_key: string; name_glyph_key: string }>(
            `select name, name_key, name_glyph_key from ${table} order by created_at`,
          )
        ).rows;
      const keyed = (name: string) => {
        const { nameKey, nameGlyphKey } = placeNameKeys(name);
        return { name, name_key: nameKey, name_glyph_key: nameGlyphKey };
      };
      const pending = (name: string) => ({
        name,
        name_key: expect.stringMatching(/^pending:/),
        name_glyph_key: expect.stringMatching(/^pending:/),
      });
      expect(await keys('categories')).toEqual([
        keyed('Electronics'),
        pending('Electronic\u0455'),
        pending('Electronics\u00AD'),
        keyed('Fashion'),
      ]);
      expect(await keys('floors')).toEqual([keyed('Ground'), pending('\uFF27round')]);
      expect(
        warnings.map(({ lookAlike }) => [lookAlike.table, lookAlike.name, lookAlike.like?.name]),
      ).toEqual([
        ['categories', 'Electronic\u0455', 'Electronics'],
        ['categories', 'Electronics\u00AD', 'Electronics'],
        ['floors', '\uFF27round', 'Ground'],
      ]);

      // The database now refuses another look-alike, whoever writes it.
      const { nameKey, nameGlyphKey } = placeNameKeys('ELECTRONICS');
      await expect(
        pool.query('insert into categories (name, name_key, name_glyph_key) values ($1, $2, $3)', [
          'ELECTRONICS',
          nameKey,
          nameGlyphKey,
        ]),
      ).rejects.toMatchObject({ code: '23505' });

      // Every start says it again, and changes nothing, until an admin renames or deletes one.
      const again = recordingLog();
      await runMigrations(database, again.log);
      expect(again.warnings).toHaveLength(3);
      await pool.query('delete from categories where id = $1', [electronics]);
      const settled = recordingLog();
      await runMigrations(database, settled.log);
      expect(settled.warnings.map(({ lookAlike }) => lookAlike.name)).toEqual([
        'Electronics\u00AD',
        '\uFF27round',
      ]);
      expect((await keys('categories'))[0]).toEqual(keyed('Electronic\u0455'));
    } finally {
      await drop();
    }
  });
});

describe('rows written without the server', () => {
  let t: TestApp;
  let d: Directory;
  beforeAll(async () => {
    t = await createTestApp();
    d = await openDirectory(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('get the keys of their names at the next start: inserted by SQL, renamed by SQL', async () => {
    const pool = t.database.pool;
    const inserted = uniqueName('Electronics');
    await pool.query('insert into categories (name) values ($1)', [inserted]);
    const renamed = await d.floor();
    const newName = uniqueName('Ground');
    await pool.query('update floors set name = $1 where id = $2', [newName, renamed.id]);

    await runMigrations(t.database);

    const duplicate = (noun: string) => `A ${noun} with this name already exists`;
    const categoryLookAlike = `\u0395${inserted.slice(1)}`; // Greek capital epsilon
    expectError(
      await d.call(d.admin, 'POST', '/api/categories', { name: categoryLookAlike }),
      409,
      'DUPLICATE',
      duplicate('category'),
      'name',
    );
    expectError(
      await d.call(d.admin, 'POST', '/api/floors', { name: newName.toUpperCase() }),
      409,
      'DUPLICATE',
      duplicate('floor'),
      'name',
    );
    // The old name is free again.
    const old = await d.call(d.admin, 'POST', '/api/floors', { name: renamed.name });
    expect(old.statusCode, old.body).toBe(201);
  });
});
