// What search engines read first (issue 33, docs/decisions/034): /robots.txt (the public pages allowed,
// the signed-in areas and the API not, the sitemap named) and /sitemap.xml — a urlset of the public pages
// with their last change and pictures, or an index of /sitemap-1.xml, /sitemap-2.xml… beyond 50,000 URLs.
// MALL_PUBLIC_DIRECTORY=off: robots disallows everything, and there is no sitemap (404).
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { MallProfile } from '../../shared/mall-profile';
import type { Db } from '../db/client';
import { errorAnswers, HttpError, NotModified } from '../errors';
import { mallProfileRepository } from '../modules/mall-profile/repository';
import {
  latestLastmod,
  renderSitemapIndex,
  renderUrlset,
  type SitemapEntry,
  siteBaseUrl,
  sitemapEntries,
  sitemapFiles,
} from '../modules/public-site/sitemap';

export interface SitemapRobotsOptions {
  db: Db;
  /** MALL_PUBLIC_DIRECTORY: off, robots disallows everything and the sitemaps answer 404. */
  publicDirectory: boolean;
  /**
   * The catalogue version now (the app's `catalogVersion`, auth/sessions.ts, answers from the session
   * cache); when omitted, read here with one small query per request.
   */
  catalogVersion?: () => Promise<string>;
  /** Upper bound of the rendered sitemap files kept, in bytes. */
  maxCacheBytes?: number;
}

/** Paths no search engine needs: the API (but its images), the signed-in areas, sign-in and registration. */
const DISALLOWED = [
  '/api/',
  '/admin',
  '/manage',
  '/user',
  '/account',
  '/login',
  '/register',
  '/unauthorized',
];
/** The pictures the public pages and the sitemap show are under /api: Google takes the longer rule. */
const ALLOWED = ['/', '/api/images/'];

/** robots.txt (RFC 9309) for the directory being public or not, naming the sitemap when there is a base URL. */
export function robotsTxt(publicDirectory: boolean, baseUrl: string | null): string {
  if (!publicDirectory) return 'User-agent: *\nDisallow: /\n';
  const lines = [
    'User-agent: *',
    ...ALLOWED.map((path) => `Allow: ${path}`),
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
  ];
  if (baseUrl) lines.push('', `Sitemap: ${baseUrl}/sitemap.xml`);
  return `${lines.join('\n')}\n`;
}

const TextFile = {
  description: 'robots.txt (RFC 9309)',
  content: { 'text/plain': { schema: z.string().meta({ contentMediaType: 'text/plain' }) } },
};
const XmlFile = {
  description:
    'A sitemap (sitemaps.org 0.9, with Google image entries), or the index of the sitemap files beyond 50,000 URLs',
  // written as it is (bytes, gzip when the client takes it), never serialized
  content: {
    'application/xml': {
      schema: z.custom<Buffer>(() => true).meta({ contentMediaType: 'application/xml' }),
    },
  },
};
/** A sitemap file's number: 1, 2…, written plainly (no sign, no leading zero). Anything else is no file. */
const SitemapParams = z.strictObject({
  n: z.string().regex(/^[1-9]\d{0,5}$/, 'No such sitemap'),
});

const noSitemap = () => new HttpError(404, 'NOT_FOUND', 'No such sitemap');
const badHost = () =>
  new HttpError(
    400,
    'BAD_HOST',
    'The Host of the request does not make a URL; set the public URL in the mall profile',
  );

/** The directory as the sitemap lists it, read under one catalogue version. */
interface Snapshot {
  version: bigint;
  profile: MallProfile;
  files: SitemapEntry[][];
}

interface Rendered {
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
}

const gzip = promisify(zlib.gzip);

/** GET /robots.txt, /sitemap.xml and /sitemap-<n>.xml; not API routes (no session, no rate limit). */
export const sitemapRobotsPlugin = fp<SitemapRobotsOptions>(
  async (plain, { db, publicDirectory, catalogVersion, maxCacheBytes = 64 * 1024 * 1024 }) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const profiles = mallProfileRepository(db);
    const readVersion =
      catalogVersion ??
      (async () => {
        const { rows } = await db.execute<{ version: string }>(
          sql`select version::text as version from catalog_version where id = 1`,
        );
        return rows[0]?.version ?? '0';
      });

    // The version is read before the data, so what is kept under a version is at least as new as it
    // (read-cache.ts, docs/decisions/005): a request is answered from a snapshot of its version or a later one.
    let current: Snapshot | null = null;
    const loading = new Map<bigint, Promise<Snapshot>>();
    let profileSeen: { version: bigint; profile: MallProfile } | null = null;

    const versionOf = async (request: FastifyRequest): Promise<bigint> =>
      BigInt(request.catalogVersion ?? (await readVersion()));

    async function profileAt(version: bigint): Promise<MallProfile> {
      if (current && current.version >= version) return current.profile;
      if (profileSeen && profileSeen.version >= version) return profileSeen.profile;
      const profile = await profiles.get();
      if (!profileSeen || profileSeen.version < version) profileSeen = { version, profile };
      return profile;
    }

    async function snapshotAt(version: bigint): Promise<Snapshot> {
      if (current && current.version >= version) return current;
      let pending = loading.get(version);
      if (!pending) {
        pending = (async () => {
          const profile = await profiles.get();
          const files = sitemapFiles(await sitemapEntries(db));
          const snapshot: Snapshot = { version, profile, files };
          if (!current || current.version < version) current = snapshot;
          return snapshot;
        })().finally(() => loading.delete(version));
        loading.set(version, pending);
      }
      return pending;
    }

    const rendered = new LRUCache<string, Rendered>({
      maxSize: maxCacheBytes,
      sizeCalculation: (entry, key) => entry.body.length + (entry.gzip?.length ?? 0) + key.length,
    });

    /** The file's bytes from the cache, or rendered once (its ETag from its content). */
    function renderedFile(key: string, render: () => string): Rendered {
      const known = rendered.get(key);
      if (known) return known;
      const body = Buffer.from(render());
      const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      const entry: Rendered = { body, gzip: null, etag };
      rendered.set(key, entry);
      return entry;
    }

    async function sendXml(request: FastifyRequest, reply: FastifyReply, key: string, entry: Rendered) {
      reply.header('etag', entry.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
      if (matchesEtag(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
      reply.type('application/xml; charset=utf-8');
      if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(entry.body);
      if (!entry.gzip) {
        entry.gzip = await gzip(entry.body);
        // Counted at its new size.
        rendered.set(key, entry);
      }
      return reply.header('content-encoding', 'gzip').send(entry.gzip);
    }

    /** The snapshot and base URL a sitemap request is answered from; 404 when the directory is off. */
    async function sitemapContext(request: FastifyRequest) {
      if (!publicDirectory) throw noSitemap();
      const snapshot = await snapshotAt(await versionOf(request));
      const base = siteBaseUrl(snapshot.profile.publicUrl, request.protocol, request.host);
      if (!base) throw badHost();
      return { snapshot, base };
    }

    app.get('/robots.txt', { schema: { response: { 200: TextFile } } }, async (request, reply) => {
      const base = publicDirectory
        ? siteBaseUrl((await profileAt(await versionOf(request))).publicUrl, request.protocol, request.host)
        : null;
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(robotsTxt(publicDirectory, base));
    });

    app.get(
      '/sitemap.xml',
      { schema: { response: { 200: XmlFile, 304: NotModified, ...errorAnswers(400, 404) } } },
      async (request, reply) => {
        const { snapshot, base } = await sitemapContext(request);
        const { files } = snapshot;
        const key = `${snapshot.version} ${base} index`;
        const entry = renderedFile(key, () =>
          files.length > 1
            ? renderSitemapIndex(files.length, base, files.map(latestLastmod))
            : renderUrlset(files[0] ?? [], base),
        );
        return sendXml(request, reply, key, entry);
      },
    );

    app.get(
      '/sitemap-:n.xml',
      {
        schema: {
          params: SitemapParams,
          response: { 200: XmlFile, 304: NotModified, ...errorAnswers(400, 404) },
        },
      },
      async (request, reply) => {
        const { snapshot, base } = await sitemapContext(request);
        const n = Number(request.params.n);
        // Only when /sitemap.xml is an index: a single file is /sitemap.xml itself.
        const file = snapshot.files.length > 1 ? snapshot.files[n - 1] : undefined;
        if (!file) throw noSitemap();
        const key = `${snapshot.version} ${base} ${n}`;
        return sendXml(
          request,
          reply,
          key,
          renderedFile(key, () => renderUrlset(file, base)),
        );
      },
    );
  },
  { name: 'sitemap-robots' },
);

/** If-None-Match names this ETag (or is `*`): a list, weak or strong, compares by the opaque tag. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const tag = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value.replace(/^W\//, '') === tag;
  });
}

/** gzip is among the codings the client takes (and not refused with q=0). */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding = '', ...parameters] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') return false;
    return !parameters.some((parameter) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(parameter));
  });
}
