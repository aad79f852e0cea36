// The shoppers' Floors page: every floor from the lowest up, with its shops by unit and its amenities
// (docs/decisions/018).
import { useQuery } from '@tanstack/react-query';
import { Layers, Store } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import type { FloorGuideEntry } from '../../../shared/amenity';
import { levelLabel } from '../../../shared/floors';
import { Badge } from '../../components/ui/badge';
import { EmptyState, QueryView, SkeletonList } from '../../components/ui/query-states';
import { Skeleton } from '../../components/ui/skeleton';
import { AmenityItem, floorGuideQuery } from '../../features/amenities';
import { LazyFloorPlan } from '../../features/floor-plans';
import { useDirectoryArea } from '../../lib/directory-area';
import { usePageTitle } from '../../lib/page-title';
import { queryClient } from '../../lib/query-client';

/** Starts this screen's read before it renders (lib/lazy-route.tsx). */
export function prefetch(_search?: URLSearchParams, _params?: unknown, client = queryClient): Promise<void> {
  return client.prefetchQuery(floorGuideQuery);
}

const shopCount = (n: number) => (n === 1 ? '1 shop' : `${n} shops`);

export function FloorsPage() {
  usePageTitle('Floors');
  const guide = useQuery(floorGuideQuery);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Floors</h1>
        <p className="mt-1 text-sm text-slate-600">
          Every floor of the mall from the lowest up, with its shops and what else you will find there.
        </p>
      </div>
      <QueryView
        query={guide}
        loading={
          <SkeletonList count={3} className="space-y-6" label="Loading floors">
            <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
              <Skeleton className="h-7 w-40" />
              <Skeleton className="mt-4 h-4 w-full" />
              <Skeleton className="mt-2 h-4 w-2/3" />
            </div>
          </SkeletonList>
        }
        isEmpty={(floors) => floors.length === 0}
        empty={<EmptyState title="No floors yet" icon={<Layers aria-hidden="true" className="size-6" />} />}
      >
        {(floors) => (
          <>
            {/* why: a long mall is a long page; on a phone the floors are a tap away */}
            <nav aria-label="Jump to a floor" className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1">
              {floors.map((floor) => (
                <a
                  key={floor.id}
                  href={`#floor-${floor.id}`}
                  className="flex min-h-10 shrink-0 items-center rounded-full border border-slate-200 bg-white px-3 text-sm font-medium text-slate-700 hover:border-indigo-300 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                >
                  {floor.name}
                </a>
              ))}
            </nav>
            <ol aria-label="Floors from the lowest up" className="space-y-6">
              {floors.map((floor) => (
                <li key={floor.id}>
                  <FloorSection floor={floor} />
                </li>
              ))}
            </ol>
          </>
        )}
      </QueryView>
    </div>
  );
}

function FloorSection({ floor }: { floor: FloorGuideEntry }) {
  const area = useDirectoryArea();
  const headingId = useId();
  return (
    <section
      id={`floor-${floor.id}`}
      aria-labelledby={headingId}
      className="scroll-mt-36 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h2 id={headingId} className="text-xl font-semibold wrap-anywhere text-slate-900">
          {floor.name}
        </h2>
        <Badge tone="indigo">{levelLabel(floor.level)}</Badge>
        <span className="text-sm text-slate-500">{shopCount(floor.shops.length)}</span>
      </div>
      {floor.planImage ? (
        <div className="mt-5">
          <LazyFloorPlan floor={floor} />
        </div>
      ) : null}
      <div className="mt-5 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <div>
          <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">Amenities</h3>
          {floor.amenities.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">No amenities listed on this floor.</p>
          ) : (
            <ul aria-label={`Amenities on ${floor.name}`} className="mt-3 space-y-3">
              {floor.amenities.map((amenity) => (
                <li key={amenity.id}>
                  <AmenityItem kind={amenity.kind} location={amenity.location} />
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">Shops by unit</h3>
          {floor.shops.length === 0 ? (
            <p className="mt-2 flex items-center gap-2 text-sm text-slate-500">
              <Store aria-hidden="true" className="size-4" />
              No shops on this floor yet.
            </p>
          ) : (
            <ul aria-label={`Shops on ${floor.name}`} className="mt-2 divide-y divide-slate-100">
              {floor.shops.map((shop) => (
                <li
                  key={shop.id}
                  className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2.5"
                >
                  <Link
                    to={area.shop(shop)}
                    className="min-w-0 font-medium wrap-anywhere text-indigo-700 hover:text-indigo-900 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                  >
                    {shop.name}
                  </Link>
                  <span className="min-w-0 text-sm wrap-anywhere text-slate-500">
                    {shop.location || 'Location not listed'} · {shop.category}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
