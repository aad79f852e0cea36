import type { Event } from '../../../shared/event';
import { addDays, type OffsetSpan, zoneOffsets } from '../../../shared/hours-status';
import type { MallProfile } from '../../../shared/mall-profile';
import { type EventTiming, rruleValue, utcStamp } from './recurrence';

/**
 * iCalendar (RFC 5545) for the events' feeds and "Add to calendar" (docs/decisions/036): one VEVENT per
 * event, a repeat as its RRULE (with EXDATEs), times as wall-clock times with the mall's TZID, and the
 * VTIMEZONE that defines it, so a 10:00 event stays 10:00 in every calendar across a DST change.
 */
export const ICAL_TYPE = 'text/calendar; charset=utf-8';

/** TEXT values (§3.3.11): backslash, semicolon, comma and line breaks escaped. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** Folds a content line at 75 octets (§3.1), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let bytes = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    // The first line holds 75 octets; the following ones 74 after their leading space.
    if (bytes + size > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = '';
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

const compactDate = (date: string) => date.replaceAll('-', '');
const localStamp = (date: string, time: string) => `${compactDate(date)}T${time.replace(':', '')}00`;

/** A local date-time of an instant at a fixed offset (the VTIMEZONE's DTSTART). */
function wallStamp(instant: number, offsetMs: number): string {
  return new Date(instant + offsetMs).toISOString().replace(/[-:]/g, '').slice(0, 15);
}

function offsetText(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const minutes = Math.abs(offsetMs) / 60_000;
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${sign}${hh}${mm}`;
}

const spansByYear = new Map<string, OffsetSpan[]>();
function yearSpans(timeZone: string, year: number): OffsetSpan[] {
  const key = `${timeZone} ${year}`;
  let spans = spansByYear.get(key);
  if (!spans) {
    spans = zoneOffsets(timeZone, Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1));
    spansByYear.set(key, spans);
  }
  return spans;
}

/**
 * The zone's VTIMEZONE from `fromYear` to `toYear`: each change of offset as its own observance (no
 * rule, so it is right for any zone whatever its history), DAYLIGHT when the offset is above the year's
 * smallest. A zone with no changes has one STANDARD observance.
 */
export function vtimezone(timeZone: string, fromYear: number, toYear: number): string[] {
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  let previous: number | null = null;
  for (let year = fromYear; year <= toYear; year += 1) {
    const spans = yearSpans(timeZone, year);
    const standard = Math.min(...spans.map((span) => span.offsetMs));
    for (const span of spans) {
      if (previous !== null && span.offsetMs === previous) continue;
      const from = previous ?? span.offsetMs;
      const kind = span.offsetMs > standard ? 'DAYLIGHT' : 'STANDARD';
      lines.push(
        `BEGIN:${kind}`,
        `DTSTART:${wallStamp(span.from, from)}`,
        `TZOFFSETFROM:${offsetText(from)}`,
        `TZOFFSETTO:${offsetText(span.offsetMs)}`,
        `END:${kind}`,
      );
      previous = span.offsetMs;
    }
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

export interface CalendarOptions {
  timeZone: string;
  profile: MallProfile;
  /** The calendar's name (X-WR-CALNAME): "Super Mall events", "Kids events at Super Mall". */
  name: string;
  /** The site's origin for the events' URLs, when the profile knows it ('' for none). */
  origin: string;
  /** The mall's date: the time zone is described from a year before it. */
  today: string;
}

export const timingOf = (event: Event): EventTiming => ({
  allDay: event.allDay,
  startDate: event.startDate,
  startTime: event.startTime,
  endDate: event.endDate,
  endTime: event.endTime,
  repeat: event.repeat,
});

function veventLines(event: Event, options: CalendarOptions): string[] {
  const { timeZone, profile } = options;
  const tz = `TZID=${timeZone}`;
  const lines = [
    'BEGIN:VEVENT',
    `UID:event-${event.id}@super-mall`,
    `DTSTAMP:${utcStamp(Date.parse(event.createdAt))}`,
  ];
  if (event.allDay) {
    lines.push(`DTSTART;VALUE=DATE:${compactDate(event.startDate)}`);
    // DTEND of a date is the day after the last (§3.6.1).
    lines.push(`DTEND;VALUE=DATE:${compactDate(addDays(event.endDate, 1))}`);
  } else {
    lines.push(`DTSTART;${tz}:${localStamp(event.startDate, event.startTime ?? '00:00')}`);
    lines.push(`DTEND;${tz}:${localStamp(event.endDate, event.endTime ?? '00:00')}`);
  }
  const rule = rruleValue(timingOf(event), timeZone);
  if (rule) lines.push(`RRULE:${rule}`);
  const except = event.repeat?.except ?? [];
  if (rule && except.length > 0) {
    lines.push(
      event.allDay
        ? `EXDATE;VALUE=DATE:${except.map(compactDate).join(',')}`
        : `EXDATE;${tz}:${except.map((date) => localStamp(date, event.startTime ?? '00:00')).join(',')}`,
    );
  }
  lines.push(`SUMMARY:${escapeText(event.title)}`);
  if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
  const where = [
    event.place.kind === 'mall' ? '' : event.place.name,
    event.place.floorName ?? '',
    profile.name,
  ];
  lines.push(`LOCATION:${escapeText(where.filter((part) => part).join(', '))}`);
  if (event.tags.length > 0) lines.push(`CATEGORIES:${event.tags.map(escapeText).join(',')}`);
  lines.push(`STATUS:${event.status === 'cancelled' ? 'CANCELLED' : 'CONFIRMED'}`);
  if (event.shopName) lines.push(`ORGANIZER;CN=${quoteParam(event.shopName)}:${organizerUri(options)}`);
  if (options.origin) lines.push(`URL:${options.origin}/events/${event.id}`);
  lines.push('END:VEVENT');
  return lines;
}

/** A parameter value (§3.2): quoted, with no double quote or control characters inside. */
function quoteParam(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  return `"${value.replace(/["\u0000-\u001f\u007f]/g, '')}"`;
}

/** ORGANIZER's value is a URI (CAL-ADDRESS): the mall's site, else a placeholder mail address. */
function organizerUri(options: CalendarOptions): string {
  return options.origin ? `${options.origin}/` : 'mailto:events@super-mall.invalid';
}

/** A whole VCALENDAR: the events, the mall's time zone, CRLF line ends, folded lines. */
export function calendar(events: readonly Event[], options: CalendarOptions): string {
  const thisYear = Number(options.today.slice(0, 4));
  const firstYear = Math.max(
    thisYear - 10,
    Math.min(thisYear - 1, ...events.map((event) => Number(event.startDate.slice(0, 4)))),
  );
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Super Mall//Events//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.name)}`,
    `X-WR-TIMEZONE:${options.timeZone}`,
    ...vtimezone(options.timeZone, firstYear, thisYear + 3),
    ...events.flatMap((event) => veventLines(event, options)),
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
