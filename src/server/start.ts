import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type Database, openEmbedded, openPostgres } from './db/client';
import { lockDataDir } from './db/data-dir-lock';
import { isDemoDataEnabled, loadDemoData } from './db/demo-data';
import { type EarlyEmbedded, isInitialised, pgDataDir } from './db/early-embedded';
import { runMigrations, type StartLog } from './db/migrate';
import type { Env } from './env';
import { mallToday } from './lib/mall-time';
import { prepareSetupCode } from './modules/accounts/invites';
import { imageStoreFor } from './modules/images/store';

export interface OpenedDatabase {
  database: Database;
  /** Releases the embedded data directory's lock after the database is closed. */
  close(): Promise<void>;
}

/**
 * Opens the configured database and brings it up to date: migrations, and the demo mall in a brand-new
 * embedded database unless MALL_DEMO_DATA=off.
 */
export async function openConfiguredDatabase(
  env: Env,
  log: StartLog,
  { demoData = true, early }: { demoData?: boolean; early?: EarlyEmbedded | null } = {},
): Promise<OpenedDatabase> {
  if (env.DATABASE_URL) {
    await early?.abandon();
    const database = await openPostgres(env.DATABASE_URL);
    await runMigrations(database, log);
    if (demoData && isDemoDataEnabled(env.MALL_DEMO_DATA, false)) await loadDemoIfEmpty(database, env, log);
    return { database, close: () => database.close() };
  }

  // The worker main.ts started early, when it is for this data directory.
  let started = early && path.resolve(early.dataDir) === path.resolve(env.MALL_DATA_DIR) ? early : null;
  if (early && !started) await early.abandon();
  const release = started?.release ?? lockDataDir(env.MALL_DATA_DIR);
  let database: Database | undefined;
  try {
    const brandNew = started ? started.brandNew : !isInitialised(env.MALL_DATA_DIR);
    database = await openEmbedded({ dataDir: pgDataDir(env.MALL_DATA_DIR) }, started?.worker);
    started = null;
    await runMigrations(database, log);
    if (demoData && brandNew && isDemoDataEnabled(env.MALL_DEMO_DATA, true)) {
      await loadDemoIfEmpty(database, env, log);
    }
    const opened = database;
    return {
      database: opened,
      async close() {
        await opened.close();
        release();
      },
    };
  } catch (error) {
    await started?.worker.abandon();
    await database?.close().catch(() => {});
    release();
    throw error;
  }
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
