import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { MouseEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from './button';

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
  /**
   * Each page's address: Previous and Next are then links (they work before any script has run, on a
   * server-rendered page), still turning the page in place once the app runs.
   */
  pageHref?: (page: number) => string;
}

/** Previous / 'Page X of Y' / Next, for lists paginated by the server; buttons 40 px tall for fingers. */
export function Pagination({
  label,
  page,
  pageCount,
  onPageChange,
  busy = false,
  hideSinglePage = false,
  pageHref,
}: PaginationProps) {
  const pages = Math.max(1, pageCount);
  if (hideSinglePage && pages === 1) return null;
  const current = Math.min(Math.max(1, page), pages);
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3 text-sm text-slate-600">
      <PageStep
        to={current - 1}
        disabled={busy || current <= 1}
        onPageChange={onPageChange}
        pageHref={pageHref}
      >
        <ChevronLeft aria-hidden="true" className="size-4" />
        Previous
      </PageStep>
      <p aria-live="polite" className="whitespace-nowrap">
        Page {current} of {pages}
      </p>
      <PageStep
        to={current + 1}
        disabled={busy || current >= pages}
        onPageChange={onPageChange}
        pageHref={pageHref}
      >
        Next
        <ChevronRight aria-hidden="true" className="size-4" />
      </PageStep>
    </nav>
  );
}

interface PageStepProps {
  to: number;
  disabled: boolean;
  onPageChange(page: number): void;
  pageHref?: (page: number) => string;
  children: ReactNode;
}

/** Previous or Next: a link to the page when it has an address and may be taken, else a button. */
function PageStep({ to, disabled, onPageChange, pageHref, children }: PageStepProps) {
  if (pageHref && !disabled) {
    const turn = (event: MouseEvent) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      onPageChange(to);
    };
    return (
      <Link to={pageHref(to)} onClick={turn} className={buttonClass('secondary', 'sm', 'min-h-10')}>
        {children}
      </Link>
    );
  }
  return (
    <Button
      variant="secondary"
      size="sm"
      className="min-h-10"
      onClick={() => onPageChange(to)}
      disabled={disabled}
    >
      {children}
    </Button>
  );
}
