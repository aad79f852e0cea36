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
