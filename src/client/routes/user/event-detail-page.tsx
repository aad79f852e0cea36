// /events/{id} (issue 35): one event, its next dates, where it is (on the floor's plan), who organizes it,
// "Add to calendar" (an .ics download) and the feeds. A cancelled event stays, marked, until it is over.
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, CalendarDays, CalendarPlus, MapPin, Store } from 'lucide-react';
import { type Params, useParams } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { PageSection } from '../../components/ui/panel';
import { EmptyState, QueryView } from '../../components/ui/query-states';
import { Skeleton } from '../../components/ui/skeleton';
import { floorGuideOfQuery } from '../../features/amenities';
import { eventQuery, FeedLinks, formatWhen } from '../../features/events';
import { LazyFloorPlan } from '../../features/floor-plans';
import { Picture } from '../../features/images';
import { isNotFound } from '../../lib/api';
import { usePageTitle } from '../../lib/page-title';
import { queryClient } from '../../lib/query-client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads the event, then its floor's plan, before the screen renders (lib/lazy-route.tsx). */
export async function prefetch(
  _search: URLSearchParams,
  params: Params,
  client = queryClient,
): Promise<void> {
  const id = params.id ?? '';
  if (!UUID.test(id)) return;
  const event = await client.fetchQuery(eventQuery(id)).catch(() => undefined);
  if (event?.place.floorId)
    await client.prefetchQuery(floorGuideOfQuery(event.place.floorId, placeShop(event.place)));
}

/** The shop an event is at (its plan shows that shop's pin), if it is at one. */
const placeShop = (place: { kind: string; id: string | null }) =>
  place.kind === 'shop' ? (place.id ?? undefined) : undefined;

function BackToEvents() {
  return (
    <a
      href="/events"
      className="-ml-2 inline-flex min-h-10 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to events
    </a>
  );
}

export function EventDetailPage() {
  const id = useParams().id ?? '';
  const valid = UUID.test(id);
  const event = useQuery({ ...eventQuery(id), enabled: valid });
  usePageTitle(event.data?.title ?? (event.isError || !valid ? 'Event not found' : undefined));
  if (!valid || (event.isError && isNotFound(event.error))) {
    return (
      <div className="space-y-4">
        <BackToEvents />
        <EmptyState title="Event not found">It may have ended or been taken down.</EmptyState>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <BackToEvents />
      <QueryView query={event} loading={<Skeleton className="h-64 w-full rounded-2xl" />}>
        {(data) => {
          const cancelled = data.status === 'cancelled';
          const [next] = data.upcoming;
          return (
            <article className="space-y-6" aria-labelledby="event-title">
              <header className="space-y-3">
                {data.image ? (
                  <Picture
                    image={data.image}
                    name={data.title}
                    sizes="(min-width: 1152px) 1104px, 100vw"
                    eager
                    className="aspect-[3/1] w-full rounded-2xl"
                  />
                ) : null}
                <div className="flex flex-wrap items-center gap-3">
                  <h1
                    id="event-title"
                    className="min-w-0 text-2xl font-bold tracking-tight wrap-anywhere text-slate-900 sm:text-3xl"
                  >
                    {data.title}
                  </h1>
                  {cancelled ? (
                    <span className="rounded-lg bg-rose-700 px-2.5 py-1 text-sm font-bold text-white">
                      Cancelled
                    </span>
                  ) : null}
                </div>
                {cancelled ? (
                  <p role="note" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-900">
                    This event has been cancelled.
                  </p>
                ) : null}
              </header>
              <dl className="grid gap-3 text-sm text-slate-700 sm:grid-cols-3">
                <div>
                  <dt className="flex items-center gap-2 font-semibold text-slate-900">
                    <CalendarDays aria-hidden="true" className="size-4 shrink-0" />
                    When
                  </dt>
                  <dd className="pl-6">{next ? formatWhen(next) : 'This event is over.'}</dd>
                </div>
                <div>
                  <dt className="flex items-center gap-2 font-semibold text-slate-900">
                    <MapPin aria-hidden="true" className="size-4 shrink-0" />
                    Where
                  </dt>
                  <dd className="pl-6">
                    {data.place.name}
                    {data.place.floorName && data.place.kind !== 'floor' ? `, ${data.place.floorName}` : ''}
                  </dd>
                </div>
                <div>
                  <dt className="flex items-center gap-2 font-semibold text-slate-900">
                    <Store aria-hidden="true" className="size-4 shrink-0" />
                    Organized by
                  </dt>
                  <dd className="pl-6">
                    {data.shopName && data.shopSlug ? (
                      <a
                        className="text-indigo-700 hover:underline"
                        href={`/shops/${encodeURIComponent(data.shopSlug)}`}
                      >
                        {data.shopName}
                      </a>
                    ) : (
                      'The mall'
                    )}
                  </dd>
                </div>
              </dl>
              <div className="flex flex-wrap gap-2">
                <a
                  href={`/api/events/${data.id}/calendar.ics`}
                  download
                  className={buttonClass('primary', 'md')}
                >
                  <CalendarPlus aria-hidden="true" className="size-4" />
                  Add to calendar
                </a>
              </div>
              {data.description ? (
                <p className="max-w-prose whitespace-pre-line text-slate-700">{data.description}</p>
              ) : null}
              {data.upcoming.length > 1 ? (
                <PageSection title="Next dates" className="space-y-2">
                  <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
                    {data.upcoming.map((occurrence) => (
                      <li key={occurrence.start}>{formatWhen(occurrence)}</li>
                    ))}
                  </ul>
                </PageSection>
              ) : null}
              {data.tags.length > 0 ? (
                <PageSection title="More like this" className="space-y-2">
                  <ul className="flex flex-wrap gap-2">
                    {data.tags.map((tag) => (
                      <li key={tag}>
                        <a
                          href={`/events?tag=${encodeURIComponent(tag)}`}
                          className="inline-flex min-h-10 items-center rounded-full bg-slate-100 px-3 text-sm text-slate-700 hover:bg-slate-200"
                        >
                          #{tag}
                        </a>
                      </li>
                    ))}
                  </ul>
                  <FeedLinks tag={data.tags[0]} />
                </PageSection>
              ) : null}
              {data.place.floorId ? (
                <FindIt floorId={data.place.floorId} shopId={placeShop(data.place)} />
              ) : null}
            </article>
          );
        }}
      </QueryView>
    </div>
  );
}

/** Its place on the floor's plan: the shop's pin highlighted, when it is at a shop. */
function FindIt({ floorId, shopId }: { floorId: string; shopId: string | undefined }) {
  const guide = useQuery(floorGuideOfQuery(floorId, shopId));
  const floor = guide.data?.find((entry) => entry.id === floorId);
  if (!floor?.planImage) return null;
  return (
    <PageSection title={<>Find it on {floor.name}</>} className="space-y-3">
      <LazyFloorPlan floor={floor} highlight={shopId} />
    </PageSection>
  );
}
