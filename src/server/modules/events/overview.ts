// The events page's cards (issue 35): today, this weekend and later, grouped here rather than in the
// browser so the page carries only the cards it shows (docs/decisions/040).
import type { EventListItem, EventOverviewGroup } from '../../../shared/event';
import { addDays } from '../../../shared/hours-status';

/** 0 Sunday … 6 Saturday. */
const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/**
 * The weekend after `today`: Saturday and Sunday; on a Saturday, only the Sunday (Saturday's events
 * are today's); on a Sunday, none (the weekend is today).
 */
export function weekendAfter(today: string): { from: string; to: string } | null {
  const day = weekdayOf(today);
  if (day === 0) return null;
  if (day === 6) return { from: addDays(today, 1), to: addDays(today, 1) };
  const saturday = addDays(today, 6 - day);
  return { from: saturday, to: addDays(saturday, 1) };
}

export interface OverviewCard<T extends EventListItem = EventListItem> {
  group: EventOverviewGroup;
  item: T;
  /** Later dates of the same event in the same group. */
  moreDates: number;
}

/**
 * `items` (in date order) as the page's cards: an occurrence that runs today is in Today; else one that
 * overlaps the weekend after today, in This weekend; else in Upcoming. Within a group each event is one
 * card, at its first date there, counting the others (a weekly market is one card, not eight).
 */
export function overviewCards<T extends EventListItem>(
  items: readonly T[],
  today: string,
): OverviewCard<T>[] {
  const weekend = weekendAfter(today);
  const groups: Record<EventOverviewGroup, OverviewCard<T>[]> = { today: [], weekend: [], upcoming: [] };
  const seen = new Map<string, OverviewCard<T>>();
  for (const item of items) {
    const { startDate, endDate } = item.occurrence;
    const group: EventOverviewGroup =
      startDate <= today && endDate >= today
        ? 'today'
        : weekend && startDate <= weekend.to && endDate >= weekend.from
          ? 'weekend'
          : 'upcoming';
    const key = `${group} ${item.event.id}`;
    const first = seen.get(key);
    if (first) first.moreDates += 1;
    else {
      const card = { group, item, moreDates: 0 };
      seen.set(key, card);
      groups[group].push(card);
    }
  }
  return [...groups.today, ...groups.weekend, ...groups.upcoming];
}
