import type { ReactNode } from 'react';

/**
 * A card's title row: its heading (`id` names the card, at the page's level) and, on the right, a badge
 * that never wraps under it (an offer's discount, an event's "Cancelled").
 */
export function CardTitle({
  id,
  heading: Heading,
  badge,
  children,
}: {
  id: string;
  heading: 'h2' | 'h3';
  badge?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex items-start justify-between gap-3">
      <Heading id={id} className="min-w-0 text-lg font-semibold wrap-anywhere text-slate-900">
        {children}
      </Heading>
      {badge}
    </div>
  );
}
