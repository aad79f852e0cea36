import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { QueryView, SkeletonCards } from '../../components/ui/query-states';

/** A list of events as the office's and a shop's screens show it: placeholders, `empty`, or the list. */
export function EventsView<T>({
  query,
  placeholders: [count, card],
  empty,
  children,
}: {
  query: UseQueryResult<{ items: T[] }>;
  /** While it loads: how many placeholder cards, and their size. */
  placeholders: [number, string];
  empty: ReactNode;
  children: (event: T) => ReactNode;
}) {
  return (
    <QueryView
      query={query}
      loading={<SkeletonCards count={count} className="space-y-3" label="Loading events" card={card} />}
      isEmpty={(data) => data.items.length === 0}
      empty={empty}
    >
      {(data) => (
        <ul aria-label="Events" className="space-y-3">
          {data.items.map(children)}
        </ul>
      )}
    </QueryView>
  );
}
