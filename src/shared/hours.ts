import './zod-config';
import { z } from 'zod';
import { intervalMinutes, WEEKDAY_NAMES, WEEKDAYS, type Weekday } from './hours-core';
import { calendarDate } from './offer';
import { optionalLine } from './text';

export * from './hours-core';

/**
 * Structured opening hours (docs/decisions/017): a typed JSON document, validated by this schema on the
 * server and in the forms, stored in a jsonb column beside the spec's free-text Opening Hours (which is
 * shown as written and never derived from this). The same shape holds a shop's hours and the mall's.
 *
 * - `weekly`: per weekday, zero or more intervals; an empty list is a closed day.
 * - An interval is `open`–`close`, wall-clock times in the mall's time zone. A `close` at or before
 *   `open` runs past midnight into the next day (22:00–02:00); `24:00` is the end of the day.
 * - `special`: dated days (holidays, extended hours, closures) whose intervals replace that date's
 *   weekly ones; an empty list closes the day. A day's overnight interval still runs into the next date.
 */

export const HOURS_LIMITS = { intervalsPerDay: 4, specialDays: 100, note: 80 } as const;

export const TIME_MESSAGE = 'Enter a time as HH:MM (00:00–23:59)';
export const CLOSE_TIME_MESSAGE = 'Enter a time as HH:MM (00:00–24:00)';
export const SAME_TIME_MESSAGE = 'Closing time must differ from opening time';

const OPEN_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const CLOSE_TIME = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

export const HoursInterval = z
  .strictObject({
    open: z.string({ error: TIME_MESSAGE }).regex(OPEN_TIME, TIME_MESSAGE),
    close: z.string({ error: CLOSE_TIME_MESSAGE }).regex(CLOSE_TIME, CLOSE_TIME_MESSAGE),
  })
  .refine((interval) => interval.open !== interval.close, { message: SAME_TIME_MESSAGE, path: ['close'] });
export type HoursInterval = z.infer<typeof HoursInterval>;

function dayIntervals(dayName: string) {
  return z
    .array(HoursInterval, { error: `${dayName}: give a list of intervals` })
    .max(HOURS_LIMITS.intervalsPerDay, `${dayName}: at most ${HOURS_LIMITS.intervalsPerDay} intervals`)
    .superRefine((intervals, context) => {
      const spans = intervals
        .map((interval, index) => ({ span: intervalMinutes(interval), index }))
        .sort((a, b) => a.span[0] - b.span[0]);
      for (let i = 1; i < spans.length; i += 1) {
        const previous = spans[i - 1];
        const current = spans[i];
        if (previous && current && current.span[0] < previous.span[1]) {
          context.addIssue({
            code: 'custom',
            message: `${dayName}: intervals overlap`,
            path: [current.index, 'open'],
          });
        }
      }
    });
}

export const WeeklyHours = z.strictObject(
  Object.fromEntries(WEEKDAYS.map((day) => [day, dayIntervals(WEEKDAY_NAMES[day])])) as Record<
    Weekday,
    ReturnType<typeof dayIntervals>
  >,
  { error: 'Give the hours of all seven weekdays' },
);
export type WeeklyHours = z.infer<typeof WeeklyHours>;

export const SpecialDay = z.strictObject({
  date: calendarDate('Special day: date is required'),
  /** Empty: closed all day. */
  intervals: dayIntervals('Special day'),
  /** What the day is ("Diwali", "Late-night shopping"); shown to shoppers. */
  note: optionalLine(
    HOURS_LIMITS.note,
    `Note must be at most ${HOURS_LIMITS.note} characters`,
    'Note must be one line',
  ),
});
export type SpecialDay = z.infer<typeof SpecialDay>;

export const OpeningHours = z.strictObject(
  {
    weekly: WeeklyHours,
    special: z
      .array(SpecialDay)
      .max(HOURS_LIMITS.specialDays, `At most ${HOURS_LIMITS.specialDays} special days`)
      .superRefine((days, context) => {
        const seen = new Set<string>();
        days.forEach((day, index) => {
          if (seen.has(day.date)) {
            context.addIssue({
              code: 'custom',
              message: `${day.date} is listed twice: give each special day once`,
              path: [index, 'date'],
            });
          }
          seen.add(day.date);
        });
      })
      .default([]),
  },
  { error: 'Give the weekly hours' },
);
export type OpeningHours = z.infer<typeof OpeningHours>;
export type OpeningHoursInput = z.input<typeof OpeningHours>;

/**
 * Hours as the API answers them: the same shape without the input's cleaning and checks (a response
 * schema is encoded, and a one-way transform cannot be).
 */
const PlainInterval = z.object({ open: z.string(), close: z.string() });
export const StoredHours = z.object({
  weekly: z.object(
    Object.fromEntries(WEEKDAYS.map((day) => [day, z.array(PlainInterval)])) as Record<
      Weekday,
      z.ZodArray<typeof PlainInterval>
    >,
  ),
  special: z.array(
    z.object({ date: z.string(), intervals: z.array(PlainInterval), note: z.string().optional() }),
  ),
});

/** The mall's own hours: GET /api/mall-hours answers it, PUT sets it (null: the mall gives none). */
export const MallHoursInput = z.strictObject({ hours: OpeningHours.nullable() });
export type MallHoursInput = z.input<typeof MallHoursInput>;
export const MallHours = z.object({ hours: StoredHours.nullable(), updatedAt: z.string().nullable() });
export type MallHours = z.infer<typeof MallHours>;
