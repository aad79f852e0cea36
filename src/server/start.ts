import type { FastifyBaseLogger } from 'fastify';
import { type Database, openEmbedded, openPostgres } from './db/client';
import { isDemoDataEnabled, loadDemoData } from './db/demo-data';
import { isInitialised } from './db/embedded-postgres';
import { runMigrations, type StartLog } from './db/migrate';
import { moveFromPglite } from './db/pglite-move';
import type { Env } from './env';
import { mallToday } from './lib/mall-time';
import { prepareSetupCode } from './modules/accounts/invites';
import { imageStoreFor } from './modules/images/store';

/**
 * Opens the configured database and brings it up to date: migrations, the contents of a PGlite data
 * folder of an earlier release moved in (db/pglite-move.ts), and the demo mall in a brand-new embedded
 * database unless MALL_DEMO_DATA=off. `onGiveUp`: the embedded database stopped and cannot be restarted.
 */
export async function openConfiguredDatabase(
  env: Env,
  log: StartLog & Partial<Pick<FastifyBaseLogger, 'error'>>,
  { demoData = true, onGiveUp }: { demoData?: boolean; onGiveUp?: (reason: string) => void } = {},
): Promise<Database> {
  if (env.DATABASE_URL) {
    const database = await openPostgres(env.DATABASE_URL);
    try {
      await runMigrations(database, log);
      if (demoData && isDemoDataEnabled(env.MALL_DEMO_DATA, false)) await loadDemoIfEmpty(database, env, log);
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  }

  const brandNew = !isInitialised(env.MALL_DATA_DIR);
  const database = await openEmbedded(env.MALL_DATA_DIR, { log, onGiveUp });
  try {
    await runMigrations(database, log);
    const moved = await moveFromPglite(database, env.MALL_DATA_DIR, log);
    if (demoData && brandNew && !moved && isDemoDataEnabled(env.MALL_DEMO_DATA, true)) {
      await loadDemoIfEmpty(database, env, log);
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function loadDemoIfEmpty(database: Database, env: Env, log: Pick<FastifyBaseLogger, 'info'>) {
  const images = imageStoreFor(database, env.MALL_DATA_DIR);
  const summary = await loadDemoData(database.db, mallToday(env.MALL_TIMEZONE), {
    onlyIfEmpty: true,
    images,
  });
  if (summary) log.info(summary, 'loaded the demo mall');
}

/** While there is no admin, a setup code printed at start-up lets the operator create the first one. */
export async function announceSetupCode(database: Database, env: Env, url: string): Promise<void> {
  const code = await prepareSetupCode(database.db, env.MALL_ADMIN_INVITE_CODE, new Date());
  if (!code) return;
  const line = '='.repeat(72);
  process.stdout.write(
    `\n${line}\n  Super Mall has no admin yet.\n  Open ${url}/register, choose Account Type "Admin" and enter this setup code:\n\n      ${code}\n\n  It works once, for the first admin account.\n${line}\n\n`,
  );
}
