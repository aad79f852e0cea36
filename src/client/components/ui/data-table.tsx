import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';

export interface Column<T> {
  header: string;
  cell(row: T): ReactNode;
  /** Classes for both the header and the cells, e.g. 'hidden sm:table-cell' or 'text-right'. */
  className?: string;
  /** Shown to screen readers only (e.g. an 'Actions' column). */
  srOnlyHeader?: boolean;
  /**
   * The column's width (e.g. 'w-28'); columns without one share what is left. Set on every column but
   * the wide text ones: the widths are fixed, so they must fit the column's widest content.
   */
  width?: string;
}

interface DataTableProps<T> {
  /** Names the table for screen readers. */
  caption: string;
  columns: ReadonlyArray<Column<T>>;
  rows: ReadonlyArray<T> | undefined;
  rowKey(row: T): string;
  /** First load: skeleton rows of the same height as real rows. */
  loading: boolean;
  /** Showing the previous page while the next one loads. */
  stale?: boolean;
  /** Shown in the table when there are no rows. */
  empty: ReactNode;
  skeletonRows?: number;
}

/** Row height shared by real and skeleton rows, so nothing moves when the data arrives. */
const ROW_CELL = 'h-16 px-4 py-2 align-middle';

/**
 * A table that scrolls sideways inside its own box on narrow screens (the page itself never does).
 * Its column widths are fixed (table-fixed and each column's `width`), not measured from the rows, so
 * the columns do not move when the data replaces the skeleton rows or a page of longer names arrives.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  stale = false,
  empty,
  skeletonRows = 8,
}: DataTableProps<T>) {
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
      <table
        className={cn('w-full table-fixed text-left text-sm transition-opacity', stale && 'opacity-60')}
        aria-busy={loading || stale}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={cn('px-4 py-3 whitespace-nowrap', column.className, column.width)}
              >
                {column.srOnlyHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {loading ? (
            Array.from({ length: skeletonRows }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have nothing else to key on
              <tr key={index}>
                {columns.map((column) => (
                  <td key={column.header} className={cn(ROW_CELL, column.className)}>
                    <span
                      aria-hidden="true"
                      className="block h-4 w-full max-w-32 animate-pulse rounded bg-slate-200"
                    />
                  </td>
                ))}
              </tr>
            ))
          ) : !rows || rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="h-32 px-4 text-center text-slate-500">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} className="hover:bg-slate-50/70">
                {columns.map((column) => (
                  <td key={column.header} className={cn(ROW_CELL, column.className)}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A row's own button (Add synonym, Delete): its accessible name says which row it acts on. */
export function RowButton({
  label,
  onClick,
  children,
}: {
  label: string;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <Button variant="secondary" size="sm" onClick={onClick} aria-label={label}>
      {children}
    </Button>
  );
}
