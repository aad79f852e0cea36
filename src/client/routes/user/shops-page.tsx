import { useQuery } from '@tanstack/react-query';
import { GitCompareArrows, Store } from 'lucide-react';
import { type ChangeEvent, useEffect, useRef } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { Place } from '../../../shared/place';
import { Button, buttonClass } from '../../components/ui/button';
import { SelectField } from '../../components/ui/form-field';
import { LoadingStatus } from '../../components/ui/loading-status';
import { Pagination } from '../../components/ui/pagination';
import { EmptyState, ErrorState } from '../../components/ui/query-states';
import { categoriesQuery, floorsQuery } from '../../features/places';
import { ShopCard, ShopCardSkeleton, shopsQuery } from '../../features/shops';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { queryClient } from '../../lib/query-client';
import { pageFrom, usePageParam } from '../../lib/use-list-params';

const PAGE_SIZE = 12;

/** The place called `name` (names are unique in any case); undefined while loading or when unknown. */
function findByName(places: Place[] | undefined, name: string): Place | undefined {
  if (!places || !name) return undefined;
  const lower = name.toLowerCase();
  return (
    places.find((place) => place.name === name) ?? places.find((place) => place.name.toLowerCase() === lower)
  );
}

function listQuery(categoryId: string | undefined, floorId: string | undefined, page: number) {
  return shopsQuery({ categoryId, floorId, page, pageSize: PAGE_SIZE });
}

/**
 * Starts this screen's reads from its URL before it renders (lib/lazy-route.tsx): the shops only when
 * unfiltered, since a filter names a category or floor whose id comes with the lists.
 */
export function prefetch(search: URLSearchParams): void {
  void queryClient.prefetchQuery(categoriesQuery);
  void queryClient.prefetchQuery(floorsQuery);
  if (!search.get('category') && !search.get('floor')) {
    void queryClient.prefetchQuery(listQuery(undefined, undefined, pageFrom(search)));
  }
}

export function ShopsPage() {
  const [params, setParams] = useSearchParams();
  const { search } = useLocation();
  const categoryName = params.get('category') ?? '';
  const floorName = params.get('floor') ?? '';
  const page = pageFrom(params);

  const categories = useQuery(categoriesQuery);
  const floors = useQuery(floorsQuery);
  const category = findByName(categories.data, categoryName);
  const floor = findByName(floors.data, floorName);
  // the URL names a category or floor and the API filters by id, so wait for the lists first.
  const ready = (!categoryName || categories.isSuccess) && (!floorName || floors.isSuccess);
  const shops = useQuery({ ...listQuery(category?.id, floor?.id, page), enabled: ready });
  const total = shops.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const unknownCategory = Boolean(categoryName) && categories.isSuccess && !category;
  const unknownFloor = Boolean(floorName) && floors.isSuccess && !floor;
  const pastTheEnd = shops.isSuccess && !shops.isPlaceholderData && page > pageCount;

  // a name that names nothing (an old link, a renamed category) means no filter; tidy the URL so
  // the selects, the list and the address agree. Same for a page past the end.
  useEffect(() => {
    if (!unknownCategory && !unknownFloor && !pastTheEnd) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (unknownCategory) next.delete('category');
        if (unknownFloor) next.delete('floor');
        if (pastTheEnd) {
          if (pageCount > 1) next.set('page', String(pageCount));
          else next.delete('page');
        }
        return next;
      },
      { replace: true },
    );
  }, [unknownCategory, unknownFloor, pastTheEnd, pageCount, setParams]);

  const resultsRef = useRef<HTMLElement>(null);
  const { goToPage } = usePageParam(resultsRef);

  function setFilter(key: 'category' | 'floor', value: string) {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(key, value);
      else next.delete(key);
      next.delete('page');
      return next;
    });
  }

  function clearFilters() {
    setParams(new URLSearchParams());
  }

  const filtered = Boolean(category || floor);
  const placesError = categories.isError ? categories : floors.isError ? floors : null;
  const loading = !placesError && !shops.isError && (!ready || shops.isFetching);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Shops</h1>
          <p className="mt-1 text-sm text-slate-600">Find a shop by category or floor.</p>
        </div>
        <Link to="/user/compare" className={buttonClass('secondary', 'md', 'min-h-10')}>
          <GitCompareArrows aria-hidden="true" className="size-4" />
          Compare Products
        </Link>
      </div>

      <search className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 sm:p-5">
        <SelectField
          label="Category"
          value={category?.name ?? (categories.isSuccess ? '' : categoryName)}
          onChange={(event: ChangeEvent<HTMLSelectElement>) => setFilter('category', event.target.value)}
          disabled={!categories.isSuccess}
        >
          <option value="">All Categories</option>
          {categories.data
            ? categories.data.map((place) => (
                <option key={place.id} value={place.name}>
                  {place.name}
                </option>
              ))
            : categoryName && <option value={categoryName}>{categoryName}</option>}
        </SelectField>
        <SelectField
          label="Floor"
          value={floor?.name ?? (floors.isSuccess ? '' : floorName)}
          onChange={(event: ChangeEvent<HTMLSelectElement>) => setFilter('floor', event.target.value)}
          disabled={!floors.isSuccess}
        >
          <option value="">All Floors</option>
          {floors.data
            ? floors.data.map((place) => (
                <option key={place.id} value={place.name}>
                  {place.name}
                </option>
              ))
            : floorName && <option value={floorName}>{floorName}</option>}
        </SelectField>
      </search>

      <section ref={resultsRef} aria-labelledby="shop-results" className="scroll-mt-36 space-y-4">
        <h2 id="shop-results" className="sr-only">
          Results
        </h2>
        <div className="flex h-6 items-center gap-3">
          <p aria-live="polite" className="text-sm font-medium text-slate-700">
            {shops.data && !shops.isPlaceholderData ? (total === 1 ? '1 shop' : `${total} shops`) : null}
          </p>
          {loading ? <LoadingStatus label="Loading shops" /> : null}
        </div>

        {placesError ? (
          <ErrorState
            message={errorMessage(placesError.error)}
            onRetry={() => placesError.refetch()}
            retrying={placesError.isFetching}
          />
        ) : shops.isError ? (
          <ErrorState
            message={errorMessage(shops.error)}
            onRetry={() => shops.refetch()}
            retrying={shops.isFetching}
          />
        ) : !shops.data ? (
          <ul aria-hidden="true" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: 6 }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on
              <li key={index}>
                <ShopCardSkeleton />
              </li>
            ))}
          </ul>
        ) : shops.data.items.length === 0 ? (
          <EmptyState title="No shops found" icon={<Store aria-hidden="true" className="size-6" />}>
            {filtered ? (
              <>
                <p>No shop matches these filters.</p>
                <Button variant="secondary" className="min-h-10" onClick={clearFilters}>
                  Clear filters
                </Button>
              </>
            ) : null}
          </EmptyState>
        ) : (
          <>
            <ul
              className={cn(
                'grid gap-4 transition-opacity sm:grid-cols-2 lg:grid-cols-3',
                shops.isPlaceholderData && 'opacity-60',
              )}
            >
              {shops.data.items.map((shop) => (
                <li key={shop.id}>
                  <ShopCard shop={shop} from={`/user/shops${search}`} />
                </li>
              ))}
            </ul>
            <Pagination
              label="Shop pages"
              page={page}
              pageCount={pageCount}
              onPageChange={goToPage}
              busy={shops.isPlaceholderData}
              hideSinglePage
            />
          </>
        )}
      </section>
    </div>
  );
}
