// An event's dates and times as people read them: wall-clock times in the mall's zone, as stored and as
// the API sends them (docs/decisions/036), so the page reads the same wherever the visitor is.
import type { EventOccurrence } from '../../../shared/event';

const DAY = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "Sat 21 Mar 2026" for a YYYY-MM-DD date. */
export function formatDay(date: string): string {
  return DAY.format(new Date(`${date}T00:00:00Z`)).replace(',', '');
}

/** "Sat 21 Mar 2026, 10:00–12:00", "Fri 23 Oct 2026, 22:00 – Sat 24 Oct 2026, 01:30", "Sat 28 Mar 2026 (all day)". */
export function formatWhen(
  occurrence: Pick<EventOccurrence, 'startDate' | 'endDate' | 'startTime' | 'endTime'>,
) {
  const { startDate, endDate, startTime, endTime } = occurrence;
  if (!startTime || !endTime) {
    return startDate === endDate
      ? `${formatDay(startDate)} (all day)`
      : `${formatDay(startDate)} – ${formatDay(endDate)} (all day)`;
  }
  return startDate === endDate
    ? `${formatDay(startDate)}, ${startTime}–${endTime}`
    : `${formatDay(startDate)}, ${startTime} – ${formatDay(endDate)}, ${endTime}`;
}

/** The date `days` after a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** 0 Sunday … 6 Saturday. */
export const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** The weekend on or after `today` (Saturday and Sunday; only Sunday when today is Sunday). */
export function weekendOf(today: string): { from: string; to: string } {
  const day = weekdayOf(today);
  if (day === 0) return { from: today, to: today };
  const saturday = addDays(today, 6 - day);
  return { from: saturday, to: addDays(saturday, 1) };
}
