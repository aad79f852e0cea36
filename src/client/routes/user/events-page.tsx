// /events (issue 35): what happens at the mall today, this weekend and later, filtered by tag and floor
// with a plain GET form and links, so it works without JavaScript; subscribable calendar feeds.
import { useQuery } from '@tanstack/react-query';
import { CalendarDays } from 'lucide-react';
import { useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { EventOverview, EventOverviewCard, EventOverviewGroup } from '../../../shared/event';
import { buttonClass } from '../../components/ui/button';
import { SelectField } from '../../components/ui/form-field';
import { Pagination } from '../../components/ui/pagination';
import { PageSection } from '../../components/ui/panel';
import { EmptyState, QueryView, SkeletonList } from '../../components/ui/query-states';
import { Skeleton } from '../../components/ui/skeleton';
import { EventCard, eventOverviewQuery, FeedLinks } from '../../features/events';
import { floorsQuery } from '../../features/places';
import { cn } from '../../lib/cn';
import { usePageTitle } from '../../lib/page-title';
import { queryClient } from '../../lib/query-client';
import { pageFrom, usePageParam } from '../../lib/use-list-params';

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
/** Page 1 is asked for without `page`, so the server's cache holds one copy of it. */
const listQuery = (filters: ReturnType<typeof filtersFrom>, page: number) =>
  eventOverviewQuery({ ...filters, ...(page > 1 ? { page } : {}) });

/** Starts this screen's reads from its URL before it renders (lib/lazy-route.tsx). */
export async function prefetch(
  search: URLSearchParams,
  _params?: unknown,
  client = queryClient,
): Promise<void> {
  await Promise.all([
    client.prefetchQuery(listQuery(filtersFrom(search), pageFrom(search))),
    client.prefetchQuery(floorsQuery),
  ]);
}

const GROUPS: { id: EventOverviewGroup; title: string; none: string }[] = [
  { id: 'today', title: 'Today', none: 'Nothing else on today.' },
  { id: 'weekend', title: 'This weekend', none: 'Nothing on this weekend yet.' },
  { id: 'upcoming', title: 'Upcoming', none: 'Nothing further planned yet.' },
];

/**
 * The groups this page shows: those with cards on it, and on the first page the empty ones too (saying
 * so); no weekend group on a Sunday (its events are today's).
 */
function groupsOn(data: EventOverview) {
  return GROUPS.map((group) => ({
    ...group,
    cards: data.items.filter((card) => card.group === group.id),
  })).filter(
    (group) =>
      group.cards.length > 0 ||
      (data.page === 1 && data.groupTotals[group.id] === 0 && (group.id !== 'weekend' || data.weekend)),
  );
}

export function EventsPage() {
  usePageTitle('Events');
  const [search] = useSearchParams();
  const filters = filtersFrom(search);
  const topRef = useRef<HTMLDivElement>(null);
  const { page, goToPage, pageHref } = usePageParam(topRef);
  const events = useQuery({ ...listQuery(filters, page), placeholderData: (previous) => previous });
  const floors = useQuery(floorsQuery);
  const tags = [...(events.data?.tags ?? [])];
  if (filters.tag && !tags.includes(filters.tag)) tags.unshift(filters.tag);

  return (
    <div ref={topRef} className="scroll-mt-36 space-y-6">
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
        isEmpty={(data) => data.total === 0}
        empty={
          <EmptyState
            title="No events coming up"
            icon={<CalendarDays aria-hidden="true" className="size-6" />}
          >
            {filters.tag || filters.floorId ? 'Try another tag or floor.' : 'Check back soon.'}
          </EmptyState>
        }
      >
        {(data) => (
          <div className={cn('space-y-8 transition-opacity', events.isPlaceholderData && 'opacity-60')}>
            {groupsOn(data).map((group) => (
              <EventGroup key={group.id} title={group.title} cards={group.cards} none={group.none} />
            ))}
            <Pagination
              label="Event pages"
              page={page}
              pageCount={Math.ceil(data.total / data.pageSize)}
              onPageChange={goToPage}
              pageHref={pageHref}
              busy={events.isPlaceholderData}
              hideSinglePage
            />
          </div>
        )}
      </QueryView>
    </div>
  );
}

function EventGroup({ title, cards, none }: { title: string; cards: EventOverviewCard[]; none: string }) {
  return (
    <PageSection title={title} className="space-y-3">
      {cards.length === 0 ? (
        <p className="text-sm text-slate-600">{none}</p>
      ) : (
        <ul className={GRID}>
          {cards.map((card) => (
            <li key={`${card.event.id} ${card.occurrence.start}`}>
              <EventCard event={card.event} occurrence={card.occurrence} moreDates={card.moreDates} />
            </li>
          ))}
        </ul>
      )}
    </PageSection>
  );
}
