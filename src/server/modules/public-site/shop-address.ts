import { eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { shopSlugRedirects, shops } from '../../db/schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Longer than any slug the trigger makes (60) or an id: nothing to look up. */
const ADDRESS_MAX = 200;
/**
 * What a slug is made of (shop_slug_base, migration 0016): anything else is no shop's address, and is not
 * sent to the database (a NUL in a text parameter is an error there, not "no row": it answered 500).
 */
const SLUG = /^[a-z0-9-]+$/;

/**
 * The shop a public address names (docs/decisions/034): its slug, one of its old slugs (a rename), or its
 * id. Undefined when none. The caller sends anything but the live slug on to it.
 */
export async function findShopByAddress(
  db: Db,
  address: string,
): Promise<{ id: string; slug: string } | undefined> {
  if (address.length === 0 || address.length > ADDRESS_MAX) return undefined;
  if (!SLUG.test(address) && !UUID.test(address)) return undefined;
  const [live] = await db
    .select({ id: shops.id, slug: shops.slug })
    .from(shops)
    .where(UUID.test(address) ? or(eq(shops.slug, address), eq(shops.id, address)) : eq(shops.slug, address))
    .limit(1);
  if (live) return live;
  const [moved] = await db
    .select({ id: shops.id, slug: shops.slug })
    .from(shopSlugRedirects)
    .innerJoin(shops, eq(shops.id, shopSlugRedirects.shopId))
    .where(eq(shopSlugRedirects.slug, address))
    .limit(1);
  return moved;
}
