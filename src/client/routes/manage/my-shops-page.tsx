import { useQuery } from '@tanstack/react-query';
import { CalendarDays, Store } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import type { ManagedShop } from '../../../shared/managers';
import { Badge } from '../../components/ui/badge';
import { EmptyState, QueryView, SkeletonCards } from '../../components/ui/query-states';
import { managedShopsQuery, reviewCounts } from '../../features/managers';
import { usePageTitle } from '../../lib/page-title';
import { queryClient } from '../../lib/query-client';

export function prefetch(): void {
  void queryClient.prefetchQuery(managedShopsQuery);
}

const GRID = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3';

/** /manage: the shops this person manages, with how their offers and events stand with the mall office. */
export function MyShopsPage() {
  usePageTitle('My shops');
  const shops = useQuery(managedShopsQuery);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">My shops</h1>
        <p className="mt-1 text-sm text-slate-600">
          The shops you keep current: their details, products, offers and events. Offers and events go live
          after the mall office approves them.
        </p>
      </div>
      <QueryView
        query={shops}
        loading={
          <SkeletonCards count={2} className={GRID} label="Loading your shops" card="h-36 rounded-2xl" />
        }
        isEmpty={(data) => data.length === 0}
        empty={
          <EmptyState
            title="You do not manage any shop at the moment."
            icon={<Store aria-hidden="true" className="size-6" />}
          >
            <p>The mall office sends a shop's manager an invitation link.</p>
          </EmptyState>
        }
      >
        {(data) => (
          <ul className={GRID}>
            {data.map((shop) => (
              <li key={shop.id}>
                <ManagedShopCard shop={shop} />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </div>
  );
}

function ManagedShopCard({ shop }: { shop: ManagedShop }) {
  const nameId = useId();
  const reviews = reviewCounts(shop);
  return (
    <article
      aria-labelledby={nameId}
      className="relative flex h-full min-h-36 flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow-md has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-indigo-600"
    >
      <h2 id={nameId} className="text-lg font-semibold text-slate-900">
        <Link
          to={`/manage/shops/${shop.id}`}
          className="wrap-anywhere outline-none after:absolute after:inset-0 after:rounded-2xl hover:text-indigo-700"
        >
          {shop.name}
        </Link>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {shop.categoryName} · {shop.floorName}
      </p>
      <p className="mt-auto flex flex-wrap items-center gap-2 pt-4">
        {reviews.waiting ? <Badge tone="amber">{reviews.waiting}</Badge> : null}
        {reviews.sentBack ? <Badge tone="rose">{reviews.sentBack}</Badge> : null}
        {!reviews.waiting && !reviews.sentBack ? <Badge tone="green">Nothing waiting</Badge> : null}
      </p>
      {reviews.events ? (
        // Above the card's own link (its ::after covers the card): straight to the shop's events.
        <Link
          to={`/manage/shops/${shop.id}#events`}
          className="relative z-10 mt-3 inline-flex min-h-10 items-center gap-1.5 self-start rounded-lg text-sm font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <CalendarDays aria-hidden="true" className="size-4" />
          See the events<span className="sr-only"> of {shop.name}</span>
        </Link>
      ) : null}
    </article>
  );
}
