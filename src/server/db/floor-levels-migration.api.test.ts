// Migration 0008 gives the floors a database already has a level from their names: applied here to a
// database at migration 0007 holding floors named as malls name them (docs/decisions/018).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseUrlFor } from '../test/global-setup';
import { type Database, openPostgres } from './client';

const migrations = fileURLToPath(new URL('./migrations', import.meta.url));

/** A copy of the migrations folder that ends at 0007: the database as it was before floors had levels. */
function migrationsBefore0008(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mall-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta', '_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((entry: { idx: number }) => entry.idx < 8);
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries as Array<{ tag: string }>)
    fs.copyFileSync(path.join(migrations, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

let database: Database;
let cleanUp = async () => {};
beforeAll(async () => {
  const serverUrl = inject('postgresUrl');
  const name = `mall_levels_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  database = await openPostgres(databaseUrlFor(serverUrl, name), 2);
  cleanUp = async () => {
    await admin.query(`drop database ${name} with (force)`);
    await admin.end();
  };
}, 60_000);
afterAll(async () => {
  await database?.close();
  await cleanUp();
});

const run = async (folder: string) => {
  const client = await database.pool.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: folder });
  } finally {
    client.release();
  }
};

describe('migration 0008 on floors that exist', () => {
  it('orders recognised names by level and the others after them, by name', async () => {
    await run(migrationsBefore0008());
    const names = [
      'Second Floor',
      'Rooftop',
      'Ground Floor',
      'Lower Ground',
      'First Floor',
      'Basement 2',
      'Level 3',
      'Mezzanine',
      'G',
    ];
    await database.pool.query('insert into floors (name) select unnest($1::text[])', [names]);
    await run(migrations);

    const { rows } = await database.pool.query<{ name: string; level: number }>(
      'select name, level from floors order by level',
    );
    expect(rows).toEqual([
      { name: 'Basement 2', level: -2 },
      { name: 'Lower Ground', level: -1 },
      // "G" and "Ground Floor" both say ground: the first by name keeps it, the other follows the known.
      { name: 'G', level: 0 },
      { name: 'First Floor', level: 1 },
      { name: 'Second Floor', level: 2 },
      { name: 'Level 3', level: 3 },
      { name: 'Ground Floor', level: 4 },
      { name: 'Mezzanine', level: 5 },
      { name: 'Rooftop', level: 6 },
    ]);

    // After it, a floor inserted without a level (plain SQL) goes one above the highest.
    await database.pool.query("insert into floors (name) values ('Sky Deck')");
    const added = await database.pool.query("select level from floors where name = 'Sky Deck'");
    expect(added.rows[0].level).toBe(7);
  });
});
