// Serving the built React app: its files (hashed assets cached for a year), its pages (pre-rendered,
// compressed once at start-up) for the client router's paths, and the 404 for every path no route
// matched — the same page for an unknown page path, the JSON error body for anything else.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { canonicalPage, PAGE_PATHS, pageMatcher } from '../../shared/page-paths';
import { notFoundBody } from '../errors';
import { decodedPath, isApiRequest } from '../lib/request-route';

export interface ClientPagesOptions {
  /** Folder of the built React app to serve; omitted in API tests and under the Vite dev server. */
  clientDir?: string;
  /** The public directory's pages are the server's (plugins/public-pages.ts); off, they are not pages at all. */
  publicDirectory?: boolean;
}

/** The public directory's paths (docs/decisions/034): answered by plugins/public-pages.ts when it is on. */
const PUBLIC_PATHS: readonly string[] = [
  PAGE_PATHS.shops,
  PAGE_PATHS.shop,
  PAGE_PATHS.offers,
  PAGE_PATHS.floors,
  PAGE_PATHS.search,
  PAGE_PATHS.events,
  PAGE_PATHS.event,
];
const CLIENT_PATHS = Object.values(PAGE_PATHS).filter((page) => !PUBLIC_PATHS.includes(page));
/** The client's other page paths (src/shared/page-paths.ts, which its router takes its paths from). */
const isClientPage = pageMatcher(CLIENT_PATHS);
const canonicalOf = { withDirectory: canonicalPage(), withoutDirectory: canonicalPage(CLIENT_PATHS) };

/**
 * On the root instance, whose not-found handler it sets: without `clientDir`, every path no route matched
 * gets the JSON 404.
 */
export const clientPagesPlugin = fp<ClientPagesOptions>(
  async (app, { clientDir, publicDirectory = false }) => {
    const pageHtml = clientDir ? await serveClient(app, clientDir) : null;
    app.setNotFoundHandler((request, reply) => {
      const pathname = decodedPath(request);
      const isPage = !isApiRequest(request) && ['GET', 'HEAD'].includes(request.method);
      // A page spelt another way the app's router takes (/Shops, /shops/, /PRIVACY): its one address,
      // for good, so each page is known to search engines (and to a browser's history) once.
      const canonical = isPage
        ? (publicDirectory ? canonicalOf.withDirectory : canonicalOf.withoutDirectory)(pathname)
        : null;
      if (canonical !== null && canonical !== pathname) {
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        return reply.redirect(`${canonical.split('/').map(encodeURIComponent).join('/')}${query}`, 301);
      }
      if (!pageHtml || !isPage) return reply.status(404).send(notFoundBody(request.method, pathname));
      // A page of the client's router is 200; any other path (and /404 itself) is 404 with the same page,
      // whose router sends it on to /404 as the spec says (docs/decisions/026).
      const page = pageHtml(pathname);
      const encoding = pageEncoding(request.headers['accept-encoding']);
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return (
        reply
          .status(isClientPage(pathname) ? 200 : 404)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          // the app's own pages (sign-in, the areas behind it) are not for a search engine's index; the
          // landing page is, as are the public directory's pages (docs/decisions/034)
          .header('x-robots-tag', pathname === '/' && publicDirectory ? 'all' : 'noindex')
          .header('vary', 'accept-encoding')
          .send(page[encoding])
      );
    });
  },
  { name: 'client-pages' },
);

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
export function pageEncoding(accept: string | undefined): keyof Page {
  const header = accept ?? '';
  const known = encodingsSeen.get(header);
  if (known) return known;
  const chosen = chooseEncoding(header);
  // Browsers send a handful of distinct headers: each is parsed once (it was 3% of a cached
  // page's time). Bounded, so a client sending a new one each time costs a parse and nothing kept.
  if (header.length <= 256) {
    if (encodingsSeen.size >= 64) encodingsSeen.clear();
    encodingsSeen.set(header, chosen);
  }
  return chosen;
}

const encodingsSeen = new Map<string, keyof Page>();

function chooseEncoding(accept: string): keyof Page {
  const taken = new Set(
    accept
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
