// The public directory's structured data (JSON-LD, docs/decisions/034): the mall as a ShoppingCenter,
// each shop as the most specific Store type its category maps to, running offers as Offers and products
// as Products with their price. Pure functions returning plain data; the public pages serialise it with
// `jsonLdScript` into <script type="application/ld+json">. Checked against Google's required and
// recommended properties and schema.org's types in structured-data.test.ts.
import { contactParts } from '../../../shared/contact';
import { WEEKDAY_NAMES, WEEKDAYS, type Weekday } from '../../../shared/hours-core';
import { addDays, wallClock, zonedInstant } from '../../../shared/hours-status';
import { imageUrl, parseImageKey } from '../../../shared/images';
import { type MallProfile, STORE_TYPES, type StoreType } from '../../../shared/mall-profile';

/** A JSON-LD object: plain JSON, no undefined, null or empty string anywhere in it. */
export type JsonLd = { [property: string]: JsonLdValue };
export type JsonLdValue = string | number | boolean | JsonLd | JsonLdValue[];

interface Interval {
  open: string;
  close: string;
}

/** Opening hours as shared/hours.ts stores them (OpeningHours and StoredHours both fit). */
export interface HoursData {
  weekly: Record<Weekday, readonly Interval[]>;
  special: readonly { date: string; intervals: readonly Interval[] }[];
}

/** What every builder needs to know of the site. */
export interface Site {
  /** https://host (and a path, if the mall lives under one), without a trailing slash. */
  baseUrl: string;
  profile: MallProfile;
  mallHours: HoursData | null;
  /** The mall's IANA time zone (MALL_TIMEZONE): offer dates are days there. */
  timeZone: string;
}

/** A shop as the mall's page lists it. */
export interface ShopRef {
  slug: string;
  name: string;
  /** The category's schema.org type (categories.schema_type); `Store` when unknown. */
  storeType: string;
}

/** A shop as its own page describes it (the Shop API type fits, plus its store type and floor plan). */
export interface ShopData extends ShopRef {
  description: string;
  /** Free text: a phone number, an email address and a web address are found in it (shared/contact.ts). */
  contact: string;
  hours: HoursData | null;
  /** Image keys (shared/images.ts). */
  logo: string | null;
  cover: string | null;
  /** The image key of the plan of the shop's floor. */
  floorPlan?: string | null;
  // Shown on the page, not in the structured data: schema.org has no place for them on a Store that
  // Google reads (a unit inside a mall is not a postal address of its own).
  category?: string;
  floor?: string;
  location?: string;
  /** The spec's free-text hours: not schema.org's `openingHours` syntax, so left out. */
  openingHours?: string;
}

/** A running offer (shared/offer.ts field names). */
export interface OfferData {
  id: string;
  title: string;
  description: string;
  /** Whole percent. */
  discount: number;
  /** Calendar dates (YYYY-MM-DD) in the mall's time zone, both included. */
  startDate: string;
  endDate: string;
}

/** A product with its price (shared/product.ts field names). */
export interface ProductData {
  name: string;
  description?: string;
  /** Exact decimal string: "1299.00". */
  price: string;
  /** The price while its offer runs (Product.offerPrice); the offer's own dates are not the price's. */
  offerPrice?: string | null;
  /** Image key. */
  image: string | null;
}

const CONTEXT = 'https://schema.org';

// ---- addresses of things ----

/** The mall's node identifier: the home page plus a fragment. */
export function mallId(baseUrl: string): string {
  return `${baseUrl}/#mall`;
}

export function shopPageUrl(baseUrl: string, slug: string): string {
  return `${baseUrl}/shops/${encodeURIComponent(slug)}`;
}

/** A shop's node identifier: its page plus `#store`. */
export function storeId(baseUrl: string, slug: string): string {
  return `${shopPageUrl(baseUrl, slug)}#store`;
}

/** An offer's node identifier: its shop's page plus `#offer-<id>` (the page may give the card that id). */
export function offerId(baseUrl: string, slug: string, id: string): string {
  return `${shopPageUrl(baseUrl, slug)}#offer-${encodeURIComponent(id)}`;
}

/** The absolute URL of an image's largest WebP variant; undefined for no image (or not a key). */
export function absoluteImageUrl(baseUrl: string, key: string | null | undefined): string | undefined {
  const image = parseImageKey(key);
  return image ? `${baseUrl}${imageUrl(image.key, 1200, 'webp')}` : undefined;
}

/** The category's type when it is one of ours, else `Store`. */
export function storeTypeOf(type: string): StoreType {
  return (STORE_TYPES as readonly string[]).includes(type) ? (type as StoreType) : 'Store';
}

// ---- pieces ----

/** The mall's PostalAddress from its profile: only the fields set; undefined when none is. */
function postalAddress(profile: MallProfile): JsonLd | undefined {
  const address = compact({
    streetAddress: profile.streetAddress.trim(),
    addressLocality: profile.locality.trim(),
    addressRegion: profile.region.trim(),
    postalCode: profile.postalCode.trim(),
    addressCountry: profile.country.trim(),
  });
  return Object.keys(address).length > 0 ? { '@type': 'PostalAddress', ...address } : undefined;
}

function geoCoordinates(profile: MallProfile): JsonLd | undefined {
  const { latitude, longitude } = profile;
  if (latitude === null || longitude === null || !Number.isFinite(latitude) || !Number.isFinite(longitude))
    return undefined;
  return { '@type': 'GeoCoordinates', latitude, longitude };
}

/** "24:00" (the end of the day) as Google reads it: "23:59" (its "open 24 hours" is 00:00–23:59). */
function closesAt(close: string): string {
  return close === '24:00' ? '23:59' : close;
}

/** A day's [opens, closes] pairs; a closed day is "00:00"–"00:00" (Google's "closed all day"). */
function dayTimes(intervals: readonly Interval[]): [string, string][] {
  if (intervals.length === 0) return [['00:00', '00:00']];
  return intervals.map(({ open, close }) => [open, closesAt(close)]);
}

/**
 * Hours as OpeningHoursSpecification, as Google's local-business guide writes them:
 * - the week: one spec per distinct interval, listing the weekdays that have it; an interval past
 *   midnight (22:00–02:00) is one spec on the day it opens ("late night hours"); a closed weekday is
 *   opens = closes = "00:00" ("closed all day");
 * - each special day: its intervals, or "00:00"–"00:00" when closed, with validFrom = validThrough = its
 *   date (a date in the mall's time zone, as the hours are wall-clock times there).
 */
export function openingHoursSpecification(hours: HoursData | null): JsonLd[] {
  if (!hours) return [];
  const weekly = new Map<string, { opens: string; closes: string; days: string[] }>();
  for (const day of WEEKDAYS) {
    for (const [opens, closes] of dayTimes(hours.weekly[day] ?? [])) {
      const key = `${opens}-${closes}`;
      const spec = weekly.get(key) ?? { opens, closes, days: [] };
      spec.days.push(WEEKDAY_NAMES[day]);
      weekly.set(key, spec);
    }
  }
  const specs: JsonLd[] = [...weekly.values()].map(({ opens, closes, days }) => ({
    '@type': 'OpeningHoursSpecification',
    dayOfWeek: days.length === 1 ? (days[0] as string) : days,
    opens,
    closes,
  }));
  const special = [...hours.special].sort((a, b) => a.date.localeCompare(b.date));
  for (const day of special) {
    for (const [opens, closes] of dayTimes(day.intervals))
      specs.push({
        '@type': 'OpeningHoursSpecification',
        opens,
        closes,
        validFrom: day.date,
        validThrough: day.date,
      });
  }
  return specs;
}

/** An instant as ISO 8601 with the zone's offset then: "2026-12-01T00:00:00+05:30". */
function zonedDateTime(instant: number, timeZone: string): string {
  const wall = wallClock(instant, timeZone);
  const offsetMinutes = Math.round((wall.utcWall - Math.floor(instant / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
  return `${new Date(wall.utcWall).toISOString().slice(0, 19)}${sign}${hours}:${minutes}`;
}

/** The first instant of a calendar date in the zone (its midnight, or the first minute after a skipped one). */
export function startOfDay(date: string, timeZone: string): string {
  return zonedDateTime(zonedInstant(date, 0, timeZone), timeZone);
}

/** The last second of a calendar date in the zone: an offer runs to the end of its end date. */
export function endOfDay(date: string, timeZone: string): string {
  return zonedDateTime(zonedInstant(addDays(date, 1), 0, timeZone) - 1000, timeZone);
}

/** The first phone number, email address and web address in a shop's free-text contact. */
function contactOf(contact: string): { telephone?: string; email?: string; website?: string } {
  const found: { telephone?: string; email?: string; website?: string } = {};
  for (const part of contactParts(contact)) {
    if (part.kind === 'tel') found.telephone ??= part.text;
    else if (part.kind === 'email') found.email ??= part.text;
    else if (part.kind === 'web') found.website ??= part.href;
  }
  return found;
}

/** "10% off", then the offer's own words. */
function offerDescription(offer: OfferData): string {
  const discount = `${offer.discount}% off`;
  const description = offer.description.trim();
  return description ? `${discount}. ${description}` : discount;
}

function offerNode(site: Site, shop: ShopRef, offer: OfferData, withShop: boolean): JsonLd {
  const pageUrl = shopPageUrl(site.baseUrl, shop.slug);
  return compact({
    '@type': 'Offer',
    '@id': offerId(site.baseUrl, shop.slug, offer.id),
    name: offer.title.trim(),
    description: offerDescription(offer),
    url: pageUrl,
    validFrom: startOfDay(offer.startDate, site.timeZone),
    validThrough: endOfDay(offer.endDate, site.timeZone),
    offeredBy: withShop ? storeReference(site, shop) : undefined,
  });
}

/** A shop named from another node: its type, identifier, name and page. */
function storeReference(site: Site, shop: ShopRef): JsonLd {
  return compact({
    '@type': storeTypeOf(shop.storeType),
    '@id': storeId(site.baseUrl, shop.slug),
    name: shop.name.trim(),
    url: shopPageUrl(site.baseUrl, shop.slug),
  });
}

function productNode(site: Site, shop: ShopRef, product: ProductData): JsonLd {
  const image = absoluteImageUrl(site.baseUrl, product.image);
  return compact({
    '@type': 'Product',
    name: product.name.trim(),
    description: product.description?.trim(),
    image: image ? [image] : undefined,
    offers: {
      '@type': 'Offer',
      price: product.offerPrice || product.price,
      priceCurrency: site.profile.currency,
      // Shown in the directory, bought in the shop: the mall sells nothing online.
      availability: 'https://schema.org/InStoreOnly',
      url: shopPageUrl(site.baseUrl, shop.slug),
      seller: { '@id': storeId(site.baseUrl, shop.slug) },
    },
  });
}

// ---- the builders ----

/**
 * The mall (for its home page): a ShoppingCenter with its address, position, phone, logo, hours (special
 * days included) and every shop it contains, each by its own page's identifier.
 */
export function mallJsonLd(site: Site, shops: readonly ShopRef[]): JsonLd {
  const { baseUrl, profile } = site;
  const logo = absoluteImageUrl(baseUrl, profile.logo);
  return compact({
    '@context': CONTEXT,
    '@type': 'ShoppingCenter',
    '@id': mallId(baseUrl),
    name: profile.name.trim(),
    url: `${baseUrl}/`,
    logo,
    image: logo ? [logo] : undefined,
    address: postalAddress(profile),
    geo: geoCoordinates(profile),
    telephone: profile.phone.trim(),
    openingHoursSpecification: openingHoursSpecification(site.mallHours),
    containsPlace: shops.map((shop) => storeReference(site, shop)),
  });
}

/**
 * A shop's page: the shop as its most specific Store type, in the mall (`containedInPlace`, and the
 * mall's address and position: Google asks every local business for its address), with its hours, contact,
 * pictures, floor plan and running offers (`makesOffer`); then each product as a Product with its price
 * in the mall's currency, sold by the shop. A `@graph`: the products are items of their own.
 */
export function storeJsonLd(
  site: Site,
  shop: ShopData,
  offers: readonly OfferData[],
  products: readonly ProductData[],
): JsonLd {
  const { baseUrl, profile } = site;
  const cover = absoluteImageUrl(baseUrl, shop.cover);
  const logo = absoluteImageUrl(baseUrl, shop.logo);
  const contact = contactOf(shop.contact);
  const store = compact({
    '@type': storeTypeOf(shop.storeType),
    '@id': storeId(baseUrl, shop.slug),
    name: shop.name.trim(),
    url: shopPageUrl(baseUrl, shop.slug),
    description: shop.description.trim(),
    image: [cover, logo].filter((url): url is string => url !== undefined),
    logo,
    telephone: contact.telephone,
    email: contact.email,
    sameAs: contact.website,
    address: postalAddress(profile),
    geo: geoCoordinates(profile),
    containedInPlace: { '@id': mallId(baseUrl) },
    openingHoursSpecification: openingHoursSpecification(shop.hours),
    hasMap: absoluteImageUrl(baseUrl, shop.floorPlan),
    makesOffer: offers.map((offer) => offerNode(site, shop, offer, false)),
  });
  return {
    '@context': CONTEXT,
    '@graph': [store, ...products.map((product) => productNode(site, shop, product))],
  };
}

/** The running offers (for /offers): an ItemList of Offers, each offered by its shop. */
export function offersJsonLd(site: Site, offers: readonly (OfferData & { shop: ShopRef })[]): JsonLd {
  return compact({
    '@context': CONTEXT,
    '@type': 'ItemList',
    name: `Offers at ${site.profile.name.trim()}`,
    url: `${site.baseUrl}/offers`,
    numberOfItems: offers.length,
    itemListElement: offers.map((offer, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      item: offerNode(site, offer.shop, offer, true),
    })),
  });
}

// ---- serialising ----

/**
 * The JSON text to put inside <script type="application/ld+json"> (React: dangerouslySetInnerHTML):
 * `<`, `>` and `&` are written as \u escapes, so no text in it ("</script><script>…", "<!--") can end the
 * element or start a comment, and U+2028/U+2029 too (line terminators to older JavaScript parsers). It
 * parses back to the same data.
 */
export function jsonLdScript(data: JsonLd): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The whole element, for pages written as text. */
export function jsonLdScriptElement(data: JsonLd): string {
  return `<script type="application/ld+json">${jsonLdScript(data)}</script>`;
}

type LooseValue = Loose | LooseValue[] | string | number | boolean | null | undefined;
type Loose = { [property: string]: LooseValue };

/**
 * Leaves out what is not there: undefined, null, empty (or blank) strings and empty lists, at any depth,
 * so that no property is ever written empty.
 */
function compact(value: Loose): JsonLd {
  const out: JsonLd = {};
  for (const [key, item] of Object.entries(value)) {
    const kept = keep(item);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

function keep(item: LooseValue): JsonLdValue | undefined {
  if (item === null || item === undefined) return undefined;
  if (typeof item === 'string') return item.trim() === '' ? undefined : item;
  if (typeof item === 'number') return Number.isFinite(item) ? item : undefined;
  if (typeof item === 'boolean') return item;
  if (Array.isArray(item)) {
    const list = item.map(keep).filter((entry): entry is JsonLdValue => entry !== undefined);
    return list.length > 0 ? list : undefined;
  }
  const object = compact(item);
  return Object.keys(object).length > 0 ? object : undefined;
}

// ---- events (issue 35, docs/decisions/036) ----

/** An event's occurrence as the pages list it (shared/event.ts EventOccurrence). */
export interface EventOccurrenceData {
  start: string;
  end: string;
  startDate: string;
  endDate: string;
  startTime: string | null;
}

/** An event as the pages read it (shared/event.ts Event; the events page's cards have no description). */
export interface EventData {
  id: string;
  title: string;
  description?: string;
  image: string | null;
  status: 'scheduled' | 'cancelled';
  shopName: string | null;
  shopSlug: string | null;
  place: { kind: string; name: string; floorName: string | null };
}

export function eventPageUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/events/${encodeURIComponent(id)}`;
}

/**
 * One occurrence of an event as a schema.org Event: its dates (a date all day, else the instant with the
 * mall's offset then), its status, its place as a Place contained in the mall, its picture (else the
 * mall's logo) and its organizer (the shop, else the mall). A repeating event is one Event per date, as
 * Google asks for recurring events.
 */
function eventNode(
  site: Site,
  event: EventData,
  occurrence: EventOccurrenceData,
  withContext: boolean,
): JsonLd {
  const { baseUrl, profile, timeZone } = site;
  const allDay = occurrence.startTime === null;
  const image = absoluteImageUrl(baseUrl, event.image) ?? absoluteImageUrl(baseUrl, profile.logo);
  const mall = compact({ '@type': 'ShoppingCenter', '@id': mallId(baseUrl), name: profile.name.trim() });
  const placeName =
    event.place.kind === 'mall'
      ? profile.name.trim()
      : [event.place.name, event.place.kind === 'floor' ? null : event.place.floorName]
          .filter(Boolean)
          .join(', ');
  return compact({
    '@context': withContext ? CONTEXT : undefined,
    '@type': 'Event',
    '@id': `${eventPageUrl(baseUrl, event.id)}#${occurrence.startDate}`,
    name: event.title.trim(),
    description: event.description?.trim() || undefined,
    url: eventPageUrl(baseUrl, event.id),
    startDate: allDay ? occurrence.startDate : zonedDateTime(Date.parse(occurrence.start), timeZone),
    endDate: allDay ? occurrence.endDate : zonedDateTime(Date.parse(occurrence.end), timeZone),
    eventStatus:
      event.status === 'cancelled'
        ? 'https://schema.org/EventCancelled'
        : 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: compact({
      '@type': 'Place',
      name: placeName,
      address: postalAddress(profile),
      containedInPlace: mall,
    }),
    image: image ? [image] : undefined,
    organizer:
      event.shopName && event.shopSlug
        ? compact({
            '@type': 'Organization',
            name: event.shopName.trim(),
            url: shopPageUrl(baseUrl, event.shopSlug),
          })
        : compact({ '@type': 'Organization', name: profile.name.trim(), url: `${baseUrl}/` }),
  });
}

/** The events on a page (an event's dates, or the calendar's list): a `@graph` of Events. */
export function eventsJsonLd(
  site: Site,
  listed: readonly { event: EventData; occurrence: EventOccurrenceData }[],
): JsonLd {
  if (listed.length === 1 && listed[0]) return eventNode(site, listed[0].event, listed[0].occurrence, true);
  return {
    '@context': CONTEXT,
    '@graph': listed.map(({ event, occurrence }) => eventNode(site, event, occurrence, false)),
  };
}
