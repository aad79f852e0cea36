// An offer as the shopper sees it: on the dashboard, the offers page and a shop's page.
import { CalendarDays, Percent, Store } from 'lucide-react';
import { Link } from 'react-router';
import type { Offer } from '../../../shared/offer';
import { EmptyState } from '../../components/ui/query-states';
import { Skeleton } from '../../components/ui/skeleton';
import { TitledCard } from '../../components/ui/titled-card';
import { cn } from '../../lib/cn';
import { useDirectoryArea } from '../../lib/directory-area';
import { formatDate } from '../../lib/format-date';

interface OfferCardProps {
  offer: Offer;
  /** A link to the offer's shop (not on the shop's own page). */
  showShop?: boolean;
  headingLevel?: 'h2' | 'h3';
}

export function OfferCard({ offer, showShop = true, headingLevel = 'h3' }: OfferCardProps) {
  const { shopById } = useDirectoryArea();
  return (
    <TitledCard
      heading={headingLevel}
      title={offer.title}
      className={cn('border-slate-200', showShop ? 'min-h-48' : 'min-h-36')}
      badge={
        <span className="shrink-0 rounded-lg bg-rose-600 px-2.5 py-1 text-sm font-bold whitespace-nowrap text-white">
          {offer.discount}% OFF
        </span>
      }
    >
      {offer.description ? (
        <p className="mt-2 text-sm wrap-anywhere text-slate-600">{offer.description}</p>
      ) : null}
      <div className="mt-auto flex flex-col items-start pt-3 text-sm">
        {showShop ? (
          <Link
            to={shopById(offer.shopId)}
            className="-mx-1 inline-flex min-h-10 max-w-full items-center gap-1.5 rounded-md px-1 font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <Store aria-hidden="true" className="size-4 shrink-0" />
            <span className="truncate">{offer.shopName}</span>
          </Link>
        ) : null}
        <p className="inline-flex h-6 items-center gap-1.5 text-slate-500">
          <CalendarDays aria-hidden="true" className="size-4 shrink-0" />
          Valid until {formatDate(offer.endDate)}
        </p>
      </div>
    </TitledCard>
  );
}

/** The same box while offers load: exactly the card's minimum height (a two-line description). */
export function OfferCardSkeleton({ showShop = true }: { showShop?: boolean }) {
  return (
    <div
      aria-hidden="true"
      className={cn(
        'flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm',
        showShop ? 'min-h-48' : 'min-h-36',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <Skeleton className="h-7 w-2/3" />
        <Skeleton className="h-7 w-20" />
      </div>
      {/* why: text-sm lines are 20 px: a 16 px bar in each */}
      <Skeleton className="mt-2.5 h-4 w-full" />
      {showShop ? <Skeleton className="mt-1 h-4 w-4/5" /> : null}
      <div className="mt-auto flex flex-col pt-3">
        {showShop ? <Skeleton className="my-2.5 h-5 w-32" /> : null}
        <Skeleton className="my-0.5 h-5 w-40" />
      </div>
    </div>
  );
}

/** The shopper's empty state where active offers would be (the dashboard, the offers page). */
export function NoActiveOffers() {
  return (
    <EmptyState
      title="No active offers available at the moment."
      icon={<Percent aria-hidden="true" className="size-6" />}
    />
  );
}
