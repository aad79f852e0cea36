import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from './app';
import { DataDirInUseError } from './db/data-dir-lock';
import { EnvError, parseEnv } from './env';
import { announceSetupCode, openConfiguredDatabase } from './start';

// Beside the server bundle: dist/server/main.js → dist/client.
const clientDir = fileURLToPath(new URL('../client', import.meta.url));

async function main() {
  const env = parseEnv();
  const logger = pino({ level: env.LOG_LEVEL });
  const opened = await openConfiguredDatabase(env, logger);
  const app = await buildApp({
    database: opened.database,
    timeZone: env.MALL_TIMEZONE,
    operatorInviteCode: env.MALL_ADMIN_INVITE_CODE,
    clientDir: fs.existsSync(`${clientDir}/index.html`) ? clientDir : undefined,
    logger,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Stops accepting connections, lets requests in flight finish, then closes the database.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await app.close();
    await opened.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: env.PORT, host: env.HOST });
  const shownHost = env.HOST === '0.0.0.0' || env.HOST === '127.0.0.1' ? 'localhost' : env.HOST;
  const url = `http://${shownHost}:${env.PORT}`;
  await announceSetupCode(opened.database, env, url);
  logger.info(
    `Super Mall is ready at ${url} (${opened.database.kind === 'embedded' ? `embedded database in ${env.MALL_DATA_DIR}` : 'PostgreSQL'})`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof EnvError || error instanceof DataDirInUseError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Super Mall could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
