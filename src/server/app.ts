import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionPlugin } from './auth/guards';
import { createHashQueue } from './auth/hash-queue';
import { PASSWORD_COSTS, type PasswordHashing } from './auth/passwords';
import { authRoutes } from './auth/routes';
import { benchRoutes } from './bench-routes';
import type { Database } from './db/client';
import { DEFAULT_MAX_DB_QUEUE, DEFAULT_MAX_EVENT_LOOP_DELAY_MS } from './env';
import { answerClientError, type UndeclaredStatus } from './errors';
import { frontDoor } from './front-door';
import type { BoundedQueue } from './lib/bounded-queue';
import { mallToday } from './lib/mall-time';
import { accountRoutes } from './modules/accounts/account-routes';
import { inviteRoutes } from './modules/accounts/invite-routes';
import { amenityRoutes, floorGuideRoutes } from './modules/amenities/routes';
import { auditRoutes } from './modules/audit/routes';
import { eventReviewRoutes, eventRoutes, managedEventRoutes } from './modules/events/routes';
import { floorPinRoutes } from './modules/floor-plans/routes';
import { imageRoutes } from './modules/images/routes';
import type { ImageStore } from './modules/images/store';
import { createInsightCounter, DEFAULT_FLUSH_MS } from './modules/insights/counter';
import { insightsRoutes } from './modules/insights/routes';
import { mallHoursRoutes } from './modules/mall-hours/routes';
import { mallProfileRoutes } from './modules/mall-profile/routes';
import { managerRoutes } from './modules/managers/routes';
import { offerReviewRoutes } from './modules/offers/review-routes';
import { offerRoutes } from './modules/offers/routes';
import { categoryRoutes, floorRoutes } from './modules/places/routes';
import { productRoutes } from './modules/products/routes';
import { shopAddressRoutes } from './modules/public-site/routes';
import { searchRoutes } from './modules/search/routes';
import { shopRoutes } from './modules/shops/routes';
import { statsRoutes } from './modules/stats/routes';
import { synonymRoutes } from './modules/synonyms/routes';
import { transferRoutes } from './modules/transfer/routes';
import { schedulePrune } from './ops/prune';
import { registerOverloadGuards } from './overload';
import { pageStructuredData } from './pages/page-structured-data';
import { apiDocsPlugin } from './plugins/api-docs';
import { clientPagesPlugin } from './plugins/client-pages';
import { databaseHealthRoutes } from './plugins/database-health';
import { errorAnswersPlugin } from './plugins/error-answers';
import { imageStorePlugin } from './plugins/image-store';
import { publicPagesPlugin } from './plugins/public-pages';
import { routeTablePlugin } from './plugins/route-table';
import { answerFrameworkError, securityHeadersPlugin } from './plugins/security-headers';
import { sitemapRobotsPlugin } from './plugins/sitemap-robots';
import { timeZoneRoutes } from './plugins/time-zones';
import { type RateLimits, registerRateLimits } from './rate-limits';
import { registerReadCache } from './read-cache';
import { registerRequestGuards } from './request-guards';
import { DEFAULT_SERVER_TIMEOUTS, defaultMaxConnections, type ServerTimeouts } from './server-limits';

// What the app's callers and tests import from here, now kept beside the plugin they belong to.
export { API_DOCS_PATH } from './plugins/api-docs';
export type { RouteEntry } from './plugins/route-table';

export interface AppOptions {
  database: Database;
  timeZone: string;
  /** The operator's MALL_ADMIN_INVITE_CODE, when set. */
  operatorInviteCode?: string;
  /** Folder of the built React app to serve; omitted in API tests and under the Vite dev server. */
  clientDir?: string;
  /** A pino logger; none in tests. */
  logger?: FastifyBaseLogger;
  /** The clock; tests move it to check expiry without waiting. */
  now?: () => Date;
  /** Per-address request limits; none when omitted (MALL_RATE_LIMIT=off, most tests). */
  rateLimits?: RateLimits;
  /** Fastify's trustProxy: whose X-Forwarded-For to believe for the client address (MALL_TRUST_PROXY). */
  trustProxy?: boolean | string;
  /**
   * The public directory (MALL_PUBLIC_DIRECTORY, docs/decisions/034): server-rendered public pages and
   * visitors' reads of the directory's API; on unless false.
   */
  publicDirectory?: boolean;
  /** Cache directory reads and answer If-None-Match (MALL_READ_CACHE); on unless false. */
  readCache?: boolean;
  /**
   * Keep signed-in people and the catalogue version in memory, revoked by the database's notifications
   * (MALL_SESSION_CACHE, docs/decisions/027); on unless false.
   */
  sessionCache?: boolean;
  /** 503 when this many queries already wait for a database connection (MALL_MAX_DB_QUEUE). */
  maxDbQueue?: number;
  /** 503 while the event loop lags more than this (MALL_MAX_EVENT_LOOP_DELAY_MS); 0 = no check. */
  maxEventLoopDelayMs?: number;
  /** Event-loop sampling interval of the overload check (tests shorten it). */
  overloadSampleIntervalMs?: number;
  /**
   * The benchmark's routes (MALL_BENCH_ROUTES=on): /api/bench/constant, /api/bench/event-loop and
   * PATCH /api/bench/products/:id (a product update without its audit entry, to measure the log's cost).
   */
  benchRoutes?: boolean;
  /**
   * Count what shoppers look at and search for (MALL_INSIGHTS, docs/decisions/035); on unless false.
   * Off, hits are answered and dropped.
   */
  insights?: boolean;
  /** Milliseconds between flushes of the counts (MALL_INSIGHTS_FLUSH_MS); 0: only at close and when asked (tests). */
  insightsFlushMs?: number;
  /** Seconds an import run's lease lasts (MALL_IMPORT_LEASE_S; decision 022). */
  importLeaseSeconds?: number;
  /**
   * Connections open at once, beyond which a new one is closed as it arrives (MALL_MAX_CONNECTIONS);
   * by default what the process's file-descriptor limit leaves room for (server-limits.ts).
   */
  maxConnections?: number;
  /** The HTTP server's timeouts (server-limits.ts); tests shorten them. */
  serverTimeouts?: Partial<ServerTimeouts>;
  /**
   * Where images are kept (modules/images/store.ts): main.ts passes the store for MALL_DATA_DIR. When
   * omitted, PostgreSQL keeps them in its table and an embedded database (tests) in a fresh temporary folder.
   */
  imageStore?: ImageStore;
  /** Where sign-in and registration wait for a password hash; one sized for this machine when omitted. */
  hashQueue?: BoundedQueue;
  /** The cost of new password hashes (MALL_PASSWORD_HASHING; auth/passwords.ts): OWASP's unless told. */
  passwordHashing?: PasswordHashing;
  /**
   * Tests only (the API harness): told of every answer whose status its route's schema does not declare,
   * so that the reference lists every answer a route gives (errors.ts `checkDeclaredStatuses`).
   */
  onUndeclaredStatus?: (undeclared: UndeclaredStatus) => void;
}

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The app: Fastify with its limits, then its plugins in the order their hooks must run, then the
 * modules' routes, then the client's pages. Each concern lives in its own file (plugins/, modules/).
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { database, timeZone } = options;
  const db = database.db;
  const now = options.now ?? (() => new Date());

  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.serverTimeouts };
  // Kept public pages are answered at the server's door, before Fastify (docs/decisions/045).
  const door = frontDoor(options.trustProxy);
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    // No client holds a connection for ever: its request (headers first) must arrive in time, an idle
    // keep-alive connection is closed, and so is a socket with no traffic either way.
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.idleSocketMs,
    http: {
      requestTimeout: timeouts.requestMs,
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    // What Node's HTTP server refuses before Fastify sees a request (timeouts, headers too large, not
    // HTTP) is answered in our error body too.
    clientErrorHandler: answerClientError,
    trustProxy: options.trustProxy ?? false,
    // One line per request drowns what matters; failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // Errors Fastify meets before routing (a badly encoded URL…): our error body and security headers.
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  // Each connection takes a file descriptor: with no cap, a flood of them leaves none for the database,
  // static files or anything else. Beyond the cap a new connection is closed as it arrives.
  app.server.maxConnections = options.maxConnections ?? defaultMaxConnections();
  door.mount(app.server);
  // Once listening, the server reports only failures to accept a connection (EMFILE…): without a
  // listener, that 'error' event would throw and end the process.
  app.server.on('error', (error) => app.log.warn({ err: error }, 'HTTP server error'));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Security headers first, so that every answer carries them, a 429 or 503 from the hooks below too.
  await app.register(securityHeadersPlugin);
  // Before any route: each is recorded as it declares itself, then given the errors every route can
  // give (so this order), and takes the one error handler.
  await app.register(routeTablePlugin);
  await app.register(errorAnswersPlugin, { onUndeclaredStatus: options.onUndeclaredStatus });
  await app.register(imageStorePlugin, { database, store: options.imageStore });
  // The request hooks, in the order they run: the cheap refusals (overload, rate limit, cross-site
  // write) before the session lookup costs a query; the read cache after it (it keys on the session's
  // catalogue version).
  const overloaded = await registerOverloadGuards(app, {
    pool: database.pool,
    maxDbQueue: options.maxDbQueue ?? DEFAULT_MAX_DB_QUEUE,
    maxEventLoopDelayMs: options.maxEventLoopDelayMs ?? DEFAULT_MAX_EVENT_LOOP_DELAY_MS,
    sampleIntervalMs: options.overloadSampleIntervalMs,
  });
  const countVisit = options.rateLimits ? await registerRateLimits(app, options.rateLimits) : undefined;
  registerRequestGuards(app);
  await app.register(fastifyCookie);
  await app.register(sessionPlugin, {
    database,
    now,
    sessionCache: options.sessionCache !== false,
    publicDirectory: options.publicDirectory !== false,
  });
  if (options.readCache !== false) registerReadCache(app, { today: () => mallToday(timeZone, now()) });
  // The API reference: after the hooks (its page's own routes take them) and before every route (its
  // document lists the routes registered after it).
  await app.register(apiDocsPlugin);
  // Insights (docs/decisions/035): counted in memory, one statement per flush, the last at close.
  const counter =
    options.insights === false
      ? null
      : createInsightCounter({
          db,
          timeZone,
          now,
          flushMs: options.insightsFlushMs ?? DEFAULT_FLUSH_MS,
          onError: (error) => app.log.warn({ err: error }, 'insights flush failed'),
        });
  app.decorate('insights', counter);
  if (counter) app.addHook('onClose', async () => counter.close().catch(() => undefined));
  if (options.benchRoutes)
    await app.register(benchRoutes, { prefix: '/api/bench', db, now, timeZone, insights: counter });
  schedulePrune(app, db, now);

  await app.register(databaseHealthRoutes, { db });
  await app.register(timeZoneRoutes, { timeZone, now, publicDirectory: options.publicDirectory !== false });
  // One queue for every password hash: sign-in, registration and a password change wait in the same line.
  const hashQueue = options.hashQueue ?? createHashQueue();
  const passwordCost = PASSWORD_COSTS[options.passwordHashing ?? 'owasp'];
  await app.register(authRoutes, {
    prefix: '/api/auth',
    db,
    now,
    operatorInviteCode: options.operatorInviteCode,
    hashQueue,
    passwordCost,
  });
  await app.register(accountRoutes, { prefix: '/api/account', db, now, hashQueue, passwordCost });
  // One module per entity (docs/decisions/012): routes, repository and error mapping together.
  await app.register(inviteRoutes, { prefix: '/api/admin/invites', db, now });
  await app.register(statsRoutes, { prefix: '/api/stats', db, now, timeZone });
  await app.register(auditRoutes, { prefix: '/api/audit', db, timeZone });
  await app.register(categoryRoutes, { prefix: '/api/categories', db, now });
  await app.register(floorRoutes, { prefix: '/api/floors', db, now });
  await app.register(floorPinRoutes, { prefix: '/api/floors', db, now });
  await app.register(amenityRoutes, { prefix: '/api/amenities', db, now });
  await app.register(floorGuideRoutes, { prefix: '/api/floor-guide', db });
  await app.register(mallHoursRoutes, { prefix: '/api/mall-hours', db, now });
  await app.register(mallProfileRoutes, { prefix: '/api/mall/profile', db, now });
  await app.register(shopRoutes, { prefix: '/api/shops', db, now, timeZone });
  await app.register(shopAddressRoutes, { prefix: '/api/shops', db, timeZone });
  await app.register(productRoutes, { prefix: '/api/products', db, now, timeZone });
  await app.register(offerRoutes, { prefix: '/api/offers', db, now, timeZone });
  await app.register(offerReviewRoutes, { prefix: '/api/offer-reviews', db, now, timeZone });
  await app.register(managerRoutes, { prefix: '/api', db, now, timeZone });
  // Events (issue 35, docs/decisions/036): public lists and feeds, writes, their approvals.
  await app.register(eventRoutes, { prefix: '/api/events', db, now, timeZone });
  await app.register(eventReviewRoutes, { prefix: '/api/event-reviews', db, now });
  await app.register(managedEventRoutes, { prefix: '/api', db });
  await app.register(searchRoutes, {
    prefix: '/api/search',
    db,
    now,
    timeZone,
  });
  await app.register(transferRoutes, {
    prefix: '/api',
    db,
    now,
    timeZone,
    leaseSeconds: options.importLeaseSeconds,
    workerConnection: database.workerConnection,
  });
  await app.register(imageRoutes, { prefix: '/api', db, now, store: app.imageStore });
  await app.register(insightsRoutes, { prefix: '/api/insights', db, now, timeZone, counter });
  await app.register(synonymRoutes, { prefix: '/api/synonyms', db, now });

  // Search engines' entry points: /robots.txt and the sitemap (docs/decisions/034).
  await app.register(sitemapRobotsPlugin, {
    db,
    publicDirectory: options.publicDirectory !== false,
    catalogVersion: app.catalogVersion,
  });
  // The public directory's pages, rendered on the server (docs/decisions/034).
  if (options.publicDirectory !== false)
    await app.register(publicPagesPlugin, {
      db,
      timeZone,
      now,
      clientDir: options.clientDir,
      structuredData: pageStructuredData(db, timeZone),
      countShopView: counter ? (shopId: string) => counter.hit('shop_view', shopId) : undefined,
      front: { door, overloaded, countVisit },
    });
  // A closing app answers 503 to what still arrives (Fastify's own rule): the door lets it do so.
  app.addHook('preClose', (done) => {
    door.close();
    done();
  });
  app.decorate('frontDoor', options.publicDirectory !== false ? { answered: () => door.answered } : null);
  // Last, what no route answered: the built client's files and pages, else the JSON 404.
  await app.register(clientPagesPlugin, {
    clientDir: options.clientDir,
    publicDirectory: options.publicDirectory !== false,
  });
  return app;
}
