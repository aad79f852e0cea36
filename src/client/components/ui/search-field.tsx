import { Search } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';
import { FieldShell } from './form-field';

type SearchFieldProps = Omit<ComponentProps<'input'>, 'type'> & { label: string };

/** The magnifier at a search box's left edge, inside a `relative` box; the input leaves it room (pl-9). */
export function SearchIcon() {
  return (
    <Search
      aria-hidden="true"
      className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
    />
  );
}

/** A labelled search box with a magnifier icon. */
export function SearchField({ label, className, ...inputProps }: SearchFieldProps) {
  return (
    <FieldShell label={label}>
      {({ id }) => (
        <div className="relative">
          <SearchIcon />
          <input
            id={id}
            type="search"
            autoComplete="off"
            className={cn(
              'block w-full rounded-lg border border-slate-300 bg-white py-2.5 pr-3 pl-9 text-sm text-slate-900 shadow-sm',
              'outline-none transition placeholder:text-slate-400 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30',
              className,
            )}
            {...inputProps}
          />
        </div>
      )}
    </FieldShell>
  );
}
