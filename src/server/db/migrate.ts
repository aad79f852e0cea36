import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Database } from './client';

// Beside this file in the sources, beside the bundle in dist/server (the build copies them there).
const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Any fixed number: every server takes the same advisory lock while it migrates. */
const MIGRATION_LOCK_KEY = 7_415_020_001;

/**
 * Applies pending migrations. Safe when several servers start at once against one PostgreSQL: they
 * queue on an advisory lock, and each one that gets it finds the work done or does it.
 */
export async function runMigrations(database: Database): Promise<void> {
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
