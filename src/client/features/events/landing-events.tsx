// "What's on" on the landing page (issue 35), which has no query client (decision 007): one small read
// after the page shows, nothing in the prerendered page (events change; the landing is built once). The
// next three events, each once: the first cards of the events page's own read (the same cached answer).
import { CalendarDays } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { EventOverview, EventOverviewCard } from '../../../shared/event';
import type { PublicSettings } from '../../../shared/settings';
import { api } from '../../lib/api';
import { formatWhen } from './event-when';

export function LandingEvents() {
  const [cards, setCards] = useState<EventOverviewCard[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    // Only while the public directory is on: /events is one of its pages.
    api<PublicSettings>('/api/settings', { signal: controller.signal })
      .then((settings) =>
        settings.publicDirectory
          ? api<EventOverview>('/api/events/overview', { signal: controller.signal })
          : null,
      )
      .then((page) => setCards(page ? nextThree(page.items) : null))
      .catch(() => {});
    return () => controller.abort();
  }, []);
  if (!cards || cards.length === 0) return null;
  return (
    <section aria-labelledby="events-heading" className="px-4 pb-20 sm:px-6">
      <div className="mx-auto max-w-6xl">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="events-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            What's on
          </h2>
          <a
            href="/events"
            className="inline-flex min-h-10 items-center font-semibold text-indigo-700 hover:underline"
          >
            All events
          </a>
        </div>
        <ul className="mt-8 grid gap-6 sm:grid-cols-3">
          {cards.map(({ event, occurrence }) => (
            <li
              key={`${event.id} ${occurrence.start}`}
              className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <h3 className="text-lg font-semibold">
                <a href={`/events/${event.id}`} className="hover:underline">
                  {event.title}
                </a>
                {event.status === 'cancelled' ? (
                  <span className="ml-2 text-sm font-bold text-rose-700">Cancelled</span>
                ) : null}
              </h3>
              <p className="mt-2 inline-flex items-start gap-1.5 text-sm text-slate-600">
                <CalendarDays aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                {formatWhen(occurrence)}
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** The first three cards of different events (a weekly event may have a card today and one later). */
export function nextThree(cards: readonly EventOverviewCard[]): EventOverviewCard[] {
  const seen = new Set<string>();
  return cards.filter((card) => !seen.has(card.event.id) && seen.add(card.event.id)).slice(0, 3);
}
