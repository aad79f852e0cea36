import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';

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
