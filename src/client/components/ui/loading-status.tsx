import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/cn';

/** An inline spinner announced to assistive tech by `label` ("Loading shops"). */
export function LoadingStatus({ label, className }: { label: string; className?: string }) {
  return (
    <span role="status" aria-label={label} className={cn('inline-flex text-indigo-600', className)}>
      <LoaderCircle aria-hidden="true" className="size-5 animate-spin" />
    </span>
  );
}
