import type { HoursInterval, OpeningHours, WeeklyHours } from './hours';

/**
 * The zod-free half of shared/hours.ts: names, arithmetic and formatting that shopper screens use with
 * the status computation, without loading the form schemas' chunk (vite.config.ts).
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** "HH:MM" as minutes after midnight. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** An interval's start and end in minutes after its day's midnight; an overnight end is past 1440. */
export function intervalMinutes(interval: { open: string; close: string }): [number, number] {
  const open = minutesOf(interval.open);
  const close = minutesOf(interval.close);
  return [open, close > open ? close : close + 1440];
}

/** Every day closed, no special days: where an editor starts. */
export function emptyWeek(): OpeningHours {
  return {
    weekly: Object.fromEntries(WEEKDAYS.map((day) => [day, []])) as unknown as WeeklyHours,
    special: [],
  };
}

/** The same intervals every day. */
export function everyDay(open: string, close: string): OpeningHours {
  return {
    weekly: Object.fromEntries(WEEKDAYS.map((day) => [day, [{ open, close }]])) as unknown as WeeklyHours,
    special: [],
  };
}

/** "10:00–21:00, 22:00–02:00" or "Closed", as the shop page lists a day. */
export function formatIntervals(intervals: readonly HoursInterval[]): string {
  if (intervals.length === 0) return 'Closed';
  return intervals
    .map(({ open, close }) => (open === '00:00' && close === '24:00' ? 'Open 24 hours' : `${open}–${close}`))
    .join(', ');
}

const SHORT_DAYS: Record<Weekday, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};

/** Runs of weekdays with the same intervals: "Mon–Sat" 10:00–21:00, "Sun" Closed. */
export function weekGroups(weekly: WeeklyHours): { days: string; intervals: string }[] {
  const groups: { first: Weekday; last: Weekday; intervals: string }[] = [];
  for (const day of WEEKDAYS) {
    const intervals = formatIntervals(weekly[day]);
    const last = groups.at(-1);
    if (last && last.intervals === intervals) last.last = day;
    else groups.push({ first: day, last: day, intervals });
  }
  return groups.map(({ first, last, intervals }) => ({
    days: first === last ? SHORT_DAYS[first] : `${SHORT_DAYS[first]}–${SHORT_DAYS[last]}`,
    intervals,
  }));
}

/** The hours as one line of text, for the audit log: "Mon–Sat 10:00–21:00; Sun Closed; 2026-12-25 Closed". */
export function describeHours(hours: OpeningHours | null | undefined): string | null {
  if (!hours) return null;
  const week = weekGroups(hours.weekly).map(({ days, intervals }) => `${days} ${intervals}`);
  const special = hours.special.map(
    (day) => `${day.date} ${formatIntervals(day.intervals)}${day.note ? ` (${day.note})` : ''}`,
  );
  return [...week, ...special].join('; ');
}
