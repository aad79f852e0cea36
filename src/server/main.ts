import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Database } from './db/client';
import { EmbeddedStartError } from './db/embedded-postgres';
import { collectStartUpGarbage, serialScavenges } from './lib/gc-tuning';

// The collector set for a steady event loop (lib/gc-tuning.ts), for every isolate of the process.
serialScavenges();

// Beside the server bundle: dist/server/main.js → dist/client. From the sources (npm run dev), Vite
// serves the client instead.
const clientDir = import.meta.url.endsWith('.js')
  ? fileURLToPath(new URL('../client', import.meta.url))
  : null;

let opened: Database | undefined;
let app: FastifyInstance | undefined;
let stopping = false;

/**
 * SIGTERM/SIGINT at any moment, start-up included: stop accepting connections, let requests in flight
 * finish, close the database (and stop the embedded one), exit 0.
 */
async function stop(signal: string, exitCode = 0) {
  if (stopping) return;
  stopping = true;
  app?.log.info({ signal }, 'shutting down');
  setTimeout(() => process.exit(1), 15_000).unref();
  // Keep-alive connections busy at SIGTERM become idle once answered; close those too as they do,
  // instead of waiting for their keep-alive timeout.
  const sweep = setInterval(() => app?.server.closeIdleConnections(), 50);
  try {
    await app?.close();
    clearInterval(sweep);
    await opened?.close();
  } finally {
    process.exit(exitCode);
  }
}
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));

let isExpected: (error: unknown) => boolean = (error) => error instanceof EmbeddedStartError;

/** The embedded database stopped and could not be restarted: one line, then the server stops too. */
function giveUp(reason: string) {
  process.stderr.write(`Super Mall stops: ${reason}\n`);
  void stop('database lost', 1);
}

async function main() {
  const [
    { EnvError, parseEnv, rateLimitsFrom },
    { buildApp },
    { announceSetupCode, openConfiguredDatabase },
    { pino },
    { imageStoreFor },
    { warmCheckProcess },
    { warmUploadCheck },
  ] = await Promise.all([
    import('./env'),
    import('./app'),
    import('./start'),
    import('pino'),
    import('./modules/images/store'),
    import('./modules/transfer/check-process'),
    import('./modules/transfer/routes'),
  ]);
  isExpected = (error) => error instanceof EmbeddedStartError || error instanceof EnvError;
  const env = parseEnv();
  const logger = pino({ level: env.LOG_LEVEL });
  opened = await openConfiguredDatabase(env, logger, { onGiveUp: giveUp });
  if (stopping) return;
  app = await buildApp({
    database: opened,
    timeZone: env.MALL_TIMEZONE,
    operatorInviteCode: env.MALL_ADMIN_INVITE_CODE,
    rateLimits: rateLimitsFrom(env),
    trustProxy: env.MALL_TRUST_PROXY,
    readCache: env.MALL_READ_CACHE,
    publicDirectory: env.MALL_PUBLIC_DIRECTORY,
    sessionCache: env.MALL_SESSION_CACHE,
    maxDbQueue: env.MALL_MAX_DB_QUEUE,
    maxEventLoopDelayMs: env.MALL_MAX_EVENT_LOOP_DELAY_MS,
    benchRoutes: env.MALL_BENCH_ROUTES,
    passwordHashing: env.MALL_PASSWORD_HASHING,
    insights: env.MALL_INSIGHTS,
    insightsFlushMs: env.MALL_INSIGHTS_FLUSH_MS,
    importLeaseSeconds: env.MALL_IMPORT_LEASE_S,
    maxConnections: env.MALL_MAX_CONNECTIONS,
    imageStore: imageStoreFor(opened, env.MALL_DATA_DIR),
    clientDir: clientDir && fs.existsSync(`${clientDir}/index.html`) ? clientDir : undefined,
    logger,
  });
  // Before the first request: an import's first header read would otherwise compile its parser then.
  await warmUploadCheck();
  if (stopping) return;
  collectStartUpGarbage();
  await app.listen({ port: env.PORT, host: env.HOST });
  // Image files whose rows are gone (a crash between a commit and the files' removal, a restore).
  void app.imageStore
    .sweep()
    .then((removed) => removed > 0 && app?.log.info({ removed }, 'removed left-over image files'))
    .catch((error) => app?.log.warn({ err: error }, 'image sweep failed'));
  app.log.info({ maxConnections: app.server.maxConnections }, 'connections capped');
  if (env.MALL_PASSWORD_HASHING === 'fast-for-tests')
    app.log.warn(
      'MALL_PASSWORD_HASHING=fast-for-tests: new passwords are hashed cheaply, for test runs only; unset it in production',
    );
  // A check process waits for the first import, so that no import forks the server (check-process.ts);
  // it ends with the server's process (its channel closes). Here, not in the app: tests and the CLI
  // fork one only when they import.
  warmCheckProcess();

  const shownHost = ['0.0.0.0', '127.0.0.1', '::'].includes(env.HOST) ? 'localhost' : env.HOST;
  const url = `http://${shownHost}:${env.PORT}`;
  await announceSetupCode(opened, env, url);
  const where = opened.kind === 'embedded' ? `embedded PostgreSQL in ${env.MALL_DATA_DIR}` : 'PostgreSQL';
  process.stdout.write(`Super Mall is ready at ${url} (${where})\n`);
}

main().catch(async (error: unknown) => {
  // Stopped during start-up (SIGTERM while it was still starting): stop() closes everything and exits 0.
  if (stopping) return;
  const expected = isExpected(error);
  const detail =
    error instanceof Error ? (expected ? error.message : (error.stack ?? error.message)) : String(error);
  process.stderr.write(expected ? `${detail}\n` : `Super Mall could not start: ${detail}\n`);
  await app?.close().catch(() => {});
  await opened?.close().catch(() => {});
  process.exit(1);
});
