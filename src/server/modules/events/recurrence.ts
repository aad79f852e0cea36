import { createRequire } from 'node:module';
import type { EventOccurrence, EventRepeat } from '../../../shared/event';
import { WEEKDAYS } from '../../../shared/hours-core';
import { addDays, zonedInstant } from '../../../shared/hours-status';
import { mallToday } from '../../lib/mall-time';

// rrule ships CommonJS as its entry point (its ESM build is for bundlers): loaded as Node loads it.
const { RRule, RRuleSet } = createRequire(import.meta.url)('rrule') as typeof import('rrule');

/**
 * An event's timing: wall-clock dates and times in the mall's time zone, and its repeat rule. The rule is
 * expanded on the wall clock ("every Saturday at 10:00"), and only then each occurrence is placed in the
 * zone: a 10:00 event stays at 10:00 across a daylight-saving change (docs/decisions/036).
 */
export interface EventTiming {
  allDay: boolean;
  startDate: string;
  startTime: string | null;
  endDate: string;
  endTime: string | null;
  repeat: EventRepeat | null;
}

const DAY_MS = 86_400_000;
const minutesOf = (time: string | null) =>
  time ? Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) : 0;
/** A wall-clock date and time as a "floating" Date (its UTC fields are the wall clock's), as rrule reads. */
const floating = (date: string, minutes: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + minutes * 60_000);
const dateOf = (wall: Date) => wall.toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

const RRULE_DAYS = {
  mon: RRule.MO,
  tue: RRule.TU,
  wed: RRule.WE,
  thu: RRule.TH,
  fri: RRule.FR,
  sat: RRule.SA,
  sun: RRule.SU,
} as const;

/** The rule as rrule's, on the floating wall clock. */
function ruleSet(timing: EventTiming): InstanceType<typeof RRuleSet> {
  const repeat = timing.repeat;
  const start = floating(timing.startDate, minutesOf(timing.startTime));
  const set = new RRuleSet();
  if (!repeat) {
    set.rdate(start);
    return set;
  }
  set.rrule(
    new RRule({
      freq: repeat.freq === 'weekly' ? RRule.WEEKLY : RRule.MONTHLY,
      interval: repeat.interval ?? 1,
      dtstart: start,
      ...(repeat.freq === 'weekly'
        ? {
            byweekday: (repeat.days?.length ? sortedDays(repeat.days) : [weekdayKey(timing.startDate)]).map(
              (day) => RRULE_DAYS[day],
            ),
          }
        : {}),
      // The until date counts: occurrences starting that day, at whatever time.
      ...(repeat.until ? { until: floating(repeat.until, 1439) } : {}),
      ...(repeat.count ? { count: repeat.count } : {}),
    }),
  );
  for (const date of repeat.except ?? []) set.exdate(floating(date, minutesOf(timing.startTime)));
  return set;
}

export function sortedDays(days: readonly (typeof WEEKDAYS)[number][]): (typeof WEEKDAYS)[number][] {
  return WEEKDAYS.filter((day) => days.includes(day));
}

export function weekdayKey(date: string): (typeof WEEKDAYS)[number] {
  // 1970-01-05 was a Monday.
  const index = (((daysBetween('1970-01-05', date) % 7) + 7) % 7) as 0 | 1 | 2 | 3 | 4 | 5 | 6;
  return WEEKDAYS[index];
}

/** The mall dates the event starts on, from `from` to `to` (both counted). */
export function startDates(timing: EventTiming, from: string, to: string): string[] {
  return ruleSet(timing).between(floating(from, 0), floating(to, 1439), true).map(dateOf);
}

/** One occurrence starting on `date`, placed in the zone. */
export function occurrenceOn(timing: EventTiming, date: string, timeZone: string): EventOccurrence {
  const endDate = addDays(date, daysBetween(timing.startDate, timing.endDate));
  const start = timing.allDay
    ? zonedInstant(date, 0, timeZone)
    : zonedInstant(date, minutesOf(timing.startTime), timeZone);
  // All day: to the start of the day after the end date.
  const end = timing.allDay
    ? zonedInstant(addDays(endDate, 1), 0, timeZone)
    : zonedInstant(endDate, minutesOf(timing.endTime), timeZone);
  return {
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    startDate: date,
    endDate,
    startTime: timing.allDay ? null : timing.startTime,
    endTime: timing.allDay ? null : timing.endTime,
  };
}

/**
 * The occurrences that take place on any mall date from `from` to `to` (an occurrence that started
 * before `from` and is still going on counts), in order.
 */
export function occurrences(
  timing: EventTiming,
  from: string,
  to: string,
  timeZone: string,
): EventOccurrence[] {
  const span = daysBetween(timing.startDate, timing.endDate);
  return startDates(timing, addDays(from, -span), to)
    .map((date) => occurrenceOn(timing, date, timeZone))
    .filter((occurrence) => occurrence.endDate >= from);
}

/**
 * The next `limit` occurrences not over by the mall's date `today` (one still going on today counts): a
 * cancelled event's stay, marked, until their day is over. By date, not by the clock, so an answer holds
 * for the whole mall day (the read cache keys on the date: docs/decisions/013).
 */
export function upcoming(
  timing: EventTiming,
  today: string,
  timeZone: string,
  limit = 10,
): EventOccurrence[] {
  const out: EventOccurrence[] = [];
  const span = daysBetween(timing.startDate, timing.endDate);
  let from = addDays(today, -span);
  // A year at a time: a rule's next occurrence may be months away.
  for (let year = 0; year < 5 && out.length < limit; year += 1) {
    const to = addDays(from, 365);
    for (const date of startDates(timing, from, to)) {
      const occurrence = occurrenceOn(timing, date, timeZone);
      if (occurrence.endDate >= today) out.push(occurrence);
      if (out.length >= limit) break;
    }
    from = addDays(to, 1);
  }
  return out;
}

/** The last mall date the event takes place on; null when it repeats with no end. */
export function lastDate(timing: EventTiming): string | null {
  const repeat = timing.repeat;
  const span = daysBetween(timing.startDate, timing.endDate);
  if (!repeat) return timing.endDate;
  if (!repeat.until && !repeat.count) return null;
  const all = ruleSet(timing).all();
  const last = all.at(-1);
  return last ? addDays(dateOf(last), span) : timing.endDate;
}

/** The RRULE of the event's repeat (RFC 5545 §3.3.10), without "RRULE:"; UNTIL as RFC 5545 asks. */
export function rruleValue(timing: EventTiming, timeZone: string): string | null {
  const repeat = timing.repeat;
  if (!repeat) return null;
  const parts = [`FREQ=${repeat.freq === 'weekly' ? 'WEEKLY' : 'MONTHLY'}`];
  if ((repeat.interval ?? 1) > 1) parts.push(`INTERVAL=${repeat.interval}`);
  if (repeat.freq === 'weekly') {
    const days = repeat.days?.length ? sortedDays(repeat.days) : [weekdayKey(timing.startDate)];
    parts.push(`BYDAY=${days.map((day) => day.slice(0, 2).toUpperCase()).join(',')}`);
  }
  if (repeat.until) {
    // A date for an all-day event; else the last instant of the until date in the mall's zone, in UTC.
    parts.push(
      timing.allDay
        ? `UNTIL=${repeat.until.replaceAll('-', '')}`
        : `UNTIL=${utcStamp(zonedInstant(addDays(repeat.until, 1), 0, timeZone) - 1000)}`,
    );
  }
  if (repeat.count) parts.push(`COUNT=${repeat.count}`);
  return parts.join(';');
}

/** An instant as an iCalendar UTC date-time: 20261129T100000Z. */
export function utcStamp(instant: number): string {
  return new Date(instant)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

const RRULE_DAY_KEYS: Record<string, (typeof WEEKDAYS)[number]> = {
  MO: 'mon',
  TU: 'tue',
  WE: 'wed',
  TH: 'thu',
  FR: 'fri',
  SA: 'sat',
  SU: 'sun',
};
/** The RRULE parts the events form can make (rruleValue writes no others). */
const RRULE_PARTS = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'UNTIL', 'COUNT']);
export const RRULE_SHAPE_MESSAGE = 'Repeat must be an RRULE such as FREQ=WEEKLY;BYDAY=SA;COUNT=8';

/** An RRULE's number as the form reads numbers: plain digits, or NaN (the schema says what is wrong). */
const ruleNumber = (text: string) => (/^\d{1,6}$/.test(text) ? Number(text) : Number.NaN);

/**
 * An UNTIL as a mall date: a DATE as it is; a UTC DATE-TIME (what rruleValue writes for a timed event:
 * the last second of the until date in the mall's zone) as the mall's date at that instant; a floating
 * DATE-TIME as its date. Anything else is handed on as it is, for the schema to refuse.
 */
function untilDate(text: string, timeZone: string): string {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(text);
  if (!match) return text;
  const [, year, month, day, hour, minute, second, utc] = match;
  const date = `${year}-${month}-${day}`;
  if (!utc) return date;
  const instant = Date.parse(`${date}T${hour}:${minute}:${second}Z`);
  return Number.isNaN(instant) ? text : mallToday(timeZone, new Date(instant));
}

/**
 * The other way from rruleValue: an RRULE (RFC 5545 §3.3.10, with or without "RRULE:", any case) as the
 * event's repeat, not yet checked: the caller checks it with the events' own schema (EventRepeat), so
 * an interval of 13 or FREQ=DAILY is refused with the form's message. Parts the form cannot make
 * (BYMONTHDAY, BYSETPOS…) and text that is no RRULE are refused here, with what to write instead.
 */
export function repeatFromRrule(
  text: string,
  timeZone: string,
): { repeat: Record<string, unknown> } | { message: string } {
  const body = text.trim().replace(/^RRULE:/i, '');
  const parts = new Map<string, string>();
  for (const part of body.split(';')) {
    if (part.trim() === '') continue;
    const at = part.indexOf('=');
    if (at <= 0) return { message: RRULE_SHAPE_MESSAGE };
    const name = part.slice(0, at).trim().toUpperCase();
    if (!RRULE_PARTS.has(name))
      return {
        message: `Repeat cannot use ${name}: events repeat weekly on chosen days or monthly on the start date's day`,
      };
    if (parts.has(name)) return { message: `Repeat has ${name} twice` };
    parts.set(name, part.slice(at + 1).trim());
  }
  if (parts.size === 0) return { message: RRULE_SHAPE_MESSAGE };
  const repeat: Record<string, unknown> = {};
  const freq = parts.get('FREQ');
  // An unknown frequency goes on as it is written: the schema says "Repeat is weekly or monthly".
  if (freq !== undefined) repeat.freq = freq.toLowerCase();
  const interval = parts.get('INTERVAL');
  if (interval !== undefined) repeat.interval = ruleNumber(interval);
  const byDay = parts.get('BYDAY');
  if (byDay !== undefined)
    repeat.days = byDay
      .split(',')
      .map((day) => day.trim().toUpperCase())
      .map((day) => RRULE_DAY_KEYS[day] ?? day.toLowerCase());
  const until = parts.get('UNTIL');
  if (until !== undefined) repeat.until = untilDate(until.toUpperCase(), timeZone);
  const count = parts.get('COUNT');
  if (count !== undefined) repeat.count = ruleNumber(count);
  return { repeat };
}

/**
 * A repeat as what it does, for telling whether two say the same: a weekly repeat without days is on the
 * start's weekday (as rruleValue writes it), an interval of 1 is the default, exceptions in date order.
 */
export function repeatKey(repeat: EventRepeat | null | undefined, startDate: string): string {
  if (!repeat) return 'once';
  const days =
    repeat.freq === 'weekly' ? sortedDays(repeat.days?.length ? repeat.days : [weekdayKey(startDate)]) : [];
  return JSON.stringify([
    repeat.freq,
    repeat.interval ?? 1,
    days,
    repeat.until ?? null,
    repeat.count ?? null,
    [...new Set(repeat.except ?? [])].sort(),
  ]);
}
