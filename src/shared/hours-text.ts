import type { HoursInterval, OpeningHours } from './hours';
import { emptyWeek, WEEKDAYS, type Weekday } from './hours-core';

/**
 * Reads a free-text Opening Hours value ("10:00 - 21:00", "Mon–Sat 10am–9pm, Sun closed", "10:00 – 22:00
 * daily", "Tue–Sun 11:00 – 21:00") as structured hours, for the admin form to OFFER: the admin sees the
 * result and confirms it; nothing is converted silently. Returns null when any part of the text is not
 * understood (better no offer than a wrong one).
 */
export interface ParsedHoursText {
  hours: OpeningHours;
  /** Weekdays the text does not mention, taken as closed (the form says so). */
  unmentioned: Weekday[];
}

const DAY_WORDS: Record<string, Weekday> = {
  mon: 'mon',
  monday: 'mon',
  tue: 'tue',
  tues: 'tue',
  tuesday: 'tue',
  wed: 'wed',
  weds: 'wed',
  wednesday: 'wed',
  thu: 'thu',
  thur: 'thu',
  thurs: 'thu',
  thursday: 'thu',
  fri: 'fri',
  friday: 'fri',
  sat: 'sat',
  saturday: 'sat',
  sun: 'sun',
  sunday: 'sun',
};
const DAY = `(?:${Object.keys(DAY_WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|')})\\.?`;
const TIME = String.raw`\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?`;

const TOKEN = new RegExp(
  [
    String.raw`(?<h24>open 24 hours|24 hours|24\s*/\s*7|24h|round the clock)`,
    String.raw`(?<range>(?<from>${TIME})\s*-\s*(?<to>${TIME}))`,
    `(?<days>(?<d1>${DAY})(?:\\s*-\\s*(?<d2>${DAY}))?)`,
    `(?<every>daily|every ?day|all week|7 days(?: a week)?)`,
    `(?<closed>closed|off)`,
    String.raw`(?<filler>open|hours|only|from|and|&|\+|[,;/|:])`,
    String.raw`(?<space>\s+)`,
  ].join('|'),
  'y',
);

interface Clock {
  minutes: number;
  suffix: 'am' | 'pm' | null;
}

function readTime(text: string): Clock | null {
  const match = /^(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/.exec(text.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = match[2] ? Number(match[2]) : 0;
  const suffix = match[3] ? (match[3].startsWith('a') ? 'am' : 'pm') : null;
  if (minute > 59 || hour > 24 || (suffix && (hour < 1 || hour > 12))) return null;
  if (hour === 24 && minute > 0) return null;
  return { minutes: hour * 60 + minute, suffix };
}

function withSuffix(clock: Clock, suffix: 'am' | 'pm' | null): number {
  if (!suffix) return clock.minutes;
  const hour12 = Math.floor(clock.minutes / 60) % 12;
  return (hour12 + (suffix === 'pm' ? 12 : 0)) * 60 + (clock.minutes % 60);
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function readRange(fromText: string, toText: string): HoursInterval | null {
  const from = readTime(fromText);
  const to = readTime(toText);
  if (!from || !to) return null;
  const close = withSuffix(to, to.suffix);
  // "10–9pm": the first time takes the second's am/pm, unless that puts it after the close.
  let open = withSuffix(from, from.suffix ?? to.suffix);
  if (!from.suffix && to.suffix === 'pm' && open >= close) open = withSuffix(from, 'am');
  if (open >= 24 * 60 || open === close) return null;
  return { open: hhmm(open), close: close === 0 || close === 24 * 60 ? '24:00' : hhmm(close) };
}

function dayRange(first: Weekday, last: Weekday): Weekday[] {
  const start = WEEKDAYS.indexOf(first);
  const days: Weekday[] = [];
  for (let i = 0; i < 7; i += 1) {
    const day = WEEKDAYS[(start + i) % 7] as Weekday;
    days.push(day);
    if (day === last) break;
  }
  return days;
}

const dayWord = (word: string) => DAY_WORDS[word.replace(/\.$/, '')] as Weekday;

export function parseHoursText(text: string): ParsedHoursText | null {
  const normal = text
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\bto\b|\btill\b|\buntil\b/g, '-')
    .trim();
  if (normal === '') return null;

  const hours = emptyWeek();
  const mentioned = new Set<Weekday>();
  /** The days the next times apply to; null: none named yet. */
  let pending: Weekday[] | null = null;
  /** Whether `pending` has received its times already (a new day name then starts a new group). */
  let used = false;
  let any = false;

  const selection = (): Weekday[] => pending ?? [...WEEKDAYS];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < normal.length) {
    const match = TOKEN.exec(normal);
    const groups = match?.groups;
    if (!match || !groups) return null;
    if (groups.space !== undefined || groups.filler !== undefined) continue;
    if (groups.days !== undefined) {
      const first = dayWord(groups.d1 as string);
      const days = groups.d2 ? dayRange(first, dayWord(groups.d2)) : [first];
      pending = used || pending === null ? days : [...pending, ...days];
      used = false;
    } else if (groups.every !== undefined) {
      if (pending === null || used) pending = [...WEEKDAYS];
      used = false;
    } else if (groups.h24 !== undefined) {
      for (const day of selection()) {
        hours.weekly[day] = [{ open: '00:00', close: '24:00' }];
        mentioned.add(day);
      }
      used = true;
      any = true;
    } else if (groups.range !== undefined) {
      const interval = readRange(groups.from as string, groups.to as string);
      if (!interval) return null;
      for (const day of selection()) {
        // A day named again with new times ("Mon–Sun 10–21, Fri 10–23") takes the later times.
        if (!used && mentioned.has(day)) hours.weekly[day] = [];
        if (hours.weekly[day].length >= 4) return null;
        hours.weekly[day] = [...hours.weekly[day], interval];
        mentioned.add(day);
      }
      // Following times before another day name belong to the same days ("10–14, 16–21").
      if (!used) used = true;
      any = true;
    } else if (groups.closed !== undefined) {
      if (pending === null) return null;
      for (const day of pending) {
        hours.weekly[day] = [];
        mentioned.add(day);
      }
      used = true;
    }
  }
  if (!any) return null;
  return { hours, unmentioned: WEEKDAYS.filter((day) => !mentioned.has(day)) };
}
