import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { AuditPage } from '../../../shared/audit';
import { Pagination } from '../../components/ui/pagination';
import { QueryView, SkeletonCards } from '../../components/ui/query-states';
import { AuditEntryCard } from './audit-entry-card';

interface AuditTrailProps {
  /** The page of the log being read. */
  entries: UseQueryResult<AuditPage>;
  page: number;
  pageSize: number;
  onPageChange(page: number): void;
  /** Names the wait for screen readers ('Loading activity') and the pager's landmark ('Activity pages'). */
  loadingLabel: string;
  pagesLabel: string;
  /** Shown when the page has no entries. */
  empty: ReactNode;
  /** Above the entries: e.g. how many there are. */
  summary?(page: AuditPage): ReactNode;
  timeZone?: string;
  /** Links to the admin area's forms; off where the reader is not an admin. */
  linkRecords?: boolean;
}

/** A page of the audit log, newest first, with its pager: the Activity screen, a shop's history. */
export function AuditTrail({
  entries,
  page,
  pageSize,
  onPageChange,
  loadingLabel,
  pagesLabel,
  empty,
  summary,
  timeZone,
  linkRecords,
}: AuditTrailProps) {
  return (
    <QueryView
      query={entries}
      loading={<SkeletonCards count={3} className="space-y-3" label={loadingLabel} card="h-20 rounded-xl" />}
      isEmpty={(data) => data.items.length === 0}
      empty={empty}
    >
      {(data) => (
        <>
          {summary?.(data)}
          <ol aria-label="Changes, newest first" aria-busy={entries.isFetching} className="space-y-3">
            {data.items.map((entry) => (
              <AuditEntryCard key={entry.id} entry={entry} timeZone={timeZone} linkRecords={linkRecords} />
            ))}
          </ol>
          <Pagination
            label={pagesLabel}
            page={page}
            pageCount={Math.ceil(data.total / pageSize)}
            onPageChange={onPageChange}
            busy={entries.isFetching}
          />
        </>
      )}
    </QueryView>
  );
}
