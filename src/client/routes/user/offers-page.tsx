import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { LoadingStatus } from '../../components/ui/loading-status';
import { PagedList } from '../../components/ui/paged-list';
import { QueryView, SkeletonList } from '../../components/ui/query-states';
import { NoActiveOffers, OfferCard, OfferCardSkeleton, offersQuery } from '../../features/offers';
import { usePageTitle } from '../../lib/page-title';
import { queryClient } from '../../lib/query-client';
import { pageFrom, usePageParam } from '../../lib/use-list-params';

const PAGE_SIZE = 12;
const GRID = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3';

function listQuery(page: number) {
  return offersQuery({ active: true, page, pageSize: PAGE_SIZE });
}

/** Starts this screen's reads from its URL before it renders (lib/lazy-route.tsx). */
export function prefetch(search: URLSearchParams, _params?: unknown, client = queryClient): Promise<void> {
  return client.prefetchQuery(listQuery(pageFrom(search)));
}

export function OffersPage() {
  usePageTitle('Current Offers');
  const topRef = useRef<HTMLDivElement>(null);
  const { page, goToPage, pageHref } = usePageParam(topRef);
  const offers = useQuery(listQuery(page));
  const total = offers.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div ref={topRef} className="scroll-mt-36 space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Current Offers</h1>
        <p className="mt-1 text-sm text-slate-600">Deals running in the mall today.</p>
      </div>
      <div className="flex h-6 items-center gap-3">
        <p aria-live="polite" className="text-sm font-medium text-slate-700">
          {offers.data && !offers.isPlaceholderData
            ? total === 1
              ? '1 active offer'
              : `${total} active offers`
            : null}
        </p>
        {offers.isFetching && !offers.isError ? <LoadingStatus label="Loading offers" /> : null}
      </div>
      <QueryView
        query={offers}
        loading={
          <SkeletonList count={6} className={GRID}>
            <OfferCardSkeleton />
          </SkeletonList>
        }
        isEmpty={(data) => data.items.length === 0 && page === 1}
        empty={<NoActiveOffers />}
      >
        {(data) => (
          <PagedList
            label="Active offers"
            className={GRID}
            items={data.items}
            render={(offer) => <OfferCard offer={offer} headingLevel="h2" />}
            stale={offers.isPlaceholderData}
            pagination={{ label: 'Offer pages', page, pageCount, onPageChange: goToPage, pageHref }}
          />
        )}
      </QueryView>
    </div>
  );
}
