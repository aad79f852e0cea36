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

// ---- time-zone arithmetic (Intl, or a table of offsets) ----

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

type WallClock = { date: string; minutes: number; utcWall: number };

/** The wall clock as Intl reads it. */
function intlWallClock(instant: number, timeZone: string): WallClock {
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

/** How far the zone's wall clock is ahead of UTC at `instant`, in ms, as Intl reads it. */
function intlOffset(instant: number, timeZone: string): number {
  const secondStart = Math.floor(instant / 1000) * 1000;
  return intlWallClock(secondStart, timeZone).utcWall - secondStart;
}

/** A span [from, to) of epoch ms in which a zone keeps one offset from UTC. */
export interface OffsetSpan {
  from: number;
  to: number;
  offsetMs: number;
}

/**
 * A zone's offsets over [from, to), as Intl reads them: read hourly, each change found to the second.
 * The server sends them with its clock (GET /api/settings) so a browser reads the mall's wall clock by
 * arithmetic: a phone's first Intl.DateTimeFormat costs some 80 ms of the first render of a page of shops.
 */
export function zoneOffsets(timeZone: string, from: number, to: number): OffsetSpan[] {
  const HOUR_MS = 3_600_000;
  const spans: OffsetSpan[] = [];
  let start = Math.floor(from / 1000) * 1000;
  let offsetMs = intlOffset(start, timeZone);
  for (let at = start + HOUR_MS; at - HOUR_MS < to; at += HOUR_MS) {
    if (intlOffset(at, timeZone) === offsetMs) continue;
    // The first second with the new offset, between the last hour read and this one.
    let before = at - HOUR_MS;
    let after = at;
    while (after - before > 1000) {
      const middle = before + Math.floor((after - before) / 2000) * 1000;
      if (intlOffset(middle, timeZone) === offsetMs) before = middle;
      else after = middle;
    }
    spans.push({ from: start, to: after, offsetMs });
    start = after;
    offsetMs = intlOffset(after, timeZone);
  }
  spans.push({ from: start, to: Math.max(start, to), offsetMs });
  return spans;
}

const offsetTables = new Map<string, readonly OffsetSpan[]>();

/** Reads `timeZone`'s clock from `spans` (zoneOffsets' answer) where they reach; Intl elsewhere. */
export function adoptZoneOffsets(timeZone: string, spans: readonly OffsetSpan[]): void {
  if (offsetTables.get(timeZone) === spans) return;
  offsetTables.set(timeZone, spans);
  // What was worked out before is read again from the table.
  lastWallClock = null;
  instantMemo.clear();
  offsetsMemo.clear();
  mallRangesMemo = new WeakMap();
}

function tableOffset(instant: number, timeZone: string): number | undefined {
  const spans = offsetTables.get(timeZone);
  if (!spans) return undefined;
  for (const span of spans) if (span.from <= instant && instant < span.to) return span.offsetMs;
  return undefined;
}

// A status asks the wall clock at the same instant several times (its date, the horizon, the label).
let lastWallClock: { instant: number; timeZone: string; value: WallClock } | null = null;

/** The wall clock in `timeZone` at `instant`: its date (YYYY-MM-DD) and minutes after midnight. */
export function wallClock(instant: number, timeZone: string): WallClock {
  if (lastWallClock?.instant === instant && lastWallClock.timeZone === timeZone) return lastWallClock.value;
  const known = tableOffset(instant, timeZone);
  let value: WallClock;
  if (known === undefined) value = intlWallClock(instant, timeZone);
  else {
    const utcWall = Math.floor(instant / 1000) * 1000 + known;
    const wall = new Date(utcWall);
    value = {
      date: wall.toISOString().slice(0, 10),
      minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes(),
      utcWall,
    };
  }
  lastWallClock = { instant, timeZone, value };
  return value;
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in ms. */
function zoneOffset(instant: number, timeZone: string): number {
  return tableOffset(instant, timeZone) ?? intlOffset(instant, timeZone);
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
  // Most days: the same offset from a day before the date to two days after it (an interval's minutes
  // stay under 2 × 1440), so no change of offset in between, and the instant is the wall clock minus it.
  // This is the answer the search below gives on such days, for two readings of the clock per date
  // rather than up to four per instant (a page of shop cards asked some 1,000: Lighthouse's long task).
  const [dayBefore, dayAfter] = offsetsAround(date, timeZone);
  if (dayBefore === dayAfter && minutes >= 0 && minutes < 2 * 1440) {
    return remember(key, wall - dayBefore);
  }
  // The offsets a day before and after: a zone changes at most once in between.
  const before = zoneOffset(wall - DAY_MS, timeZone);
  const after = zoneOffset(wall + DAY_MS, timeZone);
  const fits = (instant: number) => zoneOffset(instant, timeZone) === wall - instant;
  const candidates = [wall - before, wall - after].filter(fits);
  return remember(key, candidates.length > 0 ? Math.min(...candidates) : wall - before);
}

function remember(key: string, instant: number): number {
  if (instantMemo.size > 20_000) instantMemo.clear();
  instantMemo.set(key, instant);
  return instant;
}

const offsetsMemo = new Map<string, readonly [number, number]>();

/** The zone's offsets a day before `date` begins and three days after (two days after it ends). */
function offsetsAround(date: string, timeZone: string): readonly [number, number] {
  const key = `${timeZone} ${date}`;
  let offsets = offsetsMemo.get(key);
  if (!offsets) {
    const start = Date.parse(`${date}T00:00:00Z`);
    offsets = [zoneOffset(start - DAY_MS, timeZone), zoneOffset(start + 3 * DAY_MS, timeZone)];
    if (offsetsMemo.size > 2_000) offsetsMemo.clear();
    offsetsMemo.set(key, offsets);
  }
  return offsets;
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

// Every shop's status on a page is bounded by the same mall hours, from the same day.
let mallRangesMemo = new WeakMap<OpeningHours, { key: string; ranges: Range[] }>();
function mallRanges(mall: OpeningHours, from: string, days: number, timeZone: string): Range[] {
  const key = `${timeZone} ${from} ${days}`;
  const known = mallRangesMemo.get(mall);
  if (known?.key === key) return known.ranges;
  const ranges = openRanges(mall, from, days, timeZone);
  mallRangesMemo.set(mall, { key, ranges });
  return ranges;
}

/** The ranges in which `hours` (bounded by `mall`) are open, from the day before `at`'s date on. */
function effectiveRanges(hours: OpeningHours, at: number, options: StatusOptions, days: number): Range[] {
  const yesterday = addDays(wallClock(at, options.timeZone).date, -1);
  const own = openRanges(hours, yesterday, days, options.timeZone);
  return options.mall
    ? intersectRanges(own, mallRanges(options.mall, yesterday, days, options.timeZone))
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

const pad2 = (n: number) => String(n).padStart(2, '0');
const WEEKDAY_LABELS = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
// As en-GB reads them (Intl's short month: "Sept").
const MONTH_LABELS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];

/** "HH:MM" of `instant` on the zone's wall clock. */
export function formatTime(instant: number, timeZone: string): string {
  const { minutes } = wallClock(instant, timeZone);
  return `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
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
  if (instant - now < 6 * DAY_MS) return `${WEEKDAY_LABELS[weekdayOf(then.date)]} ${time}`;
  return `${Number(then.date.slice(8))} ${MONTH_LABELS[Number(then.date.slice(5, 7)) - 1]} ${time}`;
}

/**
 * Until when `status` (computed at `at`) reads the same: the next instant its state or its label
 * changes. A page rendered on the server with this status may be served until then, not after
 * (docs/decisions/034). The mall's date is keyed separately ("tomorrow 10:00" changes at midnight).
 */
export function statusValidUntil(status: HoursStatus, at: number, soonMinutes = 30): number {
  if (status.state === 'unknown') return Number.POSITIVE_INFINITY;
  if (status.state === 'open') {
    if (status.closesAt === null || status.minutesToClose === null) return Number.POSITIVE_INFINITY;
    // "Closes in N min" counts down a minute at a time; before that, the label changes when it starts.
    return status.closingSoon
      ? status.closesAt - (status.minutesToClose - 1) * MINUTE_MS
      : status.closesAt - soonMinutes * MINUTE_MS;
  }
  if (status.opensAt === null) return Number.POSITIVE_INFINITY;
  // Beyond six days the label names the date, within them the weekday (whenLabel).
  const weekdayFrom = status.opensAt - 6 * DAY_MS;
  return weekdayFrom > at ? Math.min(weekdayFrom, status.opensAt) : status.opensAt;
}
