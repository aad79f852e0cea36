import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Check, Clock, MapPin, Package, Percent, Phone, Plus, Store, Tag } from 'lucide-react';
import { type ReactNode, useId, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { formatRupees } from '../../../shared/money';
import type { Product } from '../../../shared/product';
import type { ShopDetail } from '../../../shared/shop';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClass } from '../../components/ui/button';
import { LoadingStatus } from '../../components/ui/loading-status';
import { Pagination } from '../../components/ui/pagination';
import { Price } from '../../components/ui/price';
import { EmptyState, ErrorState } from '../../components/ui/query-states';
import { Skeleton } from '../../components/ui/skeleton';
import { offersQuery, productsQuery, shopQuery } from '../../features/catalog/catalog-api';
import { useCompare } from '../../features/compare/compare-context';
import { hasItem, toCompareItem } from '../../features/compare/compare-store';
import { ApiError, errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { usePageParam } from '../../lib/use-list-params';
import { OfferCard, OfferCardSkeleton } from './offer-card';

const PRODUCTS_PAGE_SIZE = 12;
/** A shop runs a handful of offers at once; one request shows them all. */
const OFFERS_PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Where "Back to shops" goes: the filtered list the shopper came from, else all shops. */
function useBackToShops(): string {
  const { state } = useLocation();
  const from: unknown = state && typeof state === 'object' && 'from' in state ? state.from : undefined;
  return typeof from === 'string' && /^\/user\/shops(\?|$)/.test(from) ? from : '/user/shops';
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

export function ShopDetailPage() {
  const { id = '' } = useParams();
  const validId = UUID.test(id);
  const shop = useQuery({ ...shopQuery(id), enabled: validId });

  const notFound =
    !validId ||
    (shop.isError &&
      shop.error instanceof ApiError &&
      (shop.error.status === 404 || shop.error.status === 400));
  if (notFound) return <ShopNotFound />;

  return (
    <div className="space-y-8">
      <BackToShops />
      {shop.isError ? (
        <ErrorState
          message={errorMessage(shop.error)}
          onRetry={() => shop.refetch()}
          retrying={shop.isFetching}
        />
      ) : shop.isPending ? (
        <ShopHeaderSkeleton />
      ) : (
        <ShopHeader shop={shop.data} />
      )}
      {shop.isSuccess ? (
        <>
          <ShopOffers shopId={id} />
          <ShopProducts shopId={id} />
        </>
      ) : null}
    </div>
  );
}

function ShopNotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-12 text-center shadow-sm">
      <div className="mb-4 flex size-14 items-center justify-center rounded-full bg-slate-100 text-slate-500">
        <Store aria-hidden="true" className="size-7" />
      </div>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Shop not found</h1>
      <p className="mt-2 text-slate-600">This shop does not exist or is no longer in the mall.</p>
      <Link to="/user/shops" className={buttonClass('primary', 'md', 'mt-6 min-h-10')}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to shops
      </Link>
    </div>
  );
}

function ShopHeader({ shop }: { shop: ShopDetail }) {
  return (
    <section
      aria-labelledby="shop-name"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
    >
      <h1 id="shop-name" className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">
        {shop.name}
      </h1>
      <div className="mt-3 flex flex-wrap gap-2">
        <Badge tone="indigo">
          <Tag aria-hidden="true" className="size-3 shrink-0" />
          <span className="sr-only">Category: </span>
          <span className="truncate">{shop.category}</span>
        </Badge>
        <Badge>
          <MapPin aria-hidden="true" className="size-3 shrink-0" />
          <span className="sr-only">Floor: </span>
          <span className="truncate">{shop.floor}</span>
        </Badge>
      </div>
      {shop.description ? (
        <p className="mt-4 max-w-3xl break-words text-slate-700">{shop.description}</p>
      ) : null}
      <dl className="mt-6 grid gap-4 border-t border-slate-100 pt-6 sm:grid-cols-3">
        <Detail
          icon={<MapPin aria-hidden="true" className="size-4" />}
          label="Location"
          value={shop.location}
        />
        <Detail icon={<Phone aria-hidden="true" className="size-4" />} label="Contact" value={shop.contact} />
        <Detail
          icon={<Clock aria-hidden="true" className="size-4" />}
          label="Opening hours"
          value={shop.openingHours}
        />
      </dl>
    </section>
  );
}

function Detail({ icon, label, value }: { icon: ReactNode; label: string; value: string }) {
  return (
    <div className="flex min-w-0 gap-3">
      <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500">
        {icon}
      </span>
      <div className="min-w-0">
        <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
        <dd className={cn('mt-0.5 text-sm break-words', value ? 'text-slate-900' : 'text-slate-400')}>
          {value || 'Not listed'}
        </dd>
      </div>
    </div>
  );
}

function ShopHeaderSkeleton() {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
      <span className="sr-only" role="status">
        Loading shop
      </span>
      <Skeleton className="h-8 w-1/2 sm:h-9" />
      <div className="mt-3 flex gap-2">
        <Skeleton className="h-5 w-20 rounded-full" />
        <Skeleton className="h-5 w-24 rounded-full" />
      </div>
      <Skeleton className="mt-4 h-5 w-full max-w-3xl" />
      <div className="mt-6 grid gap-4 border-t border-slate-100 pt-6 sm:grid-cols-3">
        {[0, 1, 2].map((key) => (
          <div key={key} className="flex gap-3">
            <Skeleton className="size-8 shrink-0 rounded-lg" />
            <div className="flex-1 space-y-1.5">
              <Skeleton className="h-3.5 w-20" />
              <Skeleton className="h-4 w-3/4" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

function ShopOffers({ shopId }: { shopId: string }) {
  const offers = useQuery(offersQuery({ shopId, active: true, pageSize: OFFERS_PAGE_SIZE }));
  return (
    <section aria-labelledby="shop-offers" className="space-y-4">
      <h2 id="shop-offers" className="text-xl font-bold tracking-tight text-slate-900">
        Current Offers
      </h2>
      {offers.isError ? (
        <ErrorState
          message={errorMessage(offers.error)}
          onRetry={() => offers.refetch()}
          retrying={offers.isFetching}
        />
      ) : offers.isPending ? (
        <div aria-busy="true" className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
          <span className="sr-only" role="status">
            Loading offers
          </span>
          <OfferCardSkeleton showShop={false} />
        </div>
      ) : offers.data.items.length === 0 ? (
        <EmptyState
          title="No current offers at this shop."
          icon={<Percent aria-hidden="true" className="size-6" />}
          className="py-6"
        />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
          {offers.data.items.map((offer) => (
            <li key={offer.id}>
              <OfferCard offer={offer} showShop={false} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ShopProducts({ shopId }: { shopId: string }) {
  const sectionRef = useRef<HTMLElement>(null);
  const { page, goToPage } = usePageParam(sectionRef);
  const products = useQuery(productsQuery({ shopId, page, pageSize: PRODUCTS_PAGE_SIZE }));
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
      {products.isError ? (
        <ErrorState
          message={errorMessage(products.error)}
          onRetry={() => products.refetch()}
          retrying={products.isFetching}
        />
      ) : products.isPending ? (
        <ul aria-busy="true" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <li className="sr-only" role="status">
            Loading products
          </li>
          {[0, 1, 2].map((key) => (
            <li key={key}>
              <ProductCardSkeleton />
            </li>
          ))}
        </ul>
      ) : products.data.items.length === 0 && page === 1 ? (
        <EmptyState
          title="No products available in this shop."
          icon={<Package aria-hidden="true" className="size-6" />}
        />
      ) : (
        <>
          <ul
            className={cn(
              'grid gap-4 transition-opacity sm:grid-cols-2 lg:grid-cols-3',
              products.isPlaceholderData && 'opacity-60',
            )}
          >
            {products.data.items.map((product) => (
              <li key={product.id}>
                <ProductCard
                  product={product}
                  onAdded={() => setAnnouncement(`${product.name} added to compare.`)}
                />
              </li>
            ))}
          </ul>
          <Pagination
            label="Product pages"
            page={page}
            pageCount={pageCount}
            onPageChange={goToPage}
            busy={products.isPlaceholderData}
            hideSinglePage
          />
        </>
      )}
    </section>
  );
}

function ProductCard({ product, onAdded }: { product: Product; onAdded: () => void }) {
  const nameId = useId();
  const { items, add } = useCompare();
  const added = hasItem(items, product.id);

  return (
    <article
      aria-labelledby={nameId}
      className="flex h-full min-h-48 flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 id={nameId} className="min-w-0 font-semibold break-words text-slate-900">
          {product.name}
        </h3>
        {product.offerId ? (
          <Badge tone="rose" className="shrink-0">
            On Offer
          </Badge>
        ) : null}
      </div>
      {product.description ? (
        <p className="mt-1.5 text-sm break-words text-slate-600">{product.description}</p>
      ) : null}
      <div className="mt-auto pt-4">
        <Price
          price={product.price}
          discountedPrice={product.offerPrice}
          format={formatRupees}
          className="text-lg"
        />
        {product.offerPrice && product.offer ? (
          <p className="mt-0.5 text-xs text-slate-500">
            {product.offer.title} · {product.offer.discount}% off
          </p>
        ) : null}
        <Button
          variant={added ? 'secondary' : 'primary'}
          className={cn('mt-3 min-h-10 w-full', added && 'cursor-default')}
          aria-disabled={added || undefined}
          aria-describedby={nameId}
          onClick={() => {
            if (added) return;
            add(toCompareItem(product));
            onAdded();
          }}
        >
          {added ? (
            <Check aria-hidden="true" className="size-4" />
          ) : (
            <Plus aria-hidden="true" className="size-4" />
          )}
          {added ? 'Added to compare' : 'Compare'}
        </Button>
      </div>
    </article>
  );
}

function ProductCardSkeleton() {
  return (
    <div
      aria-hidden="true"
      className="flex h-full min-h-48 flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <Skeleton className="h-6 w-2/3" />
      <Skeleton className="mt-2 h-4 w-full" />
      <div className="mt-auto pt-4">
        <Skeleton className="h-7 w-24" />
        <Skeleton className="mt-3 h-10 w-full rounded-lg" />
      </div>
    </div>
  );
}
