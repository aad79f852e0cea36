import { cn } from '../../lib/cn';

/** A grey placeholder block of a fixed size, shown where content will appear (no layout shift). */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn('block animate-pulse rounded-md bg-slate-200', className)} />;
}
