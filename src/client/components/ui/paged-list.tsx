import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Pagination } from './pagination';

interface PagedListProps<T extends { id: string }> {
  /** Names the list for screen readers, when the heading above it does not. */
  label?: string;
  /** The list's layout, e.g. a grid. */
  className: string;
  items: readonly T[];
  render(item: T): ReactNode;
  /** The previous page, shown dimmed while the next one loads. */
  stale: boolean;
  /** The pager under the list (none for a single page). */
  pagination: {
    label: string;
    page: number;
    pageCount: number;
    onPageChange(page: number): void;
    pageHref?: (page: number) => string;
  };
}

/** A shopper's page of cards and the pager under it. */
export function PagedList<T extends { id: string }>({
  label,
  className,
  items,
  render,
  stale,
  pagination,
}: PagedListProps<T>) {
  return (
    <>
      <ul aria-label={label} className={cn(className, 'transition-opacity', stale && 'opacity-60')}>
        {items.map((item) => (
          <li key={item.id}>{render(item)}</li>
        ))}
      </ul>
      <Pagination {...pagination} busy={stale} hideSinglePage />
    </>
  );
}
