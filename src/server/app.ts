import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { sql } from 'drizzle-orm';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  LogController,
} from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import helmet from 'helmet';
import { type OffsetSpan, zoneOffsets } from '../shared/hours-status';
import { pageMatcher } from '../shared/page-paths';
import type { Permission } from '../shared/permissions';
import { PublicSettings } from '../shared/settings';
import { withoutUnusedSchemas } from './api-reference';
import { sessionPlugin } from './auth/guards';
import { createHashQueue } from './auth/hash-queue';
import { authRoutes } from './auth/routes';
import { SESSION_COOKIE } from './auth/sessions';
import { benchRoutes } from './bench-routes';
import { toastStyleHashes } from './csp';
import type { Database } from './db/client';
import { DEFAULT_MAX_DB_QUEUE, DEFAULT_MAX_EVENT_LOOP_DELAY_MS } from './env';
import {
  answerClientError,
  checkDeclaredStatuses,
  declareCommonErrors,
  describeErrorAnswers,
  notFoundBody,
  registerErrorHandler,
  sendFrameworkError,
  type UndeclaredStatus,
} from './errors';
import type { BoundedQueue } from './lib/bounded-queue';
import { mallToday } from './lib/mall-time';
import { decodedPath, isApiRequest } from './lib/request-route';
import { accountRoutes } from './modules/accounts/account-routes';
import { inviteRoutes } from './modules/accounts/invite-routes';
import { amenityRoutes, floorGuideRoutes } from './modules/amenities/routes';
import { auditRoutes } from './modules/audit/routes';
import { floorPinRoutes } from './modules/floor-plans/routes';
import { imageRoutes } from './modules/images/routes';
import { fileImageStore, type ImageStore, imageStoreFor } from './modules/images/store';
import { mallHoursRoutes } from './modules/mall-hours/routes';
import { managerRoutes } from './modules/managers/routes';
import { offerReviewRoutes } from './modules/offers/review-routes';
import { offerRoutes } from './modules/offers/routes';
import { categoryRoutes, floorRoutes } from './modules/places/routes';
import { productRoutes } from './modules/products/routes';
import { searchRoutes } from './modules/search/routes';
import { shopRoutes } from './modules/shops/routes';
import { statsRoutes } from './modules/stats/routes';
import { transferRoutes } from './modules/transfer/routes';
import { schedulePrune } from './ops/prune';
import { registerOverloadGuards } from './overload';
import { type RateLimits, registerRateLimits } from './rate-limits';
import { type CacheContract, registerReadCache } from './read-cache';
import { registerRequestGuards } from './request-guards';
import { DEFAULT_SERVER_TIMEOUTS, defaultMaxConnections, type ServerTimeouts } from './server-limits';

export interface AppOptions {
  database: Database;
  timeZone: string;
  /**
   * Build the embedded database's search index of the products when the server is ready, not on the
   * first search (main.ts; tests leave it off: no queries of its own at their start). Decision 016.
   */
  searchIndexAtStart?: boolean;
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
  /**
   * Tests only (the API harness): told of every answer whose status its route's schema does not declare,
   * so that the reference lists every answer a route gives (errors.ts `checkDeclaredStatuses`).
   */
  onUndeclaredStatus?: (undeclared: UndeclaredStatus) => void;
}

export const BODY_LIMIT_BYTES = 64 * 1024;

/** Where the interactive API reference is served (its page, scripts and a copy of the document). */
export const API_DOCS_PATH = '/api/docs';

/** The client's page paths (src/shared/page-paths.ts, which its router takes its paths from). */
const isClientPage = pageMatcher();

export interface RouteEntry {
  method: string;
  url: string;
  /** What the route does, for the permission policy; none on public routes. */
  permission?: Permission;
  /** What its answer varies with, when it may be answered from the read cache (read-cache.ts). */
  cache?: CacheContract;
  /** Which parts of the request and answer the route's schema declares (the API reference is built from them). */
  schema?: { params: boolean; querystring: boolean; body: boolean; response: boolean; hidden: boolean };
  /** The statuses the route declares itself, before the errors every route gets are added (errors.ts). */
  answers?: string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered (method + URL pattern): the authorization test checks each has a rule. */
    routeTable: readonly RouteEntry[];
    /** Where this app keeps images (modules/images/store.ts). */
    imageStore: ImageStore;
  }
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { database, timeZone } = options;
  const db = database.db;
  const now = options.now ?? (() => new Date());

  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...options.serverTimeouts };
  // Helmet's middleware, built once (@fastify/helmet rebuilt it, and re-parsed the CSP, on every request).
  const securityHeaders = helmet({
    // Every directive written out (helmet's defaults off), exactly as docs/security.md lists them.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        fontSrc: ["'self'"],
        // The stylesheet the toasts insert at run time, by its hash; no other inline style (csp.ts).
        styleSrc: ["'self'", ...toastStyleHashes()],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    // Set below, and only on responses served over HTTPS.
    strictTransportSecurity: false,
    // What frame-ancestors 'none' says, for browsers that read only this header (helmet's default is
    // SAMEORIGIN, which would let a page of the mall frame another: the two must agree).
    xFrameOptions: { action: 'deny' },
  });
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
    // Errors Fastify meets before routing (a badly encoded URL…) get the same body as every other.
    // The security headers too: these answers skip the hooks (a 400 BAD_URL, a 414 id too long).
    frameworkErrors: (error, request, reply) =>
      securityHeaders(request.raw, reply.raw, () =>
        sendFrameworkError(error, reply as unknown as FastifyReply),
      ),
  }).withTypeProvider<ZodTypeProvider>();
  // Each connection takes a file descriptor: with no cap, a flood of them leaves none for the database,
  // static files or anything else. Beyond the cap a new connection is closed as it arrives.
  app.server.maxConnections = options.maxConnections ?? defaultMaxConnections();
  // Once listening, the server reports only failures to accept a connection (EMFILE…): without a
  // listener, that 'error' event would throw and end the process.
  app.server.on('error', (error) => app.log.warn({ err: error }, 'HTTP server error'));
  const routeTable: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (method !== 'HEAD')
        routeTable.push({
          method,
          url: route.url,
          permission: route.config?.permission,
          cache: route.config?.cache,
          schema: route.schema
            ? {
                params: Boolean(route.schema.params),
                querystring: Boolean(route.schema.querystring),
                body: Boolean(route.schema.body),
                response: Boolean(route.schema.response),
                hidden: Boolean((route.schema as { hide?: boolean }).hide),
              }
            : undefined,
          answers: route.schema?.response ? Object.keys(route.schema.response) : undefined,
        });
    // The errors any route can give, declared on each (its own ones it declares itself: errors.ts).
    declareCommonErrors(route);
  });
  if (options.onUndeclaredStatus) checkDeclaredStatuses(app, options.onUndeclaredStatus);
  app.decorate('routeTable', routeTable);
  app.decorate(
    'imageStore',
    options.imageStore ??
      (database.kind === 'postgres'
        ? imageStoreFor(database, '')
        : fileImageStore(db, fs.mkdtempSync(path.join(os.tmpdir(), 'mall-images-')))),
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API reference, generated from the routes' zod schemas (docs/decisions/028): collected as routes
  // are registered, served as JSON at /api/openapi.json (below).
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Super Mall API',
        version: '1',
        description:
          'Generated from the route schemas. Errors, sign-in, CSRF and caching rules: docs/api.md in the repository.',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
      },
    },
    // A module's root route is registered as its prefix plus '/': listed as the URL it answers.
    // Each route is tagged with its path's first segment after /api (shops, offers…): the interactive
    // reference groups them so.
    // Every error answer refers to the one `ApiError` component, with what its status means.
    transform: (input) => {
      const output = jsonSchemaTransform(input);
      const url = output.url.length > 1 ? output.url.replace(/\/$/, '') : output.url;
      const tag = url.split('/')[2];
      const schema = output.schema as { tags?: string[]; response?: Record<string, unknown> } | undefined;
      describeErrorAnswers(schema?.response);
      if (!tag || schema?.tags) return { ...output, url };
      return { ...output, url, schema: { ...output.schema, tags: [tag] } };
    },
    // The schemas registered with an id (the error body, `ApiError`) as components the answers refer to.
    transformObject: (input) => withoutUnusedSchemas(jsonSchemaTransformObject(input)),
  });
  registerErrorHandler(app);
  // Security headers first, so that every answer carries them, a 429 or 503 from the hooks below too.
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, () => done());
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=15552000');
  });
  await registerOverloadGuards(app, {
    pool: database.pool,
    maxDbQueue: options.maxDbQueue ?? DEFAULT_MAX_DB_QUEUE,
    maxEventLoopDelayMs: options.maxEventLoopDelayMs ?? DEFAULT_MAX_EVENT_LOOP_DELAY_MS,
    sampleIntervalMs: options.overloadSampleIntervalMs,
  });
  if (options.rateLimits) await registerRateLimits(app, options.rateLimits);
  registerRequestGuards(app);

  await app.register(fastifyCookie);
  await app.register(sessionPlugin, { database, now, sessionCache: options.sessionCache !== false });
  if (options.readCache !== false) registerReadCache(app, { today: () => mallToday(timeZone, now()) });
  if (options.benchRoutes) await app.register(benchRoutes, { prefix: '/api/bench', db, now, timeZone });
  schedulePrune(app, db, now);

  app.get('/api/health', { config: { probe: true } }, async (_request, reply) => {
    try {
      await db.execute(sql`select 1`);
      return { status: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
  // Public: the API reference (OpenAPI 3.1) generated from every route's schema.
  app.get('/api/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.swagger();
  });
  // Public: the interactive reference (Swagger UI) over the same document (docs/decisions/028). Its page
  // loads external scripts and stylesheets only, so it runs under the CSP above as it is: the plugin's
  // own CSP stays off, every answer keeps ours.
  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PATH,
    staticCSP: false,
    theme: { title: 'Super Mall API reference' },
    // Swagger UI's top bar draws its logo as an SVG with a <style> element in it, which our style-src
    // refuses: the base layout has no top bar (nor its box for loading another document).
    uiConfig: { layout: 'BaseLayout', deepLinking: true, displayRequestDuration: true, docExpansion: 'list' },
    // The page, its start-up script and its copy of the document follow the routes: always revalidated
    // (the plugin's static files set their own max-age=0).
    uiHooks: {
      onRequest: (_request, reply, done) => {
        reply.header('cache-control', 'no-cache');
        done();
      },
    },
  });
  // The zone's offsets around the hour `at` is in: worked out once an hour (some 600 Intl readings).
  let offsetsHour = Number.NaN;
  let offsetsOfHour: OffsetSpan[] = [];
  const offsetsNear = (at: Date): OffsetSpan[] => {
    const hour = Math.floor(at.getTime() / 3_600_000) * 3_600_000;
    if (hour !== offsetsHour) {
      offsetsOfHour = zoneOffsets(timeZone, hour - 3 * 86_400_000, hour + 22 * 86_400_000);
      offsetsHour = hour;
    }
    return offsetsOfHour;
  };
  // Public, never cached: the browser's view of the mall's calendar (shared/settings.ts).
  app.get('/api/settings', { schema: { response: { 200: PublicSettings } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const at = now();
    return { timeZone, today: mallToday(timeZone, at), now: at.toISOString(), offsets: offsetsNear(at) };
  });
  // One queue for every password hash: sign-in, registration and a password change wait in the same line.
  const hashQueue = options.hashQueue ?? createHashQueue();
  await app.register(authRoutes, {
    prefix: '/api/auth',
    db,
    now,
    operatorInviteCode: options.operatorInviteCode,
    hashQueue,
  });
  await app.register(accountRoutes, { prefix: '/api/account', db, now, hashQueue });
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
  await app.register(shopRoutes, { prefix: '/api/shops', db, now, timeZone });
  await app.register(productRoutes, { prefix: '/api/products', db, now, timeZone });
  await app.register(offerRoutes, { prefix: '/api/offers', db, now, timeZone });
  await app.register(offerReviewRoutes, { prefix: '/api/offer-reviews', db, now, timeZone });
  await app.register(managerRoutes, { prefix: '/api', db, now, timeZone });
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

  const pageHtml = options.clientDir ? await serveClient(app, options.clientDir) : null;
  app.setNotFoundHandler((request, reply) => {
    const pathname = decodedPath(request);
    const isPage = !isApiRequest(request) && ['GET', 'HEAD'].includes(request.method);
    if (!pageHtml || !isPage) return reply.status(404).send(notFoundBody(request.method, pathname));
    // A page of the client's router is 200; any other path (and /404 itself) is 404 with the same page,
    // whose router sends it on to /404 as the spec says (docs/decisions/026).
    const page = pageHtml(pathname);
    const encoding = pageEncoding(request.headers['accept-encoding']);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply
      .status(isClientPage(pathname) ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .send(page[encoding]);
  });
  return app;
}

/** A page as sent: plain, and compressed once at start-up for browsers that accept it. */
type Page = Record<'identity' | 'br' | 'gzip', Buffer>;

function compressedPage(html: string | Buffer): Page {
  const identity = Buffer.from(html);
  return {
    identity,
    br: zlib.brotliCompressSync(identity, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
    }),
    gzip: zlib.gzipSync(identity, { level: 9 }),
  };
}

/** br when the browser takes it, else gzip, else none (a coding refused with q=0 is not taken). */
function pageEncoding(accept: string | undefined): keyof Page {
  const taken = new Set(
    (accept ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(\.0*)?$/.test(part))
      .map((part) => part.split(';')[0]),
  );
  if (taken.has('br')) return 'br';
  if (taken.has('gzip')) return 'gzip';
  return 'identity';
}

/**
 * The built SPA's files; hashed assets are cached for a year. Returns the page for a page path: the
 * landing page pre-rendered (landing.html, written by scripts/prerender.mjs: docs/decisions/025) for `/`;
 * elsewhere index.html (the page frame pre-rendered in it), with `<link rel="modulepreload">` for the
 * chunks of the path's area (preload.json, written by the build: vite.config.ts), so they download beside
 * the entry script rather than after it.
 */
async function serveClient(app: FastifyInstance, clientDir: string): Promise<(pathname: string) => Page> {
  const indexHtml = fs.readFileSync(path.join(clientDir, 'index.html'));
  const landingFile = path.join(clientDir, 'landing.html');
  const index = compressedPage(indexHtml);
  const landing = fs.existsSync(landingFile) ? compressedPage(fs.readFileSync(landingFile)) : index;
  const pages = areaPages(indexHtml.toString('utf8'), path.join(clientDir, 'preload.json'));
  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: false,
    index: false,
    // Our cache-control below, not the plugin's.
    cacheControl: false,
    // The build writes .br and .gz beside each file (vite.config.ts): sent to browsers that accept them.
    preCompressed: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header(
        'cache-control',
        immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
    },
  });
  return (pathname) => {
    if (pathname === '/') return landing;
    return pages.find(([prefix]) => pathname.startsWith(prefix))?.[1] ?? index;
  };
}

/** [path prefix, page] for each area in preload.json; none when the build wrote no such file. */
function areaPages(indexHtml: string, preloadFile: string): [string, Page][] {
  if (!fs.existsSync(preloadFile)) return [];
  const preloads = JSON.parse(fs.readFileSync(preloadFile, 'utf8')) as Record<string, string[]>;
  return Object.entries(preloads).map(([prefix, files]) => {
    const links = files.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`).join('');
    return [prefix, compressedPage(indexHtml.replace('</head>', `${links}</head>`))];
  });
}
