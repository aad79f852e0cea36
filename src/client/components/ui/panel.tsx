import { type ReactNode, useId } from 'react';
import { cn } from '../../lib/cn';

interface PanelProps {
  /** The h2 that names the panel's region. */
  title: string;
  /** Named for screen readers only, where what the panel holds shows what it is (an upload's label). */
  hideTitle?: boolean;
  /** A line under the title. */
  description?: ReactNode;
  /** Added to the card's own classes (e.g. more padding on wider screens). */
  className?: string;
  children: ReactNode;
}

/** A white card that is a region of its page, named by its heading: a part of a form page or a setting. */
export function Panel({ title, hideTitle = false, description, className, children }: PanelProps) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className={cn('rounded-2xl border border-slate-200 bg-white p-5 shadow-sm', className)}
    >
      <h2 id={id} className={hideTitle ? 'sr-only' : 'text-lg font-semibold text-slate-900'}>
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      {children}
    </section>
  );
}

interface ListPanelProps {
  /** The h2 that names the panel's region. */
  title: string;
  description?: ReactNode;
  /** Under the title, in the header: e.g. the form that adds to the list. */
  header?: ReactNode;
  /** The list, flush to the card's edges (rows bring their own padding). */
  children: ReactNode;
}

/** A card that is a region of its page: a header (title, a line, an Add form) over a list of rows. */
export function ListPanel({ title, description, header, children }: ListPanelProps) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-2xl border border-slate-200 bg-white shadow-sm">
      <div className="border-b border-slate-200 p-5">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
        {header}
      </div>
      {children}
    </section>
  );
}

interface PageSectionProps {
  /** The h2 that names the section. */
  title: ReactNode;
  /** Beside the title, at its right where there is room (e.g. a "See all" link). */
  actions?: ReactNode;
  /** The section's own classes: the space between its parts. */
  className?: string;
  children: ReactNode;
}

/** A part of a page under its h2 (no card): a shop page's offers, the events page's Today. */
export function PageSection({ title, actions, className = 'space-y-4', children }: PageSectionProps) {
  const id = useId();
  const heading = (
    <h2 id={id} className="text-xl font-bold tracking-tight text-slate-900">
      {title}
    </h2>
  );
  return (
    <section aria-labelledby={id} className={className}>
      {actions ? (
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
          {heading}
          {actions}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
