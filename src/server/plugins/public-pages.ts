// The public directory's pages (docs/decisions/034): /shops, /shops/{slug}, /offers, /floors and /search,
// rendered on the server from the client's own screens (pages/renderer.ts), with their title, description,
// canonical URL, social card and structured data in <head>, then hydrated by the browser. A rendered
// page is kept while the catalogue version and the mall's date are those it was drawn under, and no
// longer than the earliest "Open now" status on it holds (the renderer says until when).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { imageUrl } from '../../shared/images';
import type { MallProfile } from '../../shared/mall-profile';
import type { Db } from '../db/client';
import type { FrontDoor } from '../front-door';
import { upgradeBrotli } from '../lib/better-brotli';
import { mallToday } from '../lib/mall-time';
import { findPublicEvent } from '../modules/events/public-event';
import { isBot } from '../modules/insights/bots';
import { mallProfileRepository } from '../modules/mall-profile/repository';
import { findShopByAddress } from '../modules/public-site/shop-address';
import { pageRenderer, type RenderedPage } from '../pages/renderer';
import type { CountVisit } from '../rate-limits';
import { pageEncoding } from './client-pages';
import { HSTS, securityHeaders } from './security-headers';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public directory page (rate-limited per address like the API, indexable). */
    publicPage?: boolean;
  }
}

export interface PublicPagesOptions {
  db: Db;
  timeZone: string;
  now: () => Date;
  /** The built client (its page template and chunk list); without it, a bare template (API tests). */
  clientDir?: string;
  /** Extra <head> content for a page: its structured data (JSON-LD scripts). */
  structuredData?: (page: PageContext) => Promise<string>;
  /**
   * Counts a view of a shop's page (insights, docs/decisions/035): in memory, so a kept page is sent
   * without asking the database. Known bots are left out. The browser does not count the page it
   * arrived on again when it hydrates it (client lib/insights.ts).
   */
  countShopView?: (shopId: string) => void;
  /**
   * Where kept pages are sent from before Fastify routes a request (docs/decisions/045), with what the
   * routed request's hooks would have done to it: the overload guard's verdict and the rate limit's count.
   */
  front?: {
    door: FrontDoor;
    /** The overload guard refuses requests now (overload.ts). */
    overloaded: () => boolean;
    /** The rate limit's count of a visit, when limits are on (rate-limits.ts). */
    countVisit?: CountVisit;
  };
}

export type PageKind = 'shops' | 'shop' | 'offers' | 'floors' | 'search' | 'events' | 'event';

export interface PageContext {
  kind: PageKind;
  /** The site's origin as search engines see it (the profile's public URL, else this request's). */
  baseUrl: string;
  profile: MallProfile;
  /** The rendered page's reads, by query key. */
  rendered: RenderedPage;
  /** The shop page's shop id. */
  shopId?: string;
  /** The event page's event id. */
  eventId?: string;
  slug?: string;
}

/** The query parameters each page reads, in a fixed order: any other (utm_…) neither changes nor splits it. */
const PAGE_PARAMS: Record<PageKind, readonly string[]> = {
  shops: ['q', 'category', 'floor', 'open', 'page'],
  shop: ['page'],
  offers: ['page'],
  floors: [],
  search: ['q', 'kind', 'page'],
  events: ['tag', 'floor'],
  event: [],
};

/** The page's own address: its path and the parameters it reads, each once. */
export function canonicalSearch(kind: PageKind, query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const name of PAGE_PARAMS[kind]) {
    const raw = query[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value !== 'string' || value === '') continue;
    // Pages the lists have (the API's 1 to 100,000); any other is the first.
    if (name === 'page' && (!/^\d{1,6}$/.test(value) || Number(value) <= 1 || Number(value) > 100_000))
      continue;
    params.set(name, value.slice(0, 200));
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}

interface Entry {
  /** Drawn from a failed read: sent (noindex, no-store), never kept. */
  failed: boolean;
  version: string;
  mallDate: string;
  validUntil: number;
  etag: string;
  /** The page, and brotli'd (what browsers ask for); gzip made when a client first asks for it. */
  body: { identity: Buffer; br: Buffer; gzip?: Buffer };
  /** `br` is at quality 11, or being made so (lib/better-brotli.ts): set at the page's first hit. */
  brBest?: boolean;
  /** The shop a shop's page shows (its views are counted by it). */
  shopId?: string;
}

const MAX_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * Raw URLs learnt for the front door (a few per page: its own and the spellings people use): their
 * characters at most (about 4 MB; a URL of tens of characters each, so tens of thousands), each at most.
 */
const MAX_LEARNT_CHARS = 4 * 1024 * 1024;
const MAX_LEARNT_URL = 512;

interface PageAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body: Buffer | null;
}
const BARE_TEMPLATE =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Super Mall</title></head><body><div id="root"></div></body></html>';

export const publicPagesPlugin = fp<PublicPagesOptions>(
  async (app, options) => {
    const { db, timeZone, now } = options;
    const render = pageRenderer(app);
    // Loaded once the server listens (not before: start-up stays as quick), not at the first visitor.
    app.addHook('onListen', async () => render.warm());
    const profiles = mallProfileRepository(db);
    // The profile as of a catalogue version (a change to it raises the version): read once per version,
    // and kept as read, so that a kept page is sent without waiting on anything.
    let profileSeen: { version: string; profile: Promise<MallProfile>; read?: MallProfile } | null = null;
    const profileAt = (version: string): Promise<MallProfile> => {
      if (profileSeen?.version === version) return profileSeen.profile;
      const seen: NonNullable<typeof profileSeen> = { version, profile: profiles.get() };
      seen.profile.then(
        (profile) => {
          seen.read = profile;
        },
        // A failed read is not kept: the next request asks again.
        () => {
          if (profileSeen === seen) profileSeen = null;
        },
      );
      profileSeen = seen;
      return seen.profile;
    };
    const template = pageTemplate(options.clientDir);
    const cache = new LRUCache<string, Entry>({
      maxSize: MAX_CACHE_BYTES,
      sizeCalculation: (entry, key) =>
        entry.body.identity.length + entry.body.br.length + (entry.body.gzip?.length ?? 0) + key.length,
    });

    // The raw URLs the router has led to a page, and that page's address (the front door's way in).
    const learnt = new LRUCache<string, { kind: PageKind; url: string }>({
      maxSize: MAX_LEARNT_CHARS,
      sizeCalculation: (page, rawUrl) => rawUrl.length + page.url.length + 64,
    });

    // Renders under way, by cache key: requests for a page being drawn wait for that one drawing.
    const drawing = new Map<string, Promise<Entry>>();

    /** Whether `entry` may be sent for a request under `version` at `at`. */
    const isFresh = (entry: Entry | undefined, version: string, at: Date): entry is Entry =>
      entry?.version === version &&
      entry.mallDate === mallToday(timeZone, at) &&
      at.getTime() < entry.validUntil;

    /**
     * The page kept for `url`, when everything that decides it is known at once (the catalogue version
     * and the profile of that version, already read) and it is still fresh; else null, and the request
     * takes the way that may wait (`drawAndSend`). A kept page, the bulk of the traffic, is so sent with no
     * promise in between (docs/decisions/044).
     */
    function keptNow(
      url: string,
      protocol: string | undefined,
      host: string,
    ): { entry: Entry; key: string } | null {
      const version = app.catalogVersionKnown();
      const profile = profileSeen?.version === version ? profileSeen.read : undefined;
      if (version === null || !profile) return null;
      const key = `${originOf(profile, protocol, host)} ${url}`;
      const entry = cache.get(key);
      return isFresh(entry, version, now()) ? { entry, key } : null;
    }

    const page = (kind: PageKind) => (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as Record<string, unknown>;
      const asked =
        kind === 'shop'
          ? (request.params as { slug: string }).slug
          : kind === 'event'
            ? (request.params as { id: string }).id
            : '';
      // `/shops/`, `/events/` (the router gives them an empty parameter): the list itself, as /Shops/ is.
      if ((kind === 'shop' || kind === 'event') && asked === '') {
        const list = kind === 'shop' ? 'shops' : 'events';
        return reply.redirect(`/${list}${canonicalSearch(list, query)}`, 301);
      }
      const pathname =
        kind === 'shop'
          ? `/shops/${encodeURIComponent(asked)}`
          : kind === 'event'
            ? `/events/${encodeURIComponent(asked)}`
            : `/${kind}`;
      const url = `${pathname}${canonicalSearch(kind, query)}`;
      const kept = keptNow(url, request.protocol, request.host);
      if (kept) return sendPage(request, reply, kind, url, kept.entry, kept.key);
      return drawAndSend(request, reply, kind, asked, url);
    };

    /** A page not known to be kept: the version and profile read, then kept or drawn (and kept). */
    async function drawAndSend(
      request: FastifyRequest,
      reply: FastifyReply,
      kind: PageKind,
      asked: string,
      url: string,
    ) {
      const query = request.query as Record<string, unknown>;
      const version = await app.catalogVersion();
      const at = now();
      const mallDate = mallToday(timeZone, at);
      // The page names its own origin (canonical, og:url, structured data): without a public URL in the
      // profile, the request's Host. Kept apart per origin, so no request's Host is in another's page.
      const profile = await profileAt(version);
      const origin = baseUrl(request, profile);
      const key = `${origin} ${url}`;
      const kept = cache.get(key);
      if (isFresh(kept, version, at)) return sendPage(request, reply, kind, url, kept, key);
      // Only a page not kept asks which shop an address names (a kept page is a live slug's).
      let shopId: string | undefined;
      if (kind === 'shop') {
        const found = await findShopByAddress(db, asked);
        if (!found) return notFound(request, reply, 'shop');
        if (found.slug !== asked) {
          // An old address or the shop's id: its own address, for good (search engines move with it).
          return reply.redirect(
            `/shops/${encodeURIComponent(found.slug)}${canonicalSearch(kind, query)}`,
            301,
          );
        }
        shopId = found.id;
      }
      // An event that is not (or not yet) public: the page says so, with a 404.
      if (kind === 'event' && !(await findPublicEvent(db, asked))) return notFound(request, reply, 'event');
      let drawn = drawing.get(key);
      if (!drawn) {
        drawn = draw({ kind, url, key, version, mallDate, at, origin, profile, shopId, slug: asked, query });
        drawing.set(key, drawn);
        void drawn.finally(() => drawing.delete(key)).catch(() => undefined);
      }
      return sendPage(request, reply, kind, url, await drawn, key, false);
    }

    /**
     * Sends a page: its view counted (a shop's), its validators, and its body in the encoding the client
     * takes. `kept`: it came from the cache, so a second hit has it brotli'd at its best for the next ones.
     * The request's raw URL is learnt as this page's, for the front door (below).
     */
    function sendPage(
      request: FastifyRequest,
      reply: FastifyReply,
      kind: PageKind,
      url: string,
      entry: Entry,
      key: string,
      kept = true,
    ) {
      if (!entry.failed && options.front && request.raw.url && request.raw.url.length <= MAX_LEARNT_URL)
        learnt.set(request.raw.url, { kind, url });
      const answer = visit(request.headers, kind, entry, key, kept);
      return reply
        .code(answer.status)
        .headers(answer.headers)
        .send(answer.body ?? undefined);
    }

    /** What a visit to a page does (its view counted, brotli's best made) and the answer it gets. */
    function visit(headers: IncomingHttpHeaders, kind: PageKind, entry: Entry, key: string, kept: boolean) {
      // Asked for again: worth brotli's best, made off the event loop for the next visitors.
      if (kept && !entry.brBest) {
        const upgrade = upgradeBrotli(entry.body.identity, entry.body.br);
        entry.brBest = upgrade !== null;
        void upgrade?.then((better) => {
          if (!better) return;
          entry.body.br = better;
          if (cache.peek(key) === entry) cache.set(key, entry);
        });
      }
      if (kind === 'shop' && !entry.failed && entry.shopId && options.countShopView && !isBot({ headers }))
        options.countShopView(entry.shopId);
      return pageAnswer(headers, entry, key);
    }

    /** The page's status, headers and body for a request with these headers (no side effects). */
    function pageAnswer(headers: IncomingHttpHeaders, entry: Entry, key: string): PageAnswer {
      const answer: Record<string, string> = entry.failed
        ? // It shows the visitor what failed (a text too long to search, the database away): not kept anywhere.
          { 'cache-control': 'no-store', vary: 'accept-encoding' }
        : { etag: entry.etag, 'cache-control': 'public, no-cache', vary: 'accept-encoding' };
      if (!entry.failed && headers['if-none-match'] === entry.etag)
        return { status: 304, headers: answer, body: null };
      const encoding = pageEncoding(headers['accept-encoding']);
      if (encoding !== 'identity') answer['content-encoding'] = encoding;
      answer['content-type'] = 'text/html; charset=utf-8';
      return { status: 200, headers: answer, body: bodyIn(entry, encoding, key) };
    }

    /** The page in `encoding`; a gzip made now is kept with it (set again: the cache counts its bytes). */
    function bodyIn(entry: Entry, encoding: 'identity' | 'br' | 'gzip', key: string): Buffer {
      if (encoding !== 'gzip') return entry.body[encoding];
      if (!entry.body.gzip) {
        entry.body.gzip = zlib.gzipSync(entry.body.identity, { level: 6 });
        if (cache.peek(key) === entry) cache.set(key, entry);
      }
      return entry.body.gzip;
    }

    interface Drawing {
      kind: PageKind;
      url: string;
      key: string;
      version: string;
      mallDate: string;
      at: Date;
      origin: string;
      profile: MallProfile;
      shopId: string | undefined;
      slug: string;
      query: Record<string, unknown>;
    }

    /** Renders a page and keeps it (unless a read failed). */
    async function draw({
      kind,
      url,
      key,
      version,
      mallDate,
      at,
      origin,
      profile,
      shopId,
      slug,
      query,
    }: Drawing) {
      const rendered = await render(url);
      const context: PageContext = {
        kind,
        baseUrl: origin,
        profile,
        rendered,
        shopId,
        slug: kind === 'shop' ? slug : undefined,
        eventId: kind === 'event' ? slug : undefined,
      };
      // A page drawn from a failed read says so to the visitor, and is nobody's address: no canonical, no
      // structured data, noindex (documentFor without a URL).
      const html = await documentFor(template, context, rendered.failed ? '' : url, options.structuredData);
      const validUntil = Math.min(
        rendered.validUntil,
        // "Open now" lists whatever is open this minute.
        query.open === 'now' ? at.getTime() - (at.getTime() % 60_000) + 60_000 : Number.POSITIVE_INFINITY,
      );
      const entry: Entry = {
        failed: rendered.failed,
        version,
        mallDate,
        validUntil,
        etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"`,
        body: compressed(html),
        shopId,
      };
      // A page drawn from a failed read shows its error: sent, never kept.
      if (!rendered.failed) cache.set(key, entry);
      return entry;
    }

    /** A shop that is not there: the page says so (the app's own Shop not found), with a 404. */
    async function notFound(request: FastifyRequest, reply: FastifyReply, kind: PageKind) {
      const rendered = await render(request.url.split('?')[0] ?? '/');
      const profile = await profiles.get();
      const html = await documentFor(
        template,
        { kind, baseUrl: baseUrl(request, profile), profile, rendered },
        '',
        undefined,
      );
      return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    }

    const declared = {
      hide: true,
      response: {
        200: z.string().describe('The page (HTML)'),
        301: z.undefined().describe('The shop moved to this address (a rename): Location'),
        304: z.undefined().describe('Not modified'),
        404: z.string().describe('No such shop: the page says so'),
      },
    };
    const config = { publicPage: true };
    for (const kind of ['shops', 'offers', 'floors', 'search'] as const)
      app.get(`/${kind}`, { config, schema: declared }, page(kind));
    app.get('/shops/:slug', { config, schema: declared }, page('shop'));
    // Events (issue 35): the calendar and one event's page.
    app.get('/events', { config, schema: declared }, page('events'));
    app.get('/events/:id', { config, schema: declared }, page('event'));

    /**
     * The front door (docs/decisions/045): a request for a page the router has led to before (its raw
     * URL learnt by `sendPage`) whose page is kept and fresh is answered here, before Fastify builds its
     * request, runs its hooks and routes it — with what those hooks would have added: the security headers
     * (and HSTS over HTTPS), the overload guard's refusal and the rate limit's count and headers. Anything
     * else (a page to draw or to wait for, a refusal to give, a method but GET) takes the routed way,
     * which answers it as before. public-pages-front.api.test.ts checks that both ways give the same answer.
     */
    const front = options.front;
    if (front) {
      const facts = front.door.facts;
      front.door.open(
        (raw: IncomingMessage, response: ServerResponse) => {
          if (raw.method !== 'GET') return false;
          const found = learnt.get(raw.url ?? '');
          if (!found) return false;
          const protocol = facts.protocol(raw);
          const kept = keptNow(found.url, protocol, facts.host(raw));
          if (!kept || front.overloaded()) return false;
          const { entry, key } = kept;
          const limited = front.countVisit?.(String(facts.ip(raw)));
          // Over its limit: the routed way counts it again and refuses it with the limiter's own 429.
          if (limited === null) return false;
          const answer = visit(raw.headers, found.kind, entry, key, true);
          const headers: Record<string, string> = { ...securityHeaders() };
          if (protocol === 'https') headers['strict-transport-security'] = HSTS;
          Object.assign(headers, limited, answer.headers);
          if (answer.body) headers['content-length'] = String(answer.body.length);
          response.writeHead(answer.status, headers);
          response.end(answer.body);
          return true;
        },
        (error) => app.log.error({ err: error }, 'the front door failed to send a kept page'),
      );
    }
  },
  { name: 'public-pages' },
);

/** The profile's public URL when set, else this request's own origin (behind MALL_TRUST_PROXY's proxies). */
function baseUrl(request: FastifyRequest, profile: MallProfile): string {
  return originOf(profile, request.protocol, request.host);
}

const originOf = (profile: MallProfile, protocol: string | undefined, host: string) =>
  profile.publicUrl ? profile.publicUrl.replace(/\/+$/, '') : `${protocol}://${host}`;

interface Template {
  html: string;
  /** modulepreload links for the public pages' chunks. */
  preloads: string;
}

function pageTemplate(clientDir: string | undefined): Template {
  const file = clientDir ? path.join(clientDir, 'template.html') : '';
  if (!file || !fs.existsSync(file)) return { html: BARE_TEMPLATE, preloads: '' };
  const preloadFile = path.join(clientDir as string, 'preload.json');
  const chunks = fs.existsSync(preloadFile)
    ? ((JSON.parse(fs.readFileSync(preloadFile, 'utf8')) as Record<string, string[]>)['/shops'] ?? [])
    : [];
  return {
    html: fs.readFileSync(file, 'utf8'),
    // Low priority: the page is drawn already; its styles and pictures come first, these before hydration.
    preloads: chunks
      .map((chunk) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="${chunk}">`)
      .join(''),
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON inside <script type="application/json">: nothing in it can end the element or open a comment. */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

interface Head {
  title: string;
  description: string;
  image: string | null;
  noindex: boolean;
}

function headFor(context: PageContext, search: URLSearchParams): Head {
  const mall = context.profile.name;
  const data = (key: readonly unknown[]) => context.rendered.data(key);
  switch (context.kind) {
    case 'shop': {
      const shop = data(['shops', 'slug', 'detail', context.slug]) as
        | {
            name: string;
            description: string;
            category: string;
            floor: string;
            cover: string | null;
            logo: string | null;
          }
        | undefined;
      if (!shop) return { title: `Shop not found · ${mall}`, description: '', image: null, noindex: true };
      const about = shop.description.trim() || `${shop.name}: ${shop.category} on ${shop.floor} at ${mall}.`;
      return {
        title: `${shop.name} · ${mall}`,
        description: clip(about, 160),
        image: shop.cover ?? shop.logo,
        noindex: false,
      };
    }
    case 'shops':
      return {
        title: `Shops · ${mall}`,
        description: `Every shop at ${mall}: find one by name, category or floor, see whether it is open now and what it offers today.`,
        image: context.profile.logo,
        noindex: false,
      };
    case 'offers':
      return {
        title: `Current Offers · ${mall}`,
        description: `The offers running at ${mall} today, shop by shop, with how long each lasts.`,
        image: context.profile.logo,
        noindex: false,
      };
    case 'floors':
      return {
        title: `Floors · ${mall}`,
        description: `Every floor of ${mall} from the lowest up, with its shops, its amenities and its plan.`,
        image: context.profile.logo,
        noindex: false,
      };
    case 'events': {
      const tag = search.get('tag');
      return {
        title: tag ? `${tag} events · ${mall}` : `Events · ${mall}`,
        description: `What is on at ${mall}: today, this weekend and coming up. Subscribe in your calendar.`,
        image: context.profile.logo,
        noindex: false,
      };
    }
    case 'event': {
      const event = data(['events', 'detail', context.eventId]) as
        | {
            title: string;
            description: string;
            image: string | null;
            status: string;
            place: { name: string };
          }
        | undefined;
      if (!event) return { title: `Event not found · ${mall}`, description: '', image: null, noindex: true };
      const about = event.description.trim() || `${event.title} at ${mall}: ${event.place.name}.`;
      return {
        title: `${event.status === 'cancelled' ? 'Cancelled: ' : ''}${event.title} · ${mall}`,
        description: clip(about, 160),
        image: event.image ?? context.profile.logo,
        noindex: false,
      };
    }
    case 'search': {
      const q = (search.get('q') ?? '').trim();
      return {
        title: q ? `Search: ${q} · ${mall}` : `Search · ${mall}`,
        description: `Shops, products and running offers at ${mall}.`,
        image: context.profile.logo,
        // A site's own search results are not pages for a search engine's index (Google's guidance).
        noindex: true,
      };
    }
  }
}

const clip = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
};

async function documentFor(
  template: Template,
  context: PageContext,
  url: string,
  structuredData: PublicPagesOptions['structuredData'],
): Promise<string> {
  const search = new URLSearchParams(url.split('?')[1] ?? '');
  const head = headFor(context, search);
  const canonical = `${context.baseUrl}${url}`;
  const image = head.image ? `${context.baseUrl}${imageUrl(head.image, 1200, 'webp')}` : null;
  const meta = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<meta name="application-name" content="${escapeHtml(context.profile.name)}" />`,
    head.noindex || !url ? '<meta name="robots" content="noindex, follow" />' : '',
    url ? `<link rel="canonical" href="${escapeHtml(canonical)}" />` : '',
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(context.profile.name)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    url ? `<meta property="og:url" content="${escapeHtml(canonical)}" />` : '',
    image ? `<meta property="og:image" content="${escapeHtml(image)}" />` : '',
    `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${escapeHtml(head.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(head.description)}" />`,
    image ? `<meta name="twitter:image" content="${escapeHtml(image)}" />` : '',
    url && structuredData ? await structuredData(context) : '',
    context.rendered.hints,
    template.preloads,
  ].join('');
  return (
    template.html
      .replace(/<title>[^<]*<\/title>/, '')
      .replace(/<meta name="description"[^>]*>/, '')
      // the page reads without JavaScript: the app's "needs JavaScript" note is not for it
      .replace(/<noscript>[^<]*<\/noscript>/, '')
      .replace('</head>', `${meta}</head>`)
      .replace(
        /<div id="root"[^>]*>[\s\S]*?<\/div>\s*(?=<noscript|<script|<\/body)/,
        // A page drawn from a failed read (a shop not found) shows the error, which its reads sent to the
        // browser do not hold: the browser draws over it (main.tsx) rather than hydrate a page it would
        // render otherwise.
        `<div id="root" data-prerendered="${context.rendered.failed ? 'page-failed' : 'page'}">${context.rendered.html}</div><script type="application/json" id="page-state">${scriptJson(context.rendered.state)}</script>`,
      )
  );
}

function compressed(html: string): Entry['body'] {
  const identity = Buffer.from(html);
  return {
    identity,
    // Quality 4: half quality 5's time on a shop page for 4% more bytes (bench/public-pages.md).
    br: zlib.brotliCompressSync(identity, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
  };
}
