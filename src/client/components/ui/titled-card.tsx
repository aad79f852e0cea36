import { type ReactNode, useId } from 'react';
import { cn } from '../../lib/cn';

interface TitledCardProps {
  /** The title's heading level: the page's next one. */
  heading: 'h2' | 'h3';
  /** The heading's content; it names the card for screen readers. */
  title: ReactNode;
  /** On the right of the title, never wrapping under it (an offer's discount, an event's "Cancelled"). */
  badge?: ReactNode;
  /** Added to the card's own classes: its border colour, spacing and height. */
  className?: string;
  children: ReactNode;
}

/** A white card named by its title row: an offer's, an event's. */
export function TitledCard({ heading: Heading, title, badge, className, children }: TitledCardProps) {
  const id = useId();
  return (
    <article
      aria-labelledby={id}
      className={cn('flex h-full flex-col rounded-2xl border bg-white p-5 shadow-sm', className)}
    >
      <div className="flex items-start justify-between gap-3">
        <Heading id={id} className="min-w-0 text-lg font-semibold wrap-anywhere text-slate-900">
          {title}
        </Heading>
        {badge}
      </div>
      {children}
    </article>
  );
}
