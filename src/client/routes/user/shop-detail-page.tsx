import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Package, Percent, Store } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, type Params, useLocation, useParams } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { IconTile } from '../../components/ui/icon-tile';
import { LoadingStatus } from '../../components/ui/loading-status';
import { PagedList } from '../../components/ui/paged-list';
import { PageSection } from '../../components/ui/panel';
import { EmptyState, QueryView, SkeletonList } from '../../components/ui/query-states';
import { floorGuideOfQuery } from '../../features/amenities';
import { EventCard, eventOverviewQuery, FeedLinks } from '../../features/events';
import { LazyFloorPlan } from '../../features/floor-plans';
import { prefetchMallClock } from '../../features/hours';
import { preloadPicture } from '../../features/images';
import { OfferCard, OfferCardSkeleton, offersQuery } from '../../features/offers';
import { ProductCard, ProductCardSkeleton, productsQuery } from '../../features/products';
import {
  COVER_SIZES,
  ShopHeader,
  ShopHeaderSkeleton,
  shopBySlugQuery,
  shopQuery,
} from '../../features/shops';
import { isNotFound } from '../../lib/api';
import { type DirectoryArea, PUBLIC_AREA, USER_AREA, useDirectoryArea } from '../../lib/directory-area';
import { countView } from '../../lib/insights';
import { usePageTitle } from '../../lib/page-title';
import { queryClient } from '../../lib/query-client';
import { pageFrom, usePageParam } from '../../lib/use-list-params';

const PRODUCTS_PAGE_SIZE = 12;
/** A shop runs a handful of offers at once; one request shows them all. */
const OFFERS_PAGE_SIZE = 50;
const OFFERS_GRID = 'grid gap-4 md:grid-cols-2 lg:grid-cols-3';
const PRODUCTS_GRID = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where "Back to shops" goes: the filtered list the shopper came from, else all shops. */
function useBackToShops(): string {
  const { state } = useLocation();
  const { shops } = useDirectoryArea();
  const from: unknown = state && typeof state === 'object' && 'from' in state ? state.from : undefined;
  return typeof from === 'string' && (from === shops || from.startsWith(`${shops}?`)) ? from : shops;
}

function BackToShops() {
  const to = useBackToShops();
  return (
    <Link
      to={to}
      className="-ml-2 inline-flex min-h-10 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to shops
    </Link>
  );
}

/** The shop's own query: by id in the shopper's area, by its address (slug) in the public one. */
function shopQueryFor(area: DirectoryArea, params: Readonly<Params>) {
  return area.name === 'public' ? shopBySlugQuery(params.slug ?? '') : shopQuery(params.id ?? '');
}
const validParams = (params: Readonly<Params>) => (params.id ? UUID.test(params.id) : Boolean(params.slug));

/**
 * Reads this screen's data from its URL before it renders (lib/lazy-route.tsx): the shop, then what its
 * page lists (offers, products, its floor's plan) and the clock its status needs. Resolves once all of
 * it is in the cache (a server-rendered page waits for it).
 */
export async function prefetch(search: URLSearchParams, params: Params, client = queryClient): Promise<void> {
  if (!validParams(params)) return;
  const area = params.slug !== undefined ? PUBLIC_AREA : USER_AREA;
  const clock = prefetchMallClock(client);
  const query = shopQueryFor(area, params);
  const shop = await client.fetchQuery(query).catch(() => undefined);
  if (!shop) return;
  // the cover is the page's largest paint: asked for when the shop answers, not after the page renders
  preloadPicture(shop.cover, COVER_SIZES);
  await Promise.all([
    clock,
    client.prefetchQuery(floorGuideOfQuery(shop.floorId, shop.id)),
    client.prefetchQuery(shopOffersQuery(shop.id)),
    client.prefetchQuery(shopProductsQuery(shop.id, pageFrom(search))),
    client.prefetchQuery(shopEventsQuery(shop.id)),
  ]);
}

/** The shop's events in the next 60 days: each once (today, this weekend, later), with its other dates counted. */
const shopEventsQuery = (shopId: string) => eventOverviewQuery({ shopId });

const shopOffersQuery = (shopId: string) => offersQuery({ shopId, active: true, pageSize: OFFERS_PAGE_SIZE });
const shopProductsQuery = (shopId: string, page: number) =>
  productsQuery({ shopId, page, pageSize: PRODUCTS_PAGE_SIZE });

export function ShopDetailPage() {
  const params = useParams();
  const area = useDirectoryArea();
  const valid = validParams(params);
  const shop = useQuery({ ...shopQueryFor(area, params), enabled: valid });
  const id = shop.data?.id ?? params.id ?? '';

  const notFound = !valid || (shop.isError && isNotFound(shop.error));
  // A view of the shop's page, once per shop shown (insights: the server counted the page it rendered).
  const shownId = shop.data?.id;
  useEffect(() => {
    if (shownId) countView('shop_view', shownId);
  }, [shownId]);
  // the shop's name once read; 'Shop' when it could not be (the error and Try again show)
  usePageTitle(notFound ? 'Shop not found' : (shop.data?.name ?? (shop.isError ? 'Shop' : undefined)));
  if (notFound) return <ShopNotFound />;
  // an old address or the shop's id, followed in the app as the server does: to the shop's own address
  if (area.name === 'public' && shop.data && shop.data.slug !== params.slug)
    return <Navigate to={area.shop(shop.data)} replace />;

  return (
    <div className="space-y-8">
      <BackToShops />
      <QueryView query={shop} loading={<ShopHeaderSkeleton />}>
        {(data) => <ShopHeader shop={data} countTaps />}
      </QueryView>
      {shop.isSuccess ? (
        <>
          <FindIt shopId={id} floorId={shop.data.floorId} />
          <ShopOffers shopId={id} />
          <ShopEvents shopId={id} />
          <ShopProducts shopId={id} />
        </>
      ) : null}
    </div>
  );
}

function ShopNotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-12 text-center shadow-sm">
      <IconTile icon={Store} tone="slate" size="xl" className="mb-4" />
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Shop not found</h1>
      <p className="mt-2 text-slate-600">This shop does not exist or is no longer in the mall.</p>
      <Link to={useDirectoryArea().shops} className={buttonClass('primary', 'md', 'mt-6 min-h-10')}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to shops
      </Link>
    </div>
  );
}

/** "Find it on First Floor": the floor's plan with this shop's pin highlighted (docs/decisions/021). */
function FindIt({ shopId, floorId }: { shopId: string; floorId: string }) {
  const guide = useQuery(floorGuideOfQuery(floorId, shopId));
  const floor = guide.data?.find((entry) => entry.id === floorId);
  const shop = floor?.shops.find((entry) => entry.id === shopId);
  if (!floor?.planImage || !shop?.pin) return null;
  return (
    <PageSection title={<>Find it on {floor.name}</>} className="space-y-3">
      <p className="text-sm text-slate-600">
        {shop.name} is the highlighted pin{shop.location ? ` (${shop.location})` : ''}.
      </p>
      <LazyFloorPlan floor={floor} highlight={shopId} />
    </PageSection>
  );
}

/** The shop's coming events (issue 35); nothing when it has none. */
function ShopEvents({ shopId }: { shopId: string }) {
  const events = useQuery(shopEventsQuery(shopId));
  const items = events.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <PageSection title="Events" actions={<FeedLinks shopId={shopId} label="this shop's events" />}>
      <ul className={OFFERS_GRID}>
        {items.map((card) => (
          <li key={`${card.event.id} ${card.occurrence.start}`}>
            <EventCard
              event={card.event}
              occurrence={card.occurrence}
              moreDates={card.moreDates}
              showShop={false}
            />
          </li>
        ))}
      </ul>
    </PageSection>
  );
}

function ShopOffers({ shopId }: { shopId: string }) {
  const offers = useQuery(shopOffersQuery(shopId));
  return (
    <PageSection title="Current Offers">
      <QueryView
        query={offers}
        loading={
          <SkeletonList count={1} className={OFFERS_GRID} label="Loading offers">
            <OfferCardSkeleton showShop={false} />
          </SkeletonList>
        }
        isEmpty={(data) => data.items.length === 0}
        empty={
          <EmptyState
            title="No current offers at this shop."
            icon={<Percent aria-hidden="true" className="size-6" />}
            className="py-6"
          />
        }
      >
        {(data) => (
          <ul className={OFFERS_GRID}>
            {data.items.map((offer) => (
              <li key={offer.id}>
                <OfferCard offer={offer} showShop={false} />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </PageSection>
  );
}

function ShopProducts({ shopId }: { shopId: string }) {
  const sectionRef = useRef<HTMLElement>(null);
  const { page, goToPage, pageHref } = usePageParam(sectionRef);
  const products = useQuery(shopProductsQuery(shopId, page));
  const pageCount = Math.max(1, Math.ceil((products.data?.total ?? 0) / PRODUCTS_PAGE_SIZE));
  const [announcement, setAnnouncement] = useState('');

  return (
    <section ref={sectionRef} aria-labelledby="shop-products" className="scroll-mt-36 space-y-4">
      <div className="flex h-8 items-center gap-3">
        <h2 id="shop-products" className="text-xl font-bold tracking-tight text-slate-900">
          Products
        </h2>
        {products.isFetching && !products.isPending ? <LoadingStatus label="Loading products" /> : null}
      </div>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <QueryView
        query={products}
        loading={
          <SkeletonList count={3} className={PRODUCTS_GRID} label="Loading products">
            <ProductCardSkeleton />
          </SkeletonList>
        }
        isEmpty={(data) => data.items.length === 0 && page === 1}
        empty={
          <EmptyState
            title="No products available in this shop."
            icon={<Package aria-hidden="true" className="size-6" />}
          />
        }
      >
        {(data) => (
          <PagedList
            className={PRODUCTS_GRID}
            items={data.items}
            render={(product) => (
              <ProductCard
                product={product}
                onAdded={() => setAnnouncement(`${product.name} added to compare.`)}
              />
            )}
            stale={products.isPlaceholderData}
            pagination={{ label: 'Product pages', page, pageCount, onPageChange: goToPage, pageHref }}
          />
        )}
      </QueryView>
    </section>
  );
}
