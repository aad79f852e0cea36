import type { UseQueryResult } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { Skeleton } from './skeleton';

/** A failed load: the message and a Try again button that refetches. */
export function ErrorState({
  message,
  onRetry,
  retrying = false,
  className,
}: {
  message: string;
  onRetry: () => void;
  retrying?: boolean;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={cn('rounded-2xl border border-red-200 bg-red-50 p-6 text-red-700', className)}
    >
      <p className="font-medium">{message}</p>
      <Button variant="secondary" className="mt-4 min-h-10" onClick={onRetry} disabled={retrying}>
        <RefreshCw aria-hidden="true" className={cn('size-4', retrying && 'animate-spin')} />
        Try again
      </Button>
    </div>
  );
}

/** Nothing to show: a short title, an optional line of help and an optional action. */
export function EmptyState({
  title,
  icon,
  children,
  className,
}: {
  title: string;
  icon?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center',
        className,
      )}
    >
      {icon ? (
        <div className="mb-3 flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500">
          {icon}
        </div>
      ) : null}
      <p className="font-medium text-slate-900">{title}</p>
      {children ? (
        <div className="mt-4 flex flex-col items-center gap-3 text-sm text-slate-600">{children}</div>
      ) : null}
    </div>
  );
}

interface QueryViewProps<T> {
  /** The read whose data the content shows. */
  query: UseQueryResult<T>;
  /**
   * Other reads the screen needs first (a filter's choices): when one fails, its error shows instead,
   * before the main read's.
   */
  needs?: ReadonlyArray<UseQueryResult<unknown>>;
  /** While there is no data yet: placeholders of the content's size. */
  loading: ReactNode;
  /** Shown instead of the content when `isEmpty` says the data has nothing to show. */
  empty?: ReactNode;
  isEmpty?(data: T): boolean;
  /** Classes of a box around the error (its place in the layout), when it needs one. */
  errorClassName?: string;
  children(data: T): ReactNode;
}

/**
 * The ladder every screen that reads climbs: a failed read (the message and Try again), then
 * placeholders while loading, then the empty state, then the content.
 */
export function QueryView<T>({
  query,
  needs = [],
  loading,
  empty,
  isEmpty,
  errorClassName,
  children,
}: QueryViewProps<T>) {
  const failed = [...needs, query].find((read) => read.isError);
  if (failed) {
    const error = (
      <ErrorState
        message={errorMessage(failed.error)}
        onRetry={() => failed.refetch()}
        retrying={failed.isFetching}
      />
    );
    return errorClassName ? <div className={errorClassName}>{error}</div> : error;
  }
  if (query.data === undefined) return loading;
  if (empty !== undefined && isEmpty?.(query.data)) return empty;
  return children(query.data);
}

/**
 * `count` placeholders in the list's own layout (`className`), while its items load; `label` names the
 * wait for screen readers ('Loading offers').
 */
export function SkeletonList({
  count,
  className,
  label,
  children,
}: {
  count: number;
  className: string;
  label?: string;
  children: ReactNode;
}) {
  return (
    <ul aria-busy="true" className={className}>
      {label ? (
        <li className="sr-only" role="status">
          {label}
        </li>
      ) : null}
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on
        <li key={index} aria-hidden="true">
          {children}
        </li>
      ))}
    </ul>
  );
}

/**
 * A SkeletonList of plain grey cards, all of one height and corner (`card`: 'h-28 rounded-2xl'), for a
 * list of cards while it loads.
 */
export function SkeletonCards({
  card,
  ...list
}: {
  count: number;
  className: string;
  label?: string;
  card: string;
}) {
  return (
    <SkeletonList {...list}>
      <Skeleton className={cn('w-full', card)} />
    </SkeletonList>
  );
}

/** One grey block the size of what is loading (`className`: its size and corners), named for screen readers. */
export function SkeletonBlock({ className, label }: { className: string; label: string }) {
  return (
    <div role="status" className={cn('w-full animate-pulse bg-slate-100', className)}>
      <span className="sr-only">{label}</span>
    </div>
  );
}
