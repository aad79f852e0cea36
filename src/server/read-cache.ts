import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { FastifyInstance, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import { LRUCache } from 'lru-cache';
import { upgradeBrotli } from './lib/better-brotli';
import { pageEncoding } from './plugins/client-pages';

/**
 * What a read's answer varies with (docs/decisions/013). The read cache keys on the first two: the
 * catalogue version (every directory write raises it) and the mall's date. It cannot key on the clock
 * (an answer that changes within a day, "closes in 20 min") or on the person asking: a route that
 * declares either is refused at start-up rather than cached wrongly.
 */
export const VARIANCES = ['catalog', 'mallDate', 'clock', 'user'] as const;
export type Variance = (typeof VARIANCES)[number];
const KEYABLE: readonly Variance[] = ['catalog', 'mallDate'];

export interface CacheContract {
  varies: readonly Variance[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This GET may be answered from the read cache; what its answer varies with. */
    cache?: CacheContract;
  }
  interface FastifyRequest {
    readCache: { key: string; version: string; etag: string; hit: boolean } | null;
  }
}

export interface ReadCacheOptions {
  /** The mall's date now (answers about active offers change with it). */
  today: () => string;
  /** Upper bound of the bodies kept, in bytes. */
  maxBytes?: number;
}

interface Entry {
  version: string;
  /**
   * The JSON, encoded once. A Buffer rather than a string: its bytes live outside V8's heap, so a full
   * cache is not 64 MB for every major garbage collection to mark and move (pauses of 20+ ms on the
   * event loop when it was), and a hit sends them without encoding the text again.
   */
  body: Buffer;
  /** The answer's content type: JSON, or a calendar feed's text/calendar (docs/decisions/036). */
  type: string;
  /** A calendar file's Content-Disposition (its file name), when the route set one. */
  disposition: string | null;
  /** The body compressed, made when a client that takes the coding first hits the entry. */
  br?: Buffer;
  gzip?: Buffer;
  /** `br` is at quality 11, or being made so (lib/better-brotli.ts): set at its second hit. */
  brBest?: boolean;
}

/**
 * Smaller answers go as they are: compressing a few hundred bytes saves less than it costs. Larger ones
 * (a page of shops, a calendar feed of 128 KB) are sent compressed to clients that ask for it.
 */
const COMPRESS_MIN_BYTES = 1024;

/** Brotli at quality 4 as the pages are (docs/decisions/037); gzip at zlib's default level. */
function compressed(body: Buffer, coding: 'br' | 'gzip'): Buffer {
  return coding === 'br'
    ? zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : zlib.gzipSync(body);
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Caches the answers (JSON, or a calendar feed) of directory reads (routes with `config.cache`) and answers `If-None-Match`.
 *
 * Validity: every committed directory change raises catalog_version in the same transaction (deferred
 * triggers, migration 0002), and the session lookup reads catalog_version before the request reads
 * anything else. A body is reused only when stored under the version this request saw; a body stored
 * under an older version is never served. Because the version is read before the data, a stored body
 * is at least as new as its version, never older — on any number of servers sharing one database, and
 * whoever wrote (the app, a script, psql). See docs/decisions/005.
 */
export function registerReadCache(app: FastifyInstance, options: ReadCacheOptions): void {
  const build = buildId();
  const cache = new LRUCache<string, Entry>({
    maxSize: options.maxBytes ?? DEFAULT_MAX_BYTES,
    sizeCalculation: (entry, key) =>
      entry.body.length + (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0) + key.length * 2,
  });

  app.decorateRequest('readCache', null);

  // After validation (a bad query is still a 400) and after the route's role check (onRequest).
  const lookUp = (byDate: boolean): preHandlerAsyncHookHandler =>
    async function readCacheLookUp(request, reply) {
      const version = request.catalogVersion;
      if (version === null) return;
      const today = byDate ? options.today() : '*';
      const key = `${today} ${request.url}`;
      const etag = `W/"${build}.${version}.${today}"`;
      const cached = cache.get(key);
      const hit = cached?.version === version;
      request.readCache = { key, version, etag, hit };
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      if (hit && cached) {
        if (cached.disposition) reply.header('content-disposition', cached.disposition);
        const coding =
          cached.body.length >= COMPRESS_MIN_BYTES
            ? pageEncoding(request.headers['accept-encoding'])
            : 'identity';
        if (coding === 'identity') return reply.type(cached.type).send(cached.body);
        let body = cached[coding];
        if (!body) {
          body = compressed(cached.body, coding);
          // set again: the cache counts the compressed copy in its bound
          cache.set(key, { ...cached, [coding]: body });
        } else if (coding === 'br' && !cached.brBest) {
          // Asked for again: worth brotli's best, made off the event loop for the next clients.
          const current = body;
          const upgrade = upgradeBrotli(cached.body, current);
          cached.brBest = upgrade !== null;
          void upgrade?.then((better) => {
            const now = cache.peek(key);
            if (better && now?.br === current) cache.set(key, { ...now, br: better, brBest: true });
          });
        }
        return reply.type(cached.type).header('content-encoding', coding).send(body);
      }
    };

  const store: onSendHookHandler<unknown> = async (request, reply, payload) => {
    const state = request.readCache;
    if (!state || ![200, 304].includes(reply.statusCode)) return payload;
    // Browsers keep the body and ask again with If-None-Match each time: a 304 costs one small query.
    reply
      .header('etag', state.etag)
      .header('cache-control', 'private, no-cache')
      // a hit may be compressed for one client and not another
      .header('vary', 'accept-encoding');
    if (!state.hit && reply.statusCode === 200 && typeof payload === 'string') {
      const type = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      const disposition = reply.getHeader('content-disposition');
      cache.set(state.key, {
        version: state.version,
        body: Buffer.from(payload),
        type,
        disposition: disposition === undefined ? null : String(disposition),
      });
    }
    return payload;
  };

  const byDate = lookUp(true);
  const byVersionOnly = lookUp(false);
  // Only on the cacheable routes: every other request (writes, assets) runs neither hook.
  app.addHook('onRoute', (route) => {
    const contract = route.config?.cache;
    if (!contract) return;
    assertCacheable(`${[route.method].flat().join(',')} ${route.url}`, contract);
    if (route.method !== 'GET') return;
    route.preHandler = [route.preHandler ?? []]
      .flat()
      .concat(contract.varies.includes('mallDate') ? byDate : byVersionOnly);
    route.onSend = [route.onSend ?? []].flat().concat(store);
  });
}

/** Refuses a contract the cache cannot honour: it would serve one person's or one moment's answer to all. */
export function assertCacheable(route: string, contract: CacheContract): void {
  const unkeyable = contract.varies.filter((variance) => !KEYABLE.includes(variance));
  if (unkeyable.length > 0) {
    throw new Error(
      `${route} declares that its answer varies with ${unkeyable.join(' and ')}, which the read cache cannot key on: do not declare it cacheable`,
    );
  }
  if (!contract.varies.includes('catalog')) {
    throw new Error(`${route}: a cached read must vary with the catalogue version (every write changes it)`);
  }
}

/**
 * Part of every ETag, so that a new release never answers 304 to a body an older one produced: the
 * server bundle's hash when running the build, a random value per process from the sources.
 */
function buildId(): string {
  const file = fileURLToPath(import.meta.url);
  if (!file.endsWith('.js')) return randomBytes(6).toString('base64url');
  return createHash('sha256').update(fs.readFileSync(file)).digest('base64url').slice(0, 10);
}
