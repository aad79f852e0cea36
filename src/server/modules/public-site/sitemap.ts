// The public directory's sitemap (docs/decisions/034): its fixed pages and every shop's page, with the
// date each last changed (from the audit log) and its pictures (Google's image extension). 50,000 URLs per
// file, as sitemaps.org allows: beyond that /sitemap.xml is an index of /sitemap-1.xml, /sitemap-2.xml…
import { type SQL, sql } from 'drizzle-orm';
import { imageUrl, parseImageKey } from '../../../shared/images';
import type { Db } from '../../db/client';

/** The most URLs one sitemap file may list (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

export interface SitemapEntry {
  /** The page's path under the site's base URL: "/", "/shops/pixel-point". */
  path: string;
  /** When the page last changed, W3C Datetime in UTC ("2026-11-27T10:00:00Z"); null when unknown. */
  lastmod: string | null;
  /** Paths of the page's pictures (their largest WebP variant). */
  images: string[];
}

/** The public pages that are always there, in this order before the shops. (/search is not a page to list.) */
export const FIXED_PATHS = ['/', '/shops', '/offers', '/floors', '/events'] as const;

/**
 * Audit entries that change what the public pages show: the directory's records and the mall's own
 * settings; not accounts, invites, managers, imports (each record an import changed has its own entry)
 * or the log's pruning. A manager's offer waiting for approval shows nowhere yet: its submission, an
 * admin's sending it back and the creation of a not-yet-approved offer are left out.
 */
const PUBLIC_CHANGE = sql`action not in ('submit', 'send_back')
  and coalesce(detail->>'review', '') <> 'pending'`;
const PUBLIC_TYPES = sql`entity_type in ('shop', 'product', 'offer', 'event', 'category', 'floor', 'amenity', 'mall')`;
/** A shop's page shows the shop, its products and its offers. */
const SHOP_PAGE_TYPES = sql`entity_type in ('shop', 'product', 'offer')`;

/** A timestamp with time zone as W3C Datetime in UTC, to the second. */
const w3c = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

function imagePath(key: string | null): string[] {
  const image = parseImageKey(key);
  return image ? [imageUrl(image.key, 1200, 'webp')] : [];
}

/**
 * Every public URL with its last change and pictures: the fixed pages (their date: the latest public
 * change of the mall; the mall's logo on the home page, the floor plans on /floors), then each shop by its
 * slug (its date: its latest audited change or its own, else its creation; its logo and cover). Two
 * queries whatever the number of shops: one for the mall, one for all shops (the audit log aggregated
 * per shop and joined, no query per shop), ordered by slug.
 */
export async function sitemapEntries(db: Db): Promise<SitemapEntry[]> {
  const { rows: mallRows } = await db.execute<{
    lastmod: string | null;
    logo: string | null;
    plans: string[] | null;
  }>(sql`
    select
      coalesce(
        (select ${w3c(sql`at`)} from audit_log where ${PUBLIC_TYPES} and ${PUBLIC_CHANGE} order by id desc limit 1),
        (select ${w3c(sql`max(created_at)`)} from shops)
      ) as lastmod,
      (select logo_image from mall_profile where id = 1) as logo,
      (select array_agg(plan_image order by level) from floors where plan_image is not null) as plans
  `);
  const mall = mallRows[0];
  const fixedDate = mall?.lastmod ?? null;
  const entries: SitemapEntry[] = FIXED_PATHS.map((path) => ({
    path,
    lastmod: fixedDate,
    images:
      path === '/'
        ? imagePath(mall?.logo ?? null)
        : path === '/floors'
          ? (mall?.plans ?? []).flatMap(imagePath)
          : [],
  }));

  const { rows: shopRows } = await db.execute<{
    slug: string;
    lastmod: string;
    logo: string | null;
    cover: string | null;
  }>(sql`
    select s.slug, ${w3c(sql`greatest(s.created_at, changed.at)`)} as lastmod,
      s.logo_image as logo, s.cover_image as cover
    from shops s
    left join (
      select shop_id, max(at) as at from audit_log
      where shop_id is not null and ${SHOP_PAGE_TYPES} and ${PUBLIC_CHANGE}
      group by shop_id
    ) changed on changed.shop_id = s.id
    where s.slug <> ''
    order by s.slug
  `);
  for (const shop of shopRows)
    entries.push({
      path: `/shops/${encodeURIComponent(shop.slug)}`,
      lastmod: shop.lastmod,
      images: [...imagePath(shop.logo), ...imagePath(shop.cover)],
    });

  // Each approved event's page (issue 35): its date the latest public change to it, else its creation.
  const { rows: eventRows } = await db.execute<{ id: string; lastmod: string; image: string | null }>(sql`
    select e.id, ${w3c(sql`greatest(e.created_at, changed.at)`)} as lastmod, e.image
    from events e
    left join (
      select entity_id, max(at) as at from audit_log
      where entity_type = 'event' and ${PUBLIC_CHANGE}
      group by entity_id
    ) changed on changed.entity_id = e.id
    where e.approved
    order by e.id
  `);
  for (const event of eventRows)
    entries.push({ path: `/events/${event.id}`, lastmod: event.lastmod, images: imagePath(event.image) });
  return entries;
}

/** The entries split into sitemap files of at most SITEMAP_MAX_URLS each. */
export function sitemapFiles(entries: readonly SitemapEntry[], perFile = SITEMAP_MAX_URLS): SitemapEntry[][] {
  const files: SitemapEntry[][] = [];
  for (let start = 0; start < entries.length; start += perFile)
    files.push(entries.slice(start, start + perFile));
  return files;
}

/** The latest of the entries' dates (W3C Datetime in UTC compares as text); null when none has one. */
export function latestLastmod(entries: readonly SitemapEntry[]): string | null {
  let latest: string | null = null;
  for (const { lastmod } of entries) if (lastmod && (latest === null || lastmod > latest)) latest = lastmod;
  return latest;
}

/** Characters XML 1.0 cannot hold at all: control characters but tab and line ends, U+FFFE and U+FFFF. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: those are the characters it removes
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/**
 * Text for XML content or an attribute value: the five special characters as entities, and what XML
 * cannot hold left out. (The sitemap's URLs are ASCII already: slugs, image keys and a parsed base URL.)
 */
export function xmlEscape(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const IMAGE_NS = 'http://www.google.com/schemas/sitemap-image/1.1';

/** One sitemap file: a urlset of the entries' absolute URLs, their dates and pictures. */
export function renderUrlset(entries: readonly SitemapEntry[], baseUrl: string): string {
  const parts = [XML_DECLARATION, `<urlset xmlns="${SITEMAP_NS}" xmlns:image="${IMAGE_NS}">\n`];
  for (const entry of entries) {
    parts.push(`<url><loc>${xmlEscape(baseUrl + entry.path)}</loc>`);
    if (entry.lastmod) parts.push(`<lastmod>${xmlEscape(entry.lastmod)}</lastmod>`);
    for (const image of entry.images)
      parts.push(`<image:image><image:loc>${xmlEscape(baseUrl + image)}</image:loc></image:image>`);
    parts.push('</url>\n');
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

/** The path of the nth sitemap file (from 1) that an index lists. */
export function sitemapFilePath(n: number): string {
  return `/sitemap-${n}.xml`;
}

/**
 * The sitemap index: /sitemap-1.xml … /sitemap-<count>.xml, each with its date (one for all, or one per
 * file, in order).
 */
export function renderSitemapIndex(
  count: number,
  baseUrl: string,
  lastmod: string | null | readonly (string | null)[],
): string {
  const parts = [XML_DECLARATION, `<sitemapindex xmlns="${SITEMAP_NS}">\n`];
  for (let n = 1; n <= count; n += 1) {
    const date = typeof lastmod === 'string' || lastmod === null ? lastmod : (lastmod[n - 1] ?? null);
    parts.push(`<sitemap><loc>${xmlEscape(baseUrl + sitemapFilePath(n))}</loc>`);
    if (date) parts.push(`<lastmod>${xmlEscape(date)}</lastmod>`);
    parts.push('</sitemap>\n');
  }
  parts.push('</sitemapindex>\n');
  return parts.join('');
}

/**
 * The site's base URL for absolute links: the mall profile's public URL when set, else the request's own
 * origin (its protocol and Host, which Fastify reads from X-Forwarded-* only under MALL_TRUST_PROXY).
 * Normalised (a host in lower case and as punycode, no trailing slash); null when the Host does not make
 * a URL.
 */
export function siteBaseUrl(publicUrl: string, protocol: string, host: string): string | null {
  const candidate = publicUrl || `${protocol}://${host}`;
  try {
    const url = new URL(candidate);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname) return null;
    if (url.username || url.password || url.search || url.hash) return null;
    // Only what was given: a Host with a path or a query in it is not a host.
    if (!publicUrl && url.pathname !== '/') return null;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return null;
  }
}
