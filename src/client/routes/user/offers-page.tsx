import { useQuery } from '@tanstack/react-query';
import { Percent } from 'lucide-react';
import { useRef } from 'react';
import { LoadingStatus } from '../../components/ui/loading-status';
import { Pagination } from '../../components/ui/pagination';
import { EmptyState, ErrorState } from '../../components/ui/query-states';
import { OfferCard, OfferCardSkeleton, offersQuery } from '../../features/offers';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { queryClient } from '../../lib/query-client';
import { pageFrom, usePageParam } from '../../lib/use-list-params';

const PAGE_SIZE = 12;

function listQuery(page: number) {
  return offersQuery({ active: true, page, pageSize: PAGE_SIZE });
}

/** Starts this screen's reads from its URL before it renders (lib/lazy-route.tsx). */
export function prefetch(search: URLSearchParams): void {
  void queryClient.prefetchQuery(listQuery(pageFrom(search)));
}

export function OffersPage() {
  const topRef = useRef<HTMLDivElement>(null);
  const { page, goToPage } = usePageParam(topRef);
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
      {offers.isError ? (
        <ErrorState
          message={errorMessage(offers.error)}
          onRetry={() => offers.refetch()}
          retrying={offers.isFetching}
        />
      ) : offers.isPending ? (
        <ul aria-hidden="true" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 6 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on
            <li key={index}>
              <OfferCardSkeleton />
            </li>
          ))}
        </ul>
      ) : offers.data.items.length === 0 && page === 1 ? (
        <EmptyState
          title="No active offers available at the moment."
          icon={<Percent aria-hidden="true" className="size-6" />}
        />
      ) : (
        <>
          <ul
            aria-label="Active offers"
            className={cn(
              'grid gap-4 transition-opacity sm:grid-cols-2 lg:grid-cols-3',
              offers.isPlaceholderData && 'opacity-60',
            )}
          >
            {offers.data.items.map((offer) => (
              <li key={offer.id}>
                <OfferCard offer={offer} headingLevel="h2" />
              </li>
            ))}
          </ul>
          <Pagination
            label="Offer pages"
            page={page}
            pageCount={pageCount}
            onPageChange={goToPage}
            busy={offers.isPlaceholderData}
            hideSinglePage
          />
        </>
      )}
    </div>
  );
}
