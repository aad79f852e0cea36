// The mall's and the shops' events (issue 35): the public reads, the writes, the approvals queue's.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { EventDetail, EventInput, EventOverview, ReviewedEvent } from '../../../shared/event';
import { api } from '../../lib/api';
import { recordPath, toSearch } from '../../lib/list-query';
import { queryKeys } from '../../lib/query-keys';
import { recordWrites } from '../../lib/record-writes';

/** The events page's cards: today, this weekend and later, a page at a time (docs/decisions/040). */
export function eventOverviewQuery(filters: {
  tag?: string;
  floorId?: string;
  shopId?: string;
  page?: number;
}) {
  return queryOptions({
    queryKey: [...queryKeys.events, 'overview', filters] as const,
    queryFn: ({ signal }) =>
      api<EventOverview>(`/api/events/overview${toSearch({ ...filters })}`, { signal }),
  });
}

export function eventQuery(id: string) {
  return queryOptions({
    queryKey: [...queryKeys.events, 'detail', id] as const,
    queryFn: ({ signal }) => api<EventDetail>(recordPath('/api/events', id), { signal }),
  });
}

/** Every event, approved or not, with what awaits review: the mall office's list. */
export const allEventsQuery = queryOptions({
  queryKey: [...queryKeys.eventReviews, 'all'] as const,
  queryFn: ({ signal }) => api<{ items: ReviewedEvent[] }>('/api/event-reviews/all', { signal }),
});

/** The events waiting for an admin (the approvals queue). */
export const pendingEventsQuery = queryOptions({
  queryKey: [...queryKeys.eventReviews, 'pending'] as const,
  queryFn: ({ signal }) => api<{ items: ReviewedEvent[] }>('/api/event-reviews', { signal }),
});

/** A shop's events with their reviews, for its managers. */
export function managedEventsQuery(shopId: string) {
  return queryOptions({
    queryKey: [...queryKeys.managedShops, shopId, 'events'] as const,
    queryFn: ({ signal }) =>
      api<{ items: ReviewedEvent[] }>(`/api/manage/shops/${encodeURIComponent(shopId)}/events`, { signal }),
  });
}

const { events, eventReviews, managedShops } = queryKeys;
const writes = recordWrites<ReviewedEvent, EventInput>({
  path: '/api/events',
  root: events,
  refresh: {
    create: [events, eventReviews, managedShops],
    update: [events, eventReviews, managedShops],
    delete: [events, eventReviews, managedShops],
  },
});
export const useCreateEvent = writes.useCreate;
export const useUpdateEvent = writes.useUpdate;
export const useDeleteEvent = writes.useDelete;

/** An admin's decision on a waiting event: approve, or send back with a comment. */
export function useDecideEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      decision,
      version,
      comment,
    }: {
      id: string;
      decision: 'approve' | 'send-back';
      version: string;
      comment?: string;
    }) =>
      api<ReviewedEvent>(`/api/event-reviews/${encodeURIComponent(id)}/${decision}`, {
        method: 'POST',
        body: decision === 'approve' ? { version } : { version, comment },
      }),
    onSettled: () =>
      Promise.all(
        [events, eventReviews, managedShops].map((queryKey) => client.invalidateQueries({ queryKey })),
      ),
  });
}

/** The subscribable feed's path: all events, one shop's or one tag's. */
export function feedPath(filters: { tag?: string; shopId?: string } = {}): string {
  return `/api/events/calendar.ics${toSearch({ ...filters })}`;
}
