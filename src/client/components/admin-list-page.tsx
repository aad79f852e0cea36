// The one admin list screen (shops, products, offers): header with 'Add New …', search and filters kept
// in the URL, the table with its pager, Edit and Delete per row, and the delete confirmation.
import { type QueryKey, type UseMutationResult, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Resource } from '../../shared/permissions';
import type { Page } from '../../shared/text';
import { usePageTitle } from '../lib/page-title';
import { queryClient } from '../lib/query-client';
import { useCan } from '../lib/use-can';
import { useConfirmedDelete } from '../lib/use-confirmed-delete';
import { type ListParams, readListParams, useListParams } from '../lib/use-list-params';
import { AddLink, AdminListTable, AdminPageHeader, RowActions, usePageInRange } from './admin-page';
import { ConfirmDialog } from './ui/confirm-dialog';
import type { Column } from './ui/data-table';
import { SearchField } from './ui/search-field';

export const ADMIN_PAGE_SIZE = 20;

/** What the list asks the server for: the search, the page and the filters named in `filters`. */
export interface AdminListRequest {
  q: string;
  page: number;
  filter(name: string): string;
}

export interface AdminListConfig<T extends { id: string }> {
  /** 'Manage Shops' and the line under it. */
  title: string;
  description: string;
  /** h2 when the list is a section of a page (a shop manager's products); h1 otherwise. */
  headingLevel?: 'h1' | 'h2';
  /** The permission policy's name for the records. */
  resource: Resource;
  /** '/admin/shops': the list's path; forms at `${path}/new` and `${path}/{id}`. */
  path: string;
  /** 'Add New Shop'. */
  addLabel: string;
  search: { label: string; placeholder: string };
  /** 'shop' / 'shops': the table's caption, its count, its pager and 'No shops found'. */
  singular: string;
  plural: string;
  query(request: AdminListRequest): UseQueryOptions<Page<T>, Error, Page<T>, QueryKey>;
  /** Filters beside the search box (they read and set the URL through `list`). */
  filters?(list: ListParams): ReactNode;
  /** The record's columns; Edit and Delete are added as the last one. */
  columns: Column<T>[];
  /** The record's name, for the buttons' accessible names and the confirmation. */
  name(record: T): string;
  /** The record as the permission policy sees it (the shop it is or belongs to). */
  owner(record: T): { shopId?: string };
  useDelete(): UseMutationResult<unknown, Error, string>;
  /** 'Shop deleted'. */
  deleted: string;
  /** The confirmation's title and text (a hook: it may read what the deletion would take along). */
  useConfirmation(target: T | null): { title: string; description: ReactNode; ready?: boolean };
  /** Import and export buttons (admins), with the list's filters for "Export filtered". */
  transfer?: {
    render(filters: Record<string, string | undefined>): ReactNode;
    filters(request: AdminListRequest): Record<string, string | undefined>;
  };
}

/** The search and page of a list's request, as the API's list queries take them. */
export function adminPage({ q, page }: AdminListRequest) {
  return { q: q || undefined, page, pageSize: ADMIN_PAGE_SIZE };
}

/** Starts a list screen's read from its URL before it renders (lib/lazy-route.tsx). */
export function prefetchAdminList<T extends { id: string }>(
  config: AdminListConfig<T>,
  search: URLSearchParams,
) {
  const { q, page } = readListParams(search);
  void queryClient.prefetchQuery(config.query({ q, page, filter: (name) => search.get(name) ?? '' }));
}

export function AdminListPage<T extends { id: string }>({ config }: { config: AdminListConfig<T> }) {
  const list = useListParams();
  const rows = useQuery(config.query(list));
  usePageInRange(rows.data, list.page, list.setPage);
  const remove = config.useDelete();
  const deleting = useConfirmedDelete<T>(remove, config.deleted);
  const { target } = deleting;
  const confirmation = config.useConfirmation(target);
  const can = useCan();
  const { resource } = config;
  const mayEdit = (row: T) => can('update', resource, config.owner(row));
  const mayDelete = (row: T) => can('delete', resource, config.owner(row));

  const actions: Column<T> = {
    header: 'Actions',
    srOnlyHeader: true,
    className: 'text-right',
    // the Edit and Delete buttons; icons only below sm
    width: 'w-30 sm:w-54',
    cell: (row) => (
      <RowActions
        name={config.name(row)}
        editTo={mayEdit(row) ? `${config.path}/${row.id}` : undefined}
        onDelete={mayDelete(row) ? () => deleting.ask(row) : undefined}
        deleting={remove.isPending && remove.variables === row.id}
      />
    ),
  };
  const mayChangeAny = can('update', resource) || can('delete', resource);

  // a list that is a section of a page (a manager's products) leaves the title to the page
  usePageTitle(config.headingLevel === 'h2' ? undefined : config.title);

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title={config.title}
        description={config.description}
        level={config.headingLevel}
        action={
          <div className="flex flex-wrap gap-2">
            {config.transfer && can('create', 'import')
              ? config.transfer.render(config.transfer.filters(list))
              : null}
            {can('create', resource) ? <AddLink to={`${config.path}/new`}>{config.addLabel}</AddLink> : null}
          </div>
        }
      />
      <div className={config.filters ? 'grid gap-4 sm:grid-cols-2 lg:max-w-3xl' : 'max-w-md'}>
        <SearchField
          label={config.search.label}
          placeholder={config.search.placeholder}
          value={list.text}
          onChange={(event) => list.setText(event.target.value)}
        />
        {config.filters?.(list)}
      </div>

      <AdminListTable
        query={rows}
        columns={mayChangeAny ? [...config.columns, actions] : config.columns}
        page={list.page}
        pageSize={ADMIN_PAGE_SIZE}
        singular={config.singular}
        plural={config.plural}
        onPageChange={list.setPage}
      />

      <ConfirmDialog
        open={target !== null}
        title={confirmation.title}
        description={confirmation.description}
        confirmDisabled={confirmation.ready === false}
        pending={remove.isPending}
        onConfirm={deleting.confirm}
        onCancel={deleting.cancel}
      />
    </div>
  );
}
