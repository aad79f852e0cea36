import type { HoursInterval, OpeningHours, SpecialDay } from './hours';
import { intervalMinutes, WEEKDAYS } from './hours-core';

/**
 * "Open now · closes 21:00": the one computation of opening status, used by the server (the Open-now
 * filter) and the browser (cards and the shop page, recomputed on a timer). Pure: the instant, the hours
 * and the mall's IANA time zone are arguments; the zone's rules come from Intl (no date library).
 *
 * How: each day's wall-clock intervals (special day, else weekday) become instants in the zone, so a
 * 23- or 25-hour day and an interval past midnight are just ranges; ranges are merged, and a shop's are
 * intersected with the mall's (the mall wins: closed doors close every shop behind them).
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** A span of time [start, end) in epoch milliseconds. */
export type Range = readonly [start: number, end: number];

// ---- time-zone arithmetic (Intl) ----

const partFormatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = partFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock in `timeZone` at `instant`: its date (YYYY-MM-DD) and minutes after midnight. */
export function wallClock(
  instant: number,
  timeZone: string,
): { date: string; minutes: number; utcWall: number } {
  const parts: Record<string, string> = {};
  for (const part of partsFormatter(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  const hour = Number(parts.hour) % 24;
  const minute = Number(parts.minute);
  const second = Number(parts.second);
  const date = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return {
    date,
    minutes: hour * 60 + minute,
    utcWall: Date.UTC(year, month - 1, day, hour, minute, second),
  };
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in ms. */
function zoneOffset(instant: number, timeZone: string): number {
  const secondStart = Math.floor(instant / 1000) * 1000;
  return wallClock(secondStart, timeZone).utcWall - secondStart;
}

const instantMemo = new Map<string, number>();

/**
 * The instant at which the wall clock in `timeZone` reads `minutes` after midnight of `date` (minutes may
 * pass 1440: the next day). As Temporal's "compatible" rule: a time skipped by a daylight-saving change
 * (01:30 on a spring-forward night) is moved on by the jump (02:30); a time that happens twice (01:30 on
 * a fall-back night) means its first occurrence.
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): number {
  const key = `${timeZone} ${date} ${minutes}`;
  const known = instantMemo.get(key);
  if (known !== undefined) return known;
  const wall = Date.parse(`${date}T00:00:00Z`) + minutes * MINUTE_MS;
  // The offsets a day before and after: a zone changes at most once in between.
  const before = zoneOffset(wall - DAY_MS, timeZone);
  const after = zoneOffset(wall + DAY_MS, timeZone);
  const fits = (instant: number) => zoneOffset(instant, timeZone) === wall - instant;
  const candidates = [wall - before, wall - after].filter(fits);
  const instant = candidates.length > 0 ? Math.min(...candidates) : wall - before;
  if (instantMemo.size > 20_000) instantMemo.clear();
  instantMemo.set(key, instant);
  return instant;
}

/** `date` (YYYY-MM-DD) plus `days`, as calendar dates. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** 'mon'…'sun' of a calendar date. */
export function weekdayOf(date: string): (typeof WEEKDAYS)[number] {
  const sundayFirst = new Date(`${date}T00:00:00Z`).getUTCDay();
  return WEEKDAYS[(sundayFirst + 6) % 7] as (typeof WEEKDAYS)[number];
}

// ---- hours as ranges ----

/** The special day on `date`, if any. */
export function specialDayOn(hours: OpeningHours, date: string): SpecialDay | undefined {
  return hours.special.find((day) => day.date === date);
}

/** The intervals that start on `date`: its special day's, else its weekday's. */
export function intervalsOn(hours: OpeningHours, date: string): readonly HoursInterval[] {
  return specialDayOn(hours, date)?.intervals ?? hours.weekly[weekdayOf(date)];
}

function mergeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** The hours' open ranges for intervals starting on the dates `from` … `from + days - 1`, merged. */
export function openRanges(hours: OpeningHours, from: string, days: number, timeZone: string): Range[] {
  const ranges: Range[] = [];
  for (let i = 0; i < days; i += 1) {
    const date = addDays(from, i);
    for (const interval of intervalsOn(hours, date)) {
      const [open, close] = intervalMinutes(interval);
      const start = zonedInstant(date, open, timeZone);
      const end = zonedInstant(date, close, timeZone);
      if (end > start) ranges.push([start, end]);
    }
  }
  return mergeRanges(ranges);
}

/** Where both lists of merged ranges are open. */
export function intersectRanges(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Range[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [aStart, aEnd] = a[i] as Range;
    const [bStart, bEnd] = b[j] as Range;
    const start = Math.max(aStart, bStart);
    const end = Math.min(aEnd, bEnd);
    if (start < end) out.push([start, end]);
    if (aEnd < bEnd) i += 1;
    else j += 1;
  }
  return out;
}

// ---- status ----

export interface HoursStatus {
  /** `unknown`: no structured hours (shoppers read the free text). */
  state: 'open' | 'closed' | 'unknown';
  /** When it closes (open) — null when it stays open past the two weeks looked at. */
  closesAt: number | null;
  /** When it opens next (closed) — null when not within the two weeks looked at. */
  opensAt: number | null;
  /** Minutes until closing, rounded up, when open. */
  minutesToClose: number | null;
  /** Open and closing within `soonMinutes`. */
  closingSoon: boolean;
  /** What shoppers read: "Open now · closes 21:00", "Closes in 20 min", "Closed · opens tomorrow 10:00". */
  label: string;
}

export interface StatusOptions {
  /** The mall's IANA time zone (MALL_TIMEZONE). */
  timeZone: string;
  /** The mall's own hours: they bound the shop's. Null or absent: no bound. */
  mall?: OpeningHours | null;
  /** "Closes in N min" from this many minutes before closing (default 30). */
  soonMinutes?: number;
}

/** How far ahead a next opening is looked for (a shop closed for a fortnight says only "Closed"). */
const HORIZON_DAYS = 15;

/** The ranges in which `hours` (bounded by `mall`) are open, from the day before `at`'s date on. */
function effectiveRanges(hours: OpeningHours, at: number, options: StatusOptions, days: number): Range[] {
  const yesterday = addDays(wallClock(at, options.timeZone).date, -1);
  const own = openRanges(hours, yesterday, days, options.timeZone);
  return options.mall
    ? intersectRanges(own, openRanges(options.mall, yesterday, days, options.timeZone))
    : own;
}

/** Open at `at`? (The Open-now filter: looks at yesterday's overnight intervals and today's only.) */
export function isOpenAt(hours: OpeningHours | null, at: number, options: StatusOptions): boolean {
  if (!hours) return false;
  return effectiveRanges(hours, at, options, 2).some(([start, end]) => start <= at && at < end);
}

/** The status of `hours` at instant `at` (epoch ms), with its label. */
export function hoursStatus(hours: OpeningHours | null, at: number, options: StatusOptions): HoursStatus {
  const unknown: HoursStatus = {
    state: 'unknown',
    closesAt: null,
    opensAt: null,
    minutesToClose: null,
    closingSoon: false,
    label: '',
  };
  if (!hours) return unknown;
  const ranges = effectiveRanges(hours, at, options, HORIZON_DAYS + 1);
  const horizonEnd = zonedInstant(
    addDays(wallClock(at, options.timeZone).date, HORIZON_DAYS),
    0,
    options.timeZone,
  );
  const current = ranges.find(([start, end]) => start <= at && at < end);
  if (current) {
    const closesAt = current[1] >= horizonEnd ? null : current[1];
    if (closesAt === null) {
      return { ...unknown, state: 'open', label: 'Open now · open 24 hours' };
    }
    const minutesToClose = Math.ceil((closesAt - at) / MINUTE_MS);
    const closingSoon = minutesToClose <= (options.soonMinutes ?? 30);
    return {
      state: 'open',
      closesAt,
      opensAt: null,
      minutesToClose,
      closingSoon,
      label: closingSoon
        ? `Closes in ${minutesToClose} min`
        : `Open now · closes ${whenLabel(closesAt, at, options.timeZone, 'close')}`,
    };
  }
  const next = ranges.find(([start]) => start > at);
  const opensAt = next ? next[0] : null;
  return {
    ...unknown,
    state: 'closed',
    opensAt,
    label: opensAt === null ? 'Closed' : `Closed · opens ${whenLabel(opensAt, at, options.timeZone, 'open')}`,
  };
}

const timeFormatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, kind: 'time' | 'weekday' | 'date'): Intl.DateTimeFormat {
  const key = `${timeZone} ${kind}`;
  let found = timeFormatters.get(key);
  if (!found) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'time'
        ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
        : kind === 'weekday'
          ? { weekday: 'short' }
          : { day: 'numeric', month: 'short' };
    found = new Intl.DateTimeFormat('en-GB', { timeZone, ...options });
    timeFormatters.set(key, found);
  }
  return found;
}

/** "HH:MM" of `instant` on the zone's wall clock. */
export function formatTime(instant: number, timeZone: string): string {
  return formatter(timeZone, 'time').format(instant);
}

/**
 * "21:00" on today's date (and a closing in the small hours after it: "closes 02:00");
 * "tomorrow 10:00", "Mon 10:00" within a week, "2 Dec 10:00" beyond.
 */
export function whenLabel(instant: number, now: number, timeZone: string, kind: 'open' | 'close'): string {
  const time = formatTime(instant, timeZone);
  const today = wallClock(now, timeZone).date;
  const then = wallClock(instant, timeZone);
  if (then.date === today) return time;
  if (then.date === addDays(today, 1)) {
    return kind === 'close' && then.minutes < 6 * 60 ? time : `tomorrow ${time}`;
  }
  if (instant - now < 6 * DAY_MS) return `${formatter(timeZone, 'weekday').format(instant)} ${time}`;
  return `${formatter(timeZone, 'date').format(instant)} ${time}`;
}
