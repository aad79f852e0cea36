import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client';
import { keyPlaceNames } from './place-name-keys';

// Beside this file in the sources, beside the bundle in dist/server (the build copies them there).
const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Any fixed number: every server takes the same advisory lock while it migrates. */
const MIGRATION_LOCK_KEY = 7_415_020_001;

/** Start-up's logger: warnings go to warn where it has one. */
export type StartLog = Pick<FastifyBaseLogger, 'info'> & Partial<Pick<FastifyBaseLogger, 'warn'>>;

/**
 * Applies pending migrations, then gives category and floor names the keys that keep them unique
 * (db/place-name-keys.ts). Safe when several servers start at once against one PostgreSQL: they queue on
 * an advisory lock, and each one that gets it finds the work done or does it. A name that looks like an
 * older one is logged, not fatal.
 */
export async function runMigrations(database: Database, log?: StartLog): Promise<void> {
  await applyMigrations(database);
  for (const lookAlike of await keyPlaceNames(database.db)) {
    const noun = lookAlike.table === 'categories' ? 'category' : 'floor';
    const message =
      `The ${noun} ${JSON.stringify(lookAlike.name)} looks the same as ` +
      `${JSON.stringify(lookAlike.like?.name ?? null)}, so it is not protected from further look-alikes: ` +
      'rename or delete one of them (Categories & Floors)';
    if (log?.warn) log.warn({ lookAlike }, message);
    else log?.info({ lookAlike }, message);
  }
}

async function applyMigrations(database: Database): Promise<void> {
  if (await isUpToDate(database)) return;
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/**
 * The usual start-up: every migration already applied. One cheap query instead of the migrator's DDL
 * and lock (about half a second on the embedded database). Drizzle records each migration with its
 * journal timestamp.
 */
async function isUpToDate(database: Database): Promise<boolean> {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: Array<{ when: number }>;
  };
  const latest = Math.max(...journal.entries.map((entry) => entry.when));
  const pool = database.pool;
  const { rows } = await pool.query<{ ready: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as ready",
  );
  if (!rows[0]?.ready) return false;
  const applied = (
    await pool.query<{ applied: string | null }>(
      'select max(created_at)::text as applied from drizzle.__drizzle_migrations',
    )
  ).rows[0]?.applied;
  return applied != null && Number(applied) >= latest;
}
