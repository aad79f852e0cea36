// Each public page's structured data (docs/decisions/034), from the reads the page itself was drawn
// from (what a visitor's own requests answer: nothing private can be in it) and the schema.org store type
// of the shops' categories. The JSON-LD builders are modules/public-site/structured-data.ts.
import { eq, inArray } from 'drizzle-orm';
import type { FloorGuideEntry } from '../../shared/amenity';
import type { EventDetail, EventOverview } from '../../shared/event';
import type { MallHours } from '../../shared/hours';
import type { Offer } from '../../shared/offer';
import type { Product } from '../../shared/product';
import type { Shop, ShopDetail } from '../../shared/shop';
import type { Db } from '../db/client';
import { categories, shops } from '../db/schema';
import {
  eventsJsonLd,
  jsonLdScriptElement,
  mallJsonLd,
  offersJsonLd,
  type ShopRef,
  type Site,
  storeJsonLd,
} from '../modules/public-site/structured-data';
import type { PageContext } from '../plugins/public-pages';

interface CachedQuery {
  queryKey: readonly unknown[];
  state: { data?: unknown };
}

/** The page's reads whose key starts with `root` (e.g. 'offers'), in the order the page made them. */
function reads<T>(context: PageContext, root: string): T[] {
  const { queries } = context.rendered.state as { queries: CachedQuery[] };
  return queries
    .filter((query) => query.queryKey[0] === root && query.state.data !== undefined)
    .map((query) => query.state.data as T);
}

async function storeTypes(db: Db, shopIds: readonly string[]): Promise<Map<string, ShopRef>> {
  if (shopIds.length === 0) return new Map();
  const rows = await db
    .select({ id: shops.id, slug: shops.slug, name: shops.name, storeType: categories.schemaType })
    .from(shops)
    .innerJoin(categories, eq(categories.id, shops.categoryId))
    .where(inArray(shops.id, [...new Set(shopIds)]));
  return new Map(rows.map((row) => [row.id, row]));
}

export function pageStructuredData(db: Db, timeZone: string) {
  return async (context: PageContext): Promise<string> => {
    const mallHours = reads<MallHours>(context, 'mall-hours')[0]?.hours ?? null;
    const site: Site = { baseUrl: context.baseUrl, profile: context.profile, mallHours, timeZone };
    switch (context.kind) {
      case 'shop': {
        const shop = reads<ShopDetail>(context, 'shops')[0];
        if (!shop) return '';
        const refs = await storeTypes(db, [shop.id]);
        const offers = reads<{ items: Offer[] }>(context, 'offers')[0]?.items ?? [];
        const products = reads<{ items: Product[] }>(context, 'products')[0]?.items ?? [];
        const floor = reads<FloorGuideEntry[]>(context, 'floor-guide')[0]?.find(
          (entry) => entry.id === shop.floorId,
        );
        return jsonLdScriptElement(
          storeJsonLd(
            site,
            {
              ...shop,
              storeType: refs.get(shop.id)?.storeType ?? 'Store',
              floorPlan: floor?.planImage ?? null,
            },
            offers,
            products,
          ),
        );
      }
      case 'shops':
      case 'floors': {
        const listed =
          context.kind === 'shops'
            ? (reads<{ items: Shop[] }>(context, 'shops')[0]?.items ?? [])
            : (reads<FloorGuideEntry[]>(context, 'floor-guide')[0] ?? []).flatMap((floor) => floor.shops);
        const refs = await storeTypes(
          db,
          listed.map((shop) => shop.id),
        );
        return jsonLdScriptElement(mallJsonLd(site, [...refs.values()]));
      }
      case 'offers': {
        const offers = reads<{ items: Offer[] }>(context, 'offers')[0]?.items ?? [];
        const refs = await storeTypes(
          db,
          offers.map((offer) => offer.shopId),
        );
        const placed = offers.flatMap((offer) => {
          const shop = refs.get(offer.shopId);
          return shop ? [{ ...offer, shop }] : [];
        });
        return jsonLdScriptElement(offersJsonLd(site, placed));
      }
      case 'search':
        return '';
      case 'event': {
        const event = reads<EventDetail>(context, 'events')[0];
        if (!event || event.upcoming.length === 0) return '';
        return jsonLdScriptElement(
          eventsJsonLd(
            site,
            event.upcoming.map((occurrence) => ({ event, occurrence })),
          ),
        );
      }
      case 'events': {
        // The page's cards: each event once per group, at most a page of them.
        const page = reads<EventOverview>(context, 'events')[0];
        const listed = page?.items ?? [];
        if (listed.length === 0) return '';
        return jsonLdScriptElement(eventsJsonLd(site, listed));
      }
    }
  };
}
