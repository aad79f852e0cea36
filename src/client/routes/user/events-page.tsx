// /events (issue 35): what happens at the mall today, this weekend and later, filtered by tag and floor
// with a plain GET form and links, so it works without JavaScript; subscribable calendar feeds.
import { useQuery } from '@tanstack/react-query';
import { CalendarDays } from 'lucide-react';
import { useSearchParams } from 'react-router';
import type { EventListItem } from '../../../shared/event';
import { buttonClass } from '../../components/ui/button';
import { SelectField } from '../../components/ui/form-field';
import { EmptyState, QueryView, SkeletonList } from '../../components/ui/query-states';
import { Skeleton } from '../../components/ui/skeleton';
import { EventCard, eventsQuery, FeedLinks, weekendOf } from '../../features/events';
import { floorsQuery } from '../../features/places';
import { usePageTitle } from '../../lib/page-title';
import { queryClient } from '../../lib/query-client';

const GRID = 'grid gap-4 sm:grid-cols-2 lg:grid-cols-3';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The page's filters from its address: anything that is not a tag or a floor's id is left out. */
function filtersFrom(search: URLSearchParams) {
  const tag = search.get('tag') ?? '';
  const floor = search.get('floor') ?? '';
  return {
    tag: TAG.test(tag) && tag.length <= 30 ? tag : undefined,
    floorId: UUID.test(floor) ? floor : undefined,
  };
}
const listQuery = (filters: ReturnType<typeof filtersFrom>) => eventsQuery({ ...filters, pageSize: 100 });

/** Starts this screen's reads from its URL before it renders (lib/lazy-route.tsx). */
export async function prefetch(search: URLSearchParams): Promise<void> {
  await Promise.all([
    queryClient.prefetchQuery(listQuery(filtersFrom(search))),
    queryClient.prefetchQuery(floorsQuery),
  ]);
}

/** An occurrence on the page; in Upcoming, with how many later dates of the same event it stands for. */
type Shown = EventListItem & { moreDates?: number };

/**
 * Today's and this weekend's (after today) occurrences, then the rest: there each event once, at its
 * next date, with the count of its later ones (a weekly market is one card, not eight).
 */
function grouped(items: EventListItem[], today: string) {
  const weekend = weekendOf(today);
  const groups = { today: [] as Shown[], weekend: [] as Shown[], later: [] as Shown[] };
  const laterOf = new Map<string, Shown>();
  for (const item of items) {
    const { startDate, endDate } = item.occurrence;
    if (startDate <= today && endDate >= today) groups.today.push(item);
    else if (startDate <= weekend.to && endDate >= weekend.from) groups.weekend.push(item);
    else {
      const first = laterOf.get(item.event.id);
      if (first) first.moreDates = (first.moreDates ?? 0) + 1;
      else {
        const shown: Shown = { ...item };
        laterOf.set(item.event.id, shown);
        groups.later.push(shown);
      }
    }
  }
  return groups;
}

export function EventsPage() {
  usePageTitle('Events');
  const [search] = useSearchParams();
  const filters = filtersFrom(search);
  const events = useQuery(listQuery(filters));
  const floors = useQuery(floorsQuery);
  const tags = [...new Set((events.data?.items ?? []).flatMap((item) => item.event.tags))].sort();
  if (filters.tag && !tags.includes(filters.tag)) tags.unshift(filters.tag);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Events</h1>
          <p className="mt-1 text-sm text-slate-600">
            Markets, signings, workshops and late nights at the mall.
          </p>
        </div>
        <FeedLinks tag={filters.tag} />
      </div>
      <form
        method="get"
        action="/events"
        className="flex flex-wrap items-end gap-3"
        aria-label="Filter events"
      >
        <div className="w-full sm:w-48">
          <SelectField label="Tag" name="tag" defaultValue={filters.tag ?? ''}>
            <option value="">All tags</option>
            {tags.map((tag) => (
              <option key={tag} value={tag}>
                {tag}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="w-full sm:w-48">
          <SelectField label="Floor" name="floor" defaultValue={filters.floorId ?? ''}>
            <option value="">All floors</option>
            {(floors.data ?? []).map((floor) => (
              <option key={floor.id} value={floor.id}>
                {floor.name}
              </option>
            ))}
          </SelectField>
        </div>
        <button type="submit" className={buttonClass('secondary', 'md')}>
          Show events
        </button>
        {filters.tag || filters.floorId ? (
          <a
            href="/events"
            className="inline-flex min-h-10 items-center text-sm font-medium text-indigo-700 hover:underline"
          >
            Clear filters
          </a>
        ) : null}
      </form>
      <QueryView
        query={events}
        loading={
          <SkeletonList count={3} className={GRID}>
            <Skeleton className="h-44 w-full rounded-2xl" />
          </SkeletonList>
        }
        isEmpty={(data) => data.items.length === 0}
        empty={
          <EmptyState
            title="No events coming up"
            icon={<CalendarDays aria-hidden="true" className="size-6" />}
          >
            {filters.tag || filters.floorId ? 'Try another tag or floor.' : 'Check back soon.'}
          </EmptyState>
        }
      >
        {(data) => {
          const groups = grouped(data.items, data.from);
          return (
            <div className="space-y-8">
              <EventGroup id="today" title="Today" items={groups.today} none="Nothing else on today." />
              <EventGroup
                id="weekend"
                title="This weekend"
                items={groups.weekend}
                none="Nothing on this weekend yet."
              />
              <EventGroup
                id="upcoming"
                title="Upcoming"
                items={groups.later}
                none="Nothing further planned yet."
              />
            </div>
          );
        }}
      </QueryView>
    </div>
  );
}

function EventGroup({ id, title, items, none }: { id: string; title: string; items: Shown[]; none: string }) {
  return (
    <section aria-labelledby={`events-${id}`} className="space-y-3">
      <h2 id={`events-${id}`} className="text-xl font-bold tracking-tight text-slate-900">
        {title}
      </h2>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{none}</p>
      ) : (
        <ul className={GRID}>
          {items.map((item) => (
            <li key={`${item.event.id} ${item.occurrence.start}`}>
              <EventCard event={item.event} occurrence={item.occurrence} moreDates={item.moreDates} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
