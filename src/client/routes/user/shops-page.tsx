import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { GitCompareArrows, Store } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useEffect, useRef } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { Place } from '../../../shared/place';
import { Button, buttonClass } from '../../components/ui/button';
import { SelectField } from '../../components/ui/form-field';
import { LoadingStatus } from '../../components/ui/loading-status';
import { PagedList } from '../../components/ui/paged-list';
import { EmptyState, QueryView, SkeletonList } from '../../components/ui/query-states';
import { SearchField } from '../../components/ui/search-field';
import { clockQuery, openAtParam, prefetchMallClock, useMallClock } from '../../features/hours';
import { categoriesQuery, floorsQuery } from '../../features/places';
import { ShopCard, ShopCardSkeleton, shopsQuery } from '../../features/shops';
import { useDirectoryArea } from '../../lib/directory-area';
import { countHit } from '../../lib/insights';
import { usePageTitle } from '../../lib/page-title';
import { queryClient } from '../../lib/query-client';
import {
  pageFrom,
  readListParams,
  useListParams,
  useListWrite,
  usePageParam,
} from '../../lib/use-list-params';

const PAGE_SIZE = 12;
const GRID = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3';

/** The place called `name` (names are unique in any case); undefined while loading or when unknown. */
function findByName(places: Place[] | undefined, name: string): Place | undefined {
  if (!places || !name) return undefined;
  const lower = name.toLowerCase();
  return (
    places.find((place) => place.name === name) ?? places.find((place) => place.name.toLowerCase() === lower)
  );
}

function listQuery(
  categoryId: string | undefined,
  floorId: string | undefined,
  page: number,
  openAt?: string,
  q = '',
) {
  return shopsQuery({
    q: q || undefined,
    categoryId,
    floorId,
    page,
    pageSize: PAGE_SIZE,
    ...(openAt ? { openAt } : {}),
  });
}

/**
 * Reads this screen's data from its URL before it renders (lib/lazy-route.tsx): the lists, then the shops
 * (a filter names a category or floor whose id comes with the lists; Open now needs the mall's clock).
 * Resolves once everything the first render shows is in the cache (a server-rendered page waits for it).
 */
export async function prefetch(
  search: URLSearchParams,
  _params?: unknown,
  client = queryClient,
): Promise<void> {
  const clockRead = prefetchMallClock(client);
  const categoryName = search.get('category') ?? '';
  const floorName = search.get('floor') ?? '';
  const openNow = search.get('open') === 'now';
  const [categories, floors, clock] = await Promise.all([
    client.fetchQuery(categoriesQuery),
    client.fetchQuery(floorsQuery),
    openNow ? client.fetchQuery(clockQuery) : undefined,
  ]);
  const openAt = clock ? openAtParam(Date.parse(clock.now)) : undefined;
  await client.prefetchQuery(
    listQuery(
      findByName(categories, categoryName)?.id,
      findByName(floors, floorName)?.id,
      pageFrom(search),
      openAt,
      readListParams(search).q,
    ),
  );
  await clockRead;
}

export function ShopsPage() {
  usePageTitle('Shops');
  const area = useDirectoryArea();
  const [params] = useSearchParams();
  // every change of the query string goes through the list's writer: never once the browser left the list
  const write = useListWrite();
  const { search } = useLocation();
  const categoryName = params.get('category') ?? '';
  const floorName = params.get('floor') ?? '';
  const page = pageFrom(params);
  // "Open now" (?open=now): the server lists the shops open at the mall clock's current minute, asked
  // again each minute (docs/decisions/017).
  const openNow = params.get('open') === 'now';
  const clock = useMallClock();
  const openAt = openNow && clock ? openAtParam(clock.now) : undefined;
  // the name search (?q=) and the selects replace the history entry; Open now and pages add one
  const { text, setText, q } = useListParams();

  const categories = useQuery(categoriesQuery);
  const floors = useQuery(floorsQuery);
  const category = findByName(categories.data, categoryName);
  const floor = findByName(floors.data, floorName);
  // the URL names a category or floor and the API filters by id, so wait for the lists first.
  const ready =
    (!categoryName || categories.isSuccess) &&
    (!floorName || floors.isSuccess) &&
    (!openNow || Boolean(openAt));
  const shops = useQuery({ ...listQuery(category?.id, floor?.id, page, openAt, q), enabled: ready });
  const total = shops.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const unknownCategory = Boolean(categoryName) && categories.isSuccess && !category;
  const unknownFloor = Boolean(floorName) && floors.isSuccess && !floor;
  const pastTheEnd = shops.isSuccess && !shops.isPlaceholderData && page > pageCount;

  // a name that names nothing (an old link, a renamed category) means no filter; tidy the URL so
  // the selects, the list and the address agree. Same for a page past the end.
  useEffect(() => {
    if (!unknownCategory && !unknownFloor && !pastTheEnd) return;
    write(
      (next) => {
        if (unknownCategory) next.delete('category');
        if (unknownFloor) next.delete('floor');
        if (pastTheEnd) {
          if (pageCount > 1) next.set('page', String(pageCount));
          else next.delete('page');
        }
      },
      { replace: true },
    );
  }, [unknownCategory, unknownFloor, pastTheEnd, pageCount, write]);

  const resultsRef = useRef<HTMLElement>(null);
  const { goToPage, pageHref } = usePageParam(resultsRef);

  // A select's choice replaces the history entry: arrowing through the categories changes the value at
  // every step, and Back should leave the list, not replay each step. Open now is one click: it adds one.
  function setFilter(key: 'category' | 'floor' | 'open', value: string) {
    write(
      (next) => {
        if (value) next.set(key, value);
        else next.delete(key);
        next.delete('page');
      },
      { replace: key !== 'open' },
    );
  }

  function clearFilters() {
    setText('');
    write((next) => {
      for (const key of [...next.keys()]) next.delete(key);
    });
  }

  const filtered = Boolean(category || floor || openNow || q);
  const placeFilters = [
    { name: 'category', places: categories, chosen: category, named: categoryName },
    { name: 'floor', places: floors, chosen: floor, named: floorName },
  ] as const;
  const failed = categories.isError || floors.isError || shops.isError;
  const loading = !failed && (!ready || shops.isFetching);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Shops</h1>
          <p className="mt-1 text-sm text-slate-600">Find a shop by name, category or floor.</p>
        </div>
        {area.compare ? (
          <Link to="/user/compare" className={buttonClass('secondary', 'md', 'min-h-10')}>
            <GitCompareArrows aria-hidden="true" className="size-4" />
            Compare Products
          </Link>
        ) : null}
      </div>

      {/* why: a GET form, so the filters work before any script has run (a server-rendered page); once
          the app runs, each control filters as it changes and the form is never sent. */}
      <search>
        <form
          method="get"
          action={area.shops}
          onSubmit={(event: FormEvent) => event.preventDefault()}
          className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 sm:p-5 lg:grid-cols-3"
        >
          <SearchField
            label="Shop name"
            name="q"
            placeholder="Search by name"
            maxLength={200}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          {placeFilters.map((filter) => (
            <PlaceSelect key={filter.name} {...filter} onChange={(value) => setFilter(filter.name, value)} />
          ))}
          <label className="inline-flex min-h-10 items-center gap-2 text-sm font-medium text-slate-700 sm:col-span-2">
            <input
              type="checkbox"
              name="open"
              value="now"
              className="size-4 accent-indigo-600"
              checked={openNow}
              onChange={(event) => {
                // the Open-now filter's use is counted (insights), not who used it
                if (event.target.checked) countHit({ kind: 'open_now' });
                setFilter('open', event.target.checked ? 'now' : '');
              }}
            />
            Open now
          </label>
          <noscript>
            <button type="submit" className={buttonClass('primary', 'md', 'min-h-10 w-full sm:w-auto')}>
              Show shops
            </button>
          </noscript>
        </form>
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

        <QueryView
          query={shops}
          needs={[categories, floors]}
          loading={
            <SkeletonList count={6} className={GRID}>
              <ShopCardSkeleton />
            </SkeletonList>
          }
          isEmpty={(data) => data.items.length === 0}
          empty={
            <EmptyState title="No shops found" icon={<Store aria-hidden="true" className="size-6" />}>
              {filtered ? (
                <>
                  <p>
                    {q
                      ? `No shop name contains “${q}” with these filters.`
                      : 'No shop matches these filters.'}
                  </p>
                  <Button variant="secondary" className="min-h-10" onClick={clearFilters}>
                    Clear filters
                  </Button>
                </>
              ) : null}
            </EmptyState>
          }
        >
          {(data) => (
            <PagedList
              className={GRID}
              items={data.items}
              render={(shop) => <ShopCard shop={shop} from={`${area.shops}${search}`} />}
              stale={shops.isPlaceholderData}
              pagination={{ label: 'Shop pages', page, pageCount, onPageChange: goToPage, pageHref }}
            />
          )}
        </QueryView>
      </section>
    </div>
  );
}

/** Each filter's label and its no-filter option. */
const PLACE_LABELS = {
  category: { label: 'Category', all: 'All Categories' },
  floor: { label: 'Floor', all: 'All Floors' },
};

interface PlaceSelectProps {
  /** The URL's parameter: ?category= or ?floor=. */
  name: keyof typeof PLACE_LABELS;
  places: UseQueryResult<Place[]>;
  /** The place the URL's name matched, once the list is known. */
  chosen: Place | undefined;
  /** The name in the URL: shown as chosen while the list loads. */
  named: string;
  onChange(name: string): void;
}

/** A category or floor filter, by name (the URL keeps names, which people can read and share). */
function PlaceSelect({ name, places, chosen, named, onChange }: PlaceSelectProps) {
  const { label, all } = PLACE_LABELS[name];
  return (
    <SelectField
      label={label}
      name={name}
      value={chosen?.name ?? (places.isSuccess ? '' : named)}
      onChange={(event: ChangeEvent<HTMLSelectElement>) => onChange(event.target.value)}
      disabled={!places.isSuccess}
    >
      <option value="">{all}</option>
      {places.data
        ? places.data.map((place) => (
            <option key={place.id} value={place.name}>
              {place.name}
            </option>
          ))
        : named && <option value={named}>{named}</option>}
    </SelectField>
  );
}
