// Pieces shared by the admin area's list and form screens.
import type { UseQueryResult } from '@tanstack/react-query';
import { ArrowLeft, LoaderCircle, Pencil, Plus, SearchX, Trash2 } from 'lucide-react';
import { type ReactNode, type Ref, useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { errorMessage } from '../lib/api';
import { capitalized } from '../lib/capitalized';
import { cn } from '../lib/cn';
import { usePageTitle } from '../lib/page-title';
import { buttonClass } from './ui/button';
import { type Column, DataTable } from './ui/data-table';
import { Pagination } from './ui/pagination';
import { ErrorState } from './ui/query-states';

interface AdminPageHeaderProps {
  title: string;
  description?: string;
  action?: ReactNode;
  /** h2 for a section of a page (a shop manager's products), h1 for a page's own title. */
  level?: 'h1' | 'h2';
}

export function AdminPageHeader({ title, description, action, level: Heading = 'h1' }: AdminPageHeaderProps) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <Heading
          className={
            Heading === 'h1'
              ? 'text-2xl font-bold tracking-tight text-slate-900'
              : 'text-xl font-bold tracking-tight text-slate-900'
          }
        >
          {title}
        </Heading>
        {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      </div>
      {action}
    </div>
  );
}

/**
 * A screen of the admin area: one `title` for the document's title and the h1, the line under it, then
 * the screen's content.
 */
export function AdminScreen({
  title,
  description,
  className,
  children,
}: {
  title: string;
  description: string;
  /** Added to the screen's own classes (e.g. a narrower column). */
  className?: string;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <div className={cn('space-y-6', className)}>
      <AdminPageHeader title={title} description={description} />
      {children}
    </div>
  );
}

/** What a list screen hands its form links, so Cancel and Save return to the same page and filters. */
export interface ListReturnState {
  listSearch: string;
}

/** The location state for a link from a list to one of its forms. */
export function useListReturnState(): ListReturnState {
  return { listSearch: useLocation().search };
}

/** The list to return to from a form: with the search and page it was opened from, when known. */
export function useListPath(listPath: string): string {
  const state: unknown = useLocation().state;
  const search =
    typeof state === 'object' && state !== null && 'listSearch' in state ? state.listSearch : undefined;
  return typeof search === 'string' && search.startsWith('?') ? `${listPath}${search}` : listPath;
}

/** An edit page for a record that does not exist: 'Shop not found' and a link back to the list. */
export function RecordNotFound({ message, to, linkText }: { message: string; to: string; linkText: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
      <SearchX aria-hidden="true" className="mx-auto size-10 text-slate-400" />
      <h1 className="mt-4 text-xl font-semibold text-slate-900">{message}</h1>
      <Link to={to} className={buttonClass('secondary', 'md', 'mt-6')}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        {linkText}
      </Link>
    </div>
  );
}

/** A form's place while its record and choices load: the same boxes, pulsing. */
export function FormSkeleton({ fields }: { fields: number }) {
  return (
    <div
      role="status"
      aria-busy="true"
      aria-label="Loading"
      className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      {Array.from({ length: fields }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on
        <div key={index} className="space-y-1.5">
          <div className="h-5 w-28 animate-pulse rounded bg-slate-200" />
          <div className="h-10 animate-pulse rounded-lg bg-slate-100" />
        </div>
      ))}
    </div>
  );
}

/** The card that holds an admin form. */
export const formCardClass = 'space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm';

interface RowActionsProps {
  /** The record's name, for the buttons' accessible names ('Edit Zara'). */
  name: string;
  /** Where Edit goes; no Edit without it or onEdit (the person may not change the record). */
  editTo?: string;
  /** Edit as a button that opens the record's form in place. */
  onEdit?(): void;
  editRef?: Ref<HTMLButtonElement>;
  /** No Delete button without it. */
  onDelete?(): void;
  deleting?: boolean;
  /** The row's other actions, before Edit. */
  children?: ReactNode;
}

/** A row's Edit (a link or a button) and Delete, after its other actions. */
export function RowActions({
  name,
  editTo,
  onEdit,
  editRef,
  onDelete,
  deleting = false,
  children,
}: RowActionsProps) {
  return (
    <div className="flex items-center justify-end gap-2">
      {children}
      {editTo || onEdit ? <EditAction name={name} to={editTo} onClick={onEdit} ref={editRef} /> : null}
      {onDelete ? <DeleteAction name={name} onClick={onDelete} disabled={deleting} /> : null}
    </div>
  );
}

/** A record's Edit: a link to its form (`to`), or a button that opens it in place (`onClick`). */
function EditAction({
  name,
  to,
  onClick,
  ref,
}: {
  name: string;
  to?: string;
  onClick?(): void;
  ref?: Ref<HTMLButtonElement>;
}) {
  const listReturn = useListReturnState();
  const className = buttonClass('secondary', 'sm', 'max-sm:p-2.5');
  const content = (
    <>
      <Pencil aria-hidden="true" className="size-4" />
      {/* why: icons only on phones, where the name column needs the room; the words stay for screen readers */}
      <span className="max-sm:sr-only">Edit</span>
      <span className="sr-only"> {name}</span>
    </>
  );
  return to ? (
    <Link to={to} state={listReturn} className={className}>
      {content}
    </Link>
  ) : (
    <button ref={ref} type="button" onClick={onClick} className={className}>
      {content}
    </button>
  );
}

/** A record's Delete button (red; the words hidden on phones, as Edit's). */
function DeleteAction({
  name,
  onClick,
  disabled = false,
}: {
  name: string;
  onClick(): void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className={buttonClass(
        'secondary',
        'sm',
        'text-red-600 hover:bg-red-50 hover:text-red-700 max-sm:p-2.5',
      )}
    >
      <Trash2 aria-hidden="true" className="size-4" />
      <span className="max-sm:sr-only">Delete</span>
      <span className="sr-only"> {name}</span>
    </button>
  );
}

/** The list's 'Add New …' link. */
export function AddLink({ to, children }: { to: string; children: ReactNode }) {
  const listReturn = useListReturnState();
  return (
    <Link to={to} state={listReturn} className={buttonClass('primary')}>
      <Plus aria-hidden="true" className="size-4" />
      {children}
    </Link>
  );
}

/** A page number past the end (the last rows were deleted, or an old link): go to the last page. */
export function usePageInRange(
  data: { total: number; pageSize: number; items: unknown[] } | undefined,
  page: number,
  setPage: (page: number) => void,
): void {
  const last = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const outOfRange = data !== undefined && data.items.length === 0 && page > last;
  useEffect(() => {
    if (outOfRange) setPage(last);
  }, [outOfRange, last, setPage]);
}

/** A form's Cancel (back to the list) and submit button, disabled while saving. */
export function FormButtons({
  listPath,
  submitting,
  label,
}: {
  listPath: string;
  submitting: boolean;
  label: string;
}) {
  return (
    <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-end">
      <Link to={listPath} className={buttonClass('secondary')}>
        Cancel
      </Link>
      <button type="submit" disabled={submitting} className={buttonClass('primary')}>
        {submitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
        {label}
      </button>
    </div>
  );
}

interface ListFooterProps {
  total: number;
  /** `total` is a search's count cap: there are more (shown as "1000+"). */
  totalCapped?: boolean;
  page: number;
  pageSize: number;
  /** 'shop' / 'shops'. */
  singular: string;
  plural: string;
  onPageChange(page: number): void;
  busy: boolean;
}

/** '24 shops' and Previous / 'Page 1 of 2' / Next. */
function ListFooter({
  total,
  totalCapped,
  page,
  pageSize,
  singular,
  plural,
  onPageChange,
  busy,
}: ListFooterProps) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600">
        <span className="font-semibold text-slate-900">
          {total}
          {totalCapped ? '+' : ''}
        </span>{' '}
        {total === 1 && !totalCapped ? singular : plural}
        {totalCapped ? <span> — refine the search to see them all</span> : null}
      </p>
      <Pagination
        label={`${capitalized(singular)} pages`}
        page={page}
        pageCount={Math.max(1, Math.ceil(total / pageSize))}
        onPageChange={(next) => {
          onPageChange(next);
          // the footer sits below the list; the next page is read from its top.
          window.scrollTo(0, 0);
        }}
        busy={busy}
      />
    </div>
  );
}

interface AdminListTableProps<T extends { id: string }> {
  /** The page being shown (react-query keeps the previous one as placeholder while the next loads). */
  query: UseQueryResult<{ items: T[]; total: number; totalCapped?: boolean }>;
  columns: Column<T>[];
  page: number;
  pageSize: number;
  /** 'shop' / 'shops': the table's caption ('Shops'), the count, the pager's name and 'No shops found'. */
  singular: string;
  plural: string;
  onPageChange(page: number): void;
}

/**
 * An admin list's table with its loading rows, empty state, count and pager — or the error with
 * Try again when the first page could not be read (a failed refetch keeps the rows on screen).
 */
export function AdminListTable<T extends { id: string }>({
  query,
  columns,
  page,
  pageSize,
  singular,
  plural,
  onPageChange,
}: AdminListTableProps<T>) {
  if (query.isError && !query.data) {
    return (
      <ErrorState
        message={errorMessage(query.error)}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  return (
    <div className="space-y-4">
      <DataTable
        caption={capitalized(plural)}
        columns={columns}
        rows={query.data?.items}
        rowKey={(row) => row.id}
        loading={query.isPending}
        stale={query.isPlaceholderData}
        skeletonRows={pageSize}
        empty={`No ${plural} found`}
      />
      {query.data ? (
        <ListFooter
          total={query.data.total}
          totalCapped={query.data.totalCapped}
          page={page}
          pageSize={pageSize}
          singular={singular}
          plural={plural}
          onPageChange={onPageChange}
          busy={query.isPlaceholderData}
        />
      ) : null}
    </div>
  );
}
