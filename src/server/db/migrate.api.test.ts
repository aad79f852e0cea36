import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { databaseUrlFor } from '../test/global-setup';
import { openPostgres } from './client';
import { runMigrations } from './migrate';
import journal from './migrations/meta/_journal.json' with { type: 'json' };

const MIGRATIONS = journal.entries.length;

const TABLES = [
  'admin_invites',
  'amenities',
  'audit_log',
  'catalog_version',
  'categories',
  // the mall's and the shops' events (migration 0018)
  'events',
  'floors',
  // uploaded images and, on PostgreSQL, their variants' bytes (migration 0013)
  'image_variants',
  'images',
  // bulk imports' files, previews and results (migration 0012)
  'import_runs',
  // a confirmed import's rows, staged before they are published (migration 0014)
  'import_staged_rows',
  // insights: counts per day, hour, metric and item, nothing about who (migration 0017)
  'insight_counts',
  'mall_hours',
  // the mall's name, address, logo and public URL (migration 0016, the public directory)
  'mall_profile',
  'manager_invites',
  'offers',
  'products',
  // search synonyms (migration 0017)
  'search_synonyms',
  // the mall's words for the search's typo correction (migration 0007, hand-written)
  'search_words',
  'sessions',
  'shop_managers',
  // a renamed shop's old public addresses, each answering with a redirect (migration 0016)
  'shop_slug_redirects',
  'shops',
  'sign_in_attempts',
  'users',
];

async function tableNames(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' order by 1",
  );
  return rows.map((row) => row.name);
}

describe('migrations at start-up', () => {
  it('are safe when several servers start at once on one empty database', async () => {
    const serverUrl = inject('postgresUrl');
    const name = `mall_migrate_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const servers = await Promise.all(
      Array.from({ length: 4 }, () => openPostgres(databaseUrlFor(serverUrl, name), 2)),
    );
    try {
      await Promise.all(servers.map((server) => runMigrations(server)));
      const first = servers[0];
      if (!first) throw new Error('no server');
      expect(await tableNames(first.pool)).toEqual(TABLES);
      const applied = await first.pool.query('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(applied.rows[0].n).toBe(MIGRATIONS);
      // Running again changes nothing.
      await runMigrations(first);
      expect(
        (await first.pool.query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0].n,
      ).toBe(MIGRATIONS);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  });
});
