import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from './app';
import { DataDirInUseError } from './db/data-dir-lock';
import { EnvError, parseEnv } from './env';
import { announceSetupCode, openConfiguredDatabase } from './start';

// Beside the server bundle: dist/server/main.js → dist/client. From the sources (npm run dev), Vite
// serves the client instead.
const clientDir = import.meta.url.endsWith('.js')
  ? fileURLToPath(new URL('../client', import.meta.url))
  : null;

async function main() {
  const env = parseEnv();
  const logger = pino({ level: env.LOG_LEVEL });
  const opened = await openConfiguredDatabase(env, logger);
  let app: FastifyInstance;
  try {
    app = await buildApp({
      database: opened.database,
      timeZone: env.MALL_TIMEZONE,
      operatorInviteCode: env.MALL_ADMIN_INVITE_CODE,
      clientDir: clientDir && fs.existsSync(`${clientDir}/index.html`) ? clientDir : undefined,
      logger,
    });
    await app.listen({ port: env.PORT, host: env.HOST });
  } catch (error) {
    await opened.close();
    throw error;
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    // Stops accepting connections and lets requests in flight finish, then closes the database.
    await app.close();
    await opened.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  const shownHost = ['0.0.0.0', '127.0.0.1', '::'].includes(env.HOST) ? 'localhost' : env.HOST;
  const url = `http://${shownHost}:${env.PORT}`;
  await announceSetupCode(opened.database, env, url);
  const where =
    opened.database.kind === 'embedded' ? `embedded database in ${env.MALL_DATA_DIR}` : 'PostgreSQL';
  process.stdout.write(`Super Mall is ready at ${url} (${where})\n`);
}

main().catch((error: unknown) => {
  const expected = error instanceof EnvError || error instanceof DataDirInUseError;
  const detail =
    error instanceof Error ? (expected ? error.message : (error.stack ?? error.message)) : String(error);
  process.stderr.write(expected ? `${detail}\n` : `Super Mall could not start: ${detail}\n`);
  process.exit(1);
});
