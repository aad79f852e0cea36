import { useQuery } from '@tanstack/react-query';
import { ArrowRight, LayoutGrid, Store } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../components/ui/button';
import { PageSection } from '../components/ui/panel';
import { EmptyState, QueryView, SkeletonList } from '../components/ui/query-states';
import { Skeleton } from '../components/ui/skeleton';
import { MallHoursToday } from '../features/hours';
import { NoActiveOffers, OfferCard, OfferCardSkeleton, offersQuery } from '../features/offers';
import { categoriesQuery } from '../features/places';
import { usePageTitle } from '../lib/page-title';
import { queryClient } from '../lib/query-client';

/** Spec §9: the dashboard shows at most 3 featured offers. */
const FEATURED_OFFERS = 3;
const featuredOffersQuery = offersQuery({ active: true, pageSize: FEATURED_OFFERS });

/** Starts this screen's reads before it renders (lib/lazy-route.tsx). */
export function prefetch(): void {
  void queryClient.prefetchQuery(featuredOffersQuery);
  void queryClient.prefetchQuery(categoriesQuery);
}
const CATEGORY_SKELETONS = 8;

export function UserDashboardPage() {
  usePageTitle('Dashboard');
  return (
    <div className="space-y-10">
      <section className="overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-600 to-violet-600 px-6 py-8 text-white shadow-lg sm:px-10 sm:py-10">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Welcome to Super Mall</h1>
        <p className="mt-3 max-w-2xl text-indigo-100 sm:text-lg">
          Explore the shops of the mall, catch today's offers and compare products before you buy.
        </p>
        <MallHoursToday className="mt-4 rounded-xl bg-white/95 px-3 py-2 sm:inline-flex" />
        <Link to="/user/shops" className={buttonClass('inverse', 'lg', 'mt-6')}>
          <Store aria-hidden="true" className="size-5" />
          Browse shops
        </Link>
      </section>
      <FeaturedOffers />
      <Categories />
    </div>
  );
}

function FeaturedOffers() {
  const offers = useQuery(featuredOffersQuery);
  return (
    <PageSection
      title="Featured Offers"
      actions={
        <Link
          to="/user/offers"
          className="inline-flex min-h-10 items-center gap-1.5 rounded-lg px-2 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          View all offers
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      }
    >
      <QueryView
        query={offers}
        loading={
          <SkeletonList count={FEATURED_OFFERS} className="grid gap-4 md:grid-cols-3" label="Loading offers">
            <OfferCardSkeleton />
          </SkeletonList>
        }
        isEmpty={(data) => data.items.length === 0}
        empty={<NoActiveOffers />}
      >
        {(data) => (
          <ul className="grid gap-4 md:grid-cols-3">
            {data.items.slice(0, FEATURED_OFFERS).map((offer) => (
              <li key={offer.id}>
                <OfferCard offer={offer} />
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </PageSection>
  );
}

function Categories() {
  const categories = useQuery(categoriesQuery);
  return (
    <PageSection title="Shop by Category">
      <QueryView
        query={categories}
        loading={
          <SkeletonList
            count={CATEGORY_SKELETONS}
            className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
            label="Loading categories"
          >
            <div className="flex h-28 flex-col justify-between rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
              <Skeleton className="h-5 w-3/4" />
              <Skeleton className="h-4 w-1/3" />
            </div>
          </SkeletonList>
        }
        isEmpty={(data) => data.length === 0}
        empty={
          <EmptyState title="No categories yet." icon={<LayoutGrid aria-hidden="true" className="size-6" />}>
            <Link to="/user/shops" className={buttonClass('secondary', 'md', 'min-h-10')}>
              Browse all shops
            </Link>
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
            {data.map((category) => (
              <li key={category.id}>
                <Link
                  to={`/user/shops?category=${encodeURIComponent(category.name)}`}
                  className="group flex h-28 flex-col justify-between rounded-2xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-indigo-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                >
                  <span className="line-clamp-2 font-semibold wrap-anywhere text-slate-900 group-hover:text-indigo-700">
                    {category.name}
                  </span>
                  <span className="text-sm text-slate-500">
                    {category.shopCount === 1 ? '1 shop' : `${category.shopCount} shops`}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </PageSection>
  );
}
