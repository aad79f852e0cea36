// An event as visitors see it: on the events page, a shop's page and the landing page.
import { CalendarDays, MapPin, Store } from 'lucide-react';
import type { EventOccurrence, EventSummary } from '../../../shared/event';
import { TitledCard } from '../../components/ui/titled-card';
import { cn } from '../../lib/cn';
import { formatWhen } from './event-when';

interface EventCardProps {
  event: EventSummary;
  occurrence: EventOccurrence;
  headingLevel?: 'h2' | 'h3';
  /** The organizer's name (not on the shop's own page). */
  showShop?: boolean;
  /** Later dates of the same event this card stands for (the events page's Upcoming). */
  moreDates?: number;
}

export function EventCard({
  event,
  occurrence,
  headingLevel = 'h3',
  showShop = true,
  moreDates = 0,
}: EventCardProps) {
  const cancelled = event.status === 'cancelled';
  return (
    <TitledCard
      heading={headingLevel}
      className={cn('gap-2', cancelled ? 'border-rose-200' : 'border-slate-200')}
      badge={
        cancelled ? (
          <span className="shrink-0 rounded-lg bg-rose-700 px-2.5 py-1 text-sm font-bold text-white">
            Cancelled
          </span>
        ) : null
      }
      title={
        <a
          href={`/events/${event.id}`}
          className={cn(
            'rounded-md hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600',
            cancelled && 'line-through decoration-rose-700',
          )}
        >
          {event.title}
        </a>
      }
    >
      <p className="inline-flex items-start gap-1.5 text-sm text-slate-700">
        <CalendarDays aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          {formatWhen(occurrence)}
          {moreDates > 0 ? (
            <span className="block text-slate-600">
              and {moreDates} more {moreDates === 1 ? 'date' : 'dates'}
            </span>
          ) : null}
        </span>
      </p>
      <p className="inline-flex items-start gap-1.5 text-sm text-slate-700">
        <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          {event.place.name}
          {event.place.floorName && event.place.kind !== 'floor' ? `, ${event.place.floorName}` : ''}
        </span>
      </p>
      {showShop && event.shopName ? (
        <p className="inline-flex items-start gap-1.5 text-sm text-slate-700">
          <Store aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>By {event.shopName}</span>
        </p>
      ) : null}
      {event.tags.length > 0 ? (
        <ul aria-label="Tags" className="mt-auto flex flex-wrap gap-2 pt-1">
          {event.tags.map((tag) => (
            <li key={tag}>
              <a
                href={`/events?tag=${encodeURIComponent(tag)}`}
                className="inline-flex min-h-8 items-center rounded-full bg-slate-100 px-3 text-sm text-slate-700 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                #{tag}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </TitledCard>
  );
}
