import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AuditEntry, AuditPage } from '../../../shared/audit';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { ChangeTable } from '../../components/ui/change-table';
import { Pagination } from '../../components/ui/pagination';
import { QueryView, SkeletonCards } from '../../components/ui/query-states';
import { describeAction, entityPath, fieldLabel, formatValue, formatWhen } from './format';

const TONES: Record<AuditEntry['action'], BadgeTone> = {
  create: 'green',
  update: 'indigo',
  delete: 'rose',
  use: 'amber',
  prune: 'neutral',
  submit: 'amber',
  approve: 'green',
  send_back: 'rose',
};

/** Lists of records that went with a change (a shop delete's products and offers), by name. */
function DetailList({ label, items }: { label: string; items: unknown }) {
  if (!Array.isArray(items) || items.length === 0) return null;
  const names = items.map((item) =>
    typeof item === 'object' && item !== null
      ? String(
          (item as { name?: unknown; title?: unknown }).name ?? (item as { title?: unknown }).title ?? '',
        )
      : String(item),
  );
  return (
    <div>
      <p className="font-medium text-slate-700">
        {label} ({names.length})
      </p>
      <p className="mt-0.5 wrap-anywhere text-slate-600">{names.join(', ')}</p>
    </div>
  );
}

/** What opening an entry shows: the changes of an edit, the values of what was made or deleted. */
function summaryText(action: AuditEntry['action'], fieldCount: number): string {
  if (action === 'create' && fieldCount > 0) return 'Show what was set';
  if (action === 'delete' && fieldCount > 0) return 'Show what was deleted';
  if (fieldCount === 0) return 'Show details';
  return `Show ${fieldCount === 1 ? 'the change' : `${fieldCount} changes`}`;
}

/** One change: when, who, what; opens to show each changed field before and after. */
export function AuditEntryCard({
  entry,
  timeZone,
  linkRecords = true,
}: {
  entry: AuditEntry;
  timeZone?: string;
  /** Links to the admin area's forms; off where the reader is not an admin (a shop manager's history). */
  linkRecords?: boolean;
}) {
  const path = linkRecords ? entityPath(entry) : null;
  const fields = Object.entries(entry.changes);
  const detail = entry.detail ?? {};
  const plainDetail = Object.entries(detail).filter(([, value]) => !Array.isArray(value));
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge tone={TONES[entry.action]}>{describeAction(entry)}</Badge>
        {path ? (
          <Link
            to={path}
            className="min-w-0 wrap-anywhere font-semibold text-indigo-700 underline-offset-2 hover:underline focus-visible:rounded focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            {entry.entityName}
          </Link>
        ) : (
          <span className="min-w-0 wrap-anywhere font-semibold text-slate-900">{entry.entityName}</span>
        )}
        {!entry.entityExists && entry.entityId && entry.action !== 'delete' ? (
          <span className="text-xs text-slate-600">(no longer exists)</span>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-slate-600">
        <time dateTime={entry.at}>{formatWhen(entry.at, timeZone)}</time> · by{' '}
        <span className="wrap-anywhere text-slate-800">{entry.actorEmail}</span>
      </p>
      {fields.length > 0 || Object.keys(detail).length > 0 ? (
        <details className="group mt-3 text-sm">
          <summary className="cursor-pointer rounded font-medium text-indigo-700 hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600">
            {summaryText(entry.action, fields.length)}
          </summary>
          <div className="mt-3 space-y-3">
            {fields.length > 0 ? (
              <ChangeTable
                caption="Values before and after"
                headings={['Before', 'After']}
                rows={fields.map(([field, change]) => ({
                  key: field,
                  label: fieldLabel(field),
                  before: formatValue(change.before),
                  after: formatValue(change.after),
                }))}
              />
            ) : null}
            <DetailList label="Products deleted with it" items={detail.products} />
            <DetailList label="Offers deleted with it" items={detail.offers} />
            <DetailList label="Products no longer on this offer" items={detail.productsNoLongerOnOffer} />
            {plainDetail.length > 0 ? (
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                {plainDetail.map(([key, value]) => (
                  <div key={key} className="contents">
                    <dt className="font-medium text-slate-700">{fieldLabel(key)}</dt>
                    <dd className="wrap-anywhere text-slate-600">{formatValue(value)}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </div>
        </details>
      ) : null}
    </li>
  );
}

// The trail lives in this file: a file of its own would land in the ui chunk and import this one, which
// vite.config.ts puts in the user chunk (a -card.tsx), and the chunks may not import each other in a cycle.

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
