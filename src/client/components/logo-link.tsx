import { Link } from 'react-router';
import { cn } from '../lib/cn';

/** Logo image linking home; the name beside it is hidden on small screens. */
export function LogoLink({ className }: { className?: string }) {
  return (
    <Link
      to="/"
      className={cn(
        'inline-flex shrink-0 items-center gap-2 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-indigo-600',
        className,
      )}
    >
      <img src="/logo.svg" alt="Super Mall" width={36} height={36} className="size-9" />
      {/* why: the image already names the link; this is the same words for sighted users */}
      <span aria-hidden="true" className="hidden text-lg font-bold tracking-tight text-slate-900 sm:inline">
        Super Mall
      </span>
    </Link>
  );
}
