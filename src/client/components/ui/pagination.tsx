import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';

interface PaginationProps {
  /** Names the navigation landmark, e.g. 'Shop pages'. */
  label: string;
  /** 1-based. */
  page: number;
  pageCount: number;
  onPageChange(page: number): void;
  /** The next page is loading: the buttons wait. */
  busy?: boolean;
  /** Show nothing for a single page (the shopper lists); admin lists always say 'Page 1 of 1'. */
  hideSinglePage?: boolean;
}

/** Previous / 'Page X of Y' / Next, for lists paginated by the server; buttons 40 px tall for fingers. */
export function Pagination({
  label,
  page,
  pageCount,
  onPageChange,
  busy = false,
  hideSinglePage = false,
}: PaginationProps) {
  const pages = Math.max(1, pageCount);
  if (hideSinglePage && pages === 1) return null;
  const current = Math.min(Math.max(1, page), pages);
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3 text-sm text-slate-600">
      <Button
        variant="secondary"
        size="sm"
        className="min-h-10"
        onClick={() => onPageChange(current - 1)}
        disabled={busy || current <= 1}
      >
        <ChevronLeft aria-hidden="true" className="size-4" />
        Previous
      </Button>
      <p aria-live="polite" className="whitespace-nowrap">
        Page {current} of {pages}
      </p>
      <Button
        variant="secondary"
        size="sm"
        className="min-h-10"
        onClick={() => onPageChange(current + 1)}
        disabled={busy || current >= pages}
      >
        Next
        <ChevronRight aria-hidden="true" className="size-4" />
      </Button>
    </nav>
  );
}
