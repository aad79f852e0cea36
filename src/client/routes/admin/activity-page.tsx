import { useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import type { ChangeEvent } from 'react';
import { useSearchParams } from 'react-router';
import { AUDIT_ENTITY_TYPES, type AuditEntityType } from '../../../shared/audit';
import { AdminScreen } from '../../components/admin-page';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/form-field';
import { EmptyState } from '../../components/ui/query-states';
import {
  type AuditFilters,
  AuditTrail,
  auditActorsQuery,
  auditQuery,
  ENTITY_LABELS,
} from '../../features/audit';
import { settingsQuery } from '../../features/settings';
import { queryClient } from '../../lib/query-client';

const PAGE_SIZE = 20;
/** A real calendar date (the server refuses "2026-02-31"; the URL may have been edited by hand). */
const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
  new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The filters in the URL (shareable, kept on reload); anything malformed is left out, not sent. */
function readFilters(params: URLSearchParams): AuditFilters & { page: number } {
  const entityType = params.get('entityType') ?? '';
  const actorId = params.get('actorId') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const page = Number(params.get('page'));
  return {
    entityType: (AUDIT_ENTITY_TYPES as readonly string[]).includes(entityType)
      ? (entityType as AuditEntityType)
      : undefined,
    actorId: UUID.test(actorId) ? actorId : undefined,
    from: isDay(from) ? from : undefined,
    to: isDay(to) ? to : undefined,
    page: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: PAGE_SIZE,
  };
}

/** Starts this screen's reads from its URL before it renders (lib/lazy-route.tsx). */
export function prefetch(search: URLSearchParams): void {
  void queryClient.prefetchQuery(auditQuery(readFilters(search)));
}

/** Activity: every change to the mall, newest first, with who made it and what it changed. */
export function ActivityPage() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const entries = useQuery(auditQuery(filters));
  const actors = useQuery(auditActorsQuery);
  const settings = useQuery(settingsQuery);
  const filtered = Boolean(filters.entityType || filters.actorId || filters.from || filters.to);

  /** A filter changed: back to page 1; replace, so choosing does not fill the history. */
  function setFilter(name: 'entityType' | 'actorId' | 'from' | 'to', value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete('page');
    setParams(next, { replace: true });
  }

  /** The From and To fields: a day of the range, kept in the URL. */
  const dayField = (name: 'from' | 'to', label: string) => ({
    label,
    type: 'date',
    value: filters[name] ?? '',
    onChange: (event: ChangeEvent<HTMLInputElement>) => setFilter(name, event.target.value),
  });

  function setPage(page: number) {
    const next = new URLSearchParams(params);
    if (page > 1) next.set('page', String(page));
    else next.delete('page');
    setParams(next);
  }

  return (
    <AdminScreen
      title="Activity"
      description="Every change to the mall, newest first: who made it, when, and what it changed."
    >
      <fieldset className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4">
        <legend className="sr-only">Filter the activity</legend>
        <SelectField
          label="Kind"
          value={filters.entityType ?? ''}
          onChange={(event) => setFilter('entityType', event.target.value)}
        >
          <option value="">All kinds</option>
          {AUDIT_ENTITY_TYPES.map((type) => (
            <option key={type} value={type}>
              {ENTITY_LABELS[type]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Person"
          value={filters.actorId ?? ''}
          onChange={(event) => setFilter('actorId', event.target.value)}
          disabled={!actors.isSuccess}
          hint={actors.isError ? 'The list of people could not be loaded.' : undefined}
        >
          <option value="">Everyone</option>
          {actors.data?.map((actor) => (
            <option key={actor.id} value={actor.id}>
              {actor.email}
            </option>
          ))}
        </SelectField>
        <TextField {...dayField('from', 'From')} max={filters.to} />
        <TextField {...dayField('to', 'To')} min={filters.from} />
      </fieldset>

      <AuditTrail
        entries={entries}
        page={filters.page}
        pageSize={PAGE_SIZE}
        onPageChange={setPage}
        loadingLabel="Loading activity"
        pagesLabel="Activity pages"
        timeZone={settings.data?.timeZone}
        summary={(page) => (
          <p className="text-sm text-slate-600" aria-live="polite">
            {page.total} {page.total === 1 ? 'change' : 'changes'}
            {settings.data ? ` · times in the mall's time zone (${settings.data.timeZone})` : ''}
          </p>
        )}
        empty={
          entries.data && entries.data.total > 0 ? (
            <EmptyState
              title="This page is past the last one."
              icon={<History aria-hidden="true" className="size-6" />}
            >
              <Button variant="secondary" onClick={() => setPage(1)}>
                Go to the newest changes
              </Button>
            </EmptyState>
          ) : (
            <EmptyState
              title={filtered ? 'No activity matches these filters.' : 'No activity yet.'}
              icon={<History aria-hidden="true" className="size-6" />}
            >
              {filtered ? (
                <Button
                  variant="secondary"
                  onClick={() => setParams(new URLSearchParams(), { replace: true })}
                >
                  Clear filters
                </Button>
              ) : (
                <p>Changes to shops, products, offers, categories and floors will appear here.</p>
              )}
            </EmptyState>
          )
        }
      />
    </AdminScreen>
  );
}
