import './zod-config';
import { z } from 'zod';
import { WEEKDAYS } from './hours-core';
import { calendarDate } from './offer';
import { optionalText, PageQuery, pageSchema, requiredLine, requiredText } from './text';

/**
 * The mall's and the shops' events (issue 35, docs/decisions/036). An event's times are wall-clock
 * times in the mall's time zone (MALL_TIMEZONE): a weekly 10:00 event stays at 10:00 across a
 * daylight-saving change. A repeat is stored as a rule and expanded by the server (events/recurrence.ts).
 */
export const EVENT_LIMITS = {
  title: 120,
  description: 4000,
  tag: 30,
  tags: 8,
  exceptions: 100,
  count: 500,
  interval: 12,
} as const;

export const EVENT_PLACE_KINDS = ['mall', 'floor', 'amenity', 'shop'] as const;
export type EventPlaceKind = (typeof EVENT_PLACE_KINDS)[number];
export const EVENT_STATUSES = ['scheduled', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
export const REPEAT_FREQUENCIES = ['weekly', 'monthly'] as const;

export const END_NOT_AFTER_START = 'End must be after start';
const TIME_MESSAGE = 'Enter a time as HH:MM (00:00–23:59)';
const TAG_MESSAGE = 'A tag is lowercase letters, digits and dashes (kids, late-night)';

/** A wall-clock time of day, HH:MM. */
export const TimeOfDay = z.string(TIME_MESSAGE).regex(/^([01]\d|2[0-3]):[0-5]\d$/, TIME_MESSAGE);

export const EventTag = z
  .string(TAG_MESSAGE)
  .max(EVENT_LIMITS.tag, `A tag must be at most ${EVENT_LIMITS.tag} characters`)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, TAG_MESSAGE);

/**
 * A repeat: weekly on chosen days (the start's weekday when none are chosen) or monthly on the start's
 * day of the month, every `interval` weeks or months, until a date or for a number of times (or with no
 * end), less the dates in `except` (mall dates of occurrences that do not take place).
 */
export const EventRepeat = z
  .strictObject({
    freq: z.enum(REPEAT_FREQUENCIES, 'Repeat is weekly or monthly'),
    interval: z
      .number('Every how many weeks or months')
      .int('Every how many weeks or months')
      .min(1, `Repeat every 1 to ${EVENT_LIMITS.interval}`)
      .max(EVENT_LIMITS.interval, `Repeat every 1 to ${EVENT_LIMITS.interval}`)
      .optional(),
    days: z.array(z.enum(WEEKDAYS, 'Unknown weekday'), 'Days must be a list of weekdays').max(7).optional(),
    until: calendarDate('Repeat until must be a date').nullable().optional(),
    count: z
      .number('Number of times must be a whole number')
      .int('Number of times must be a whole number')
      .min(1, `Number of times must be between 1 and ${EVENT_LIMITS.count}`)
      .max(EVENT_LIMITS.count, `Number of times must be between 1 and ${EVENT_LIMITS.count}`)
      .nullable()
      .optional(),
    except: z
      .array(calendarDate('An exception must be a date'), 'Exceptions must be a list of dates')
      .max(EVENT_LIMITS.exceptions, `At most ${EVENT_LIMITS.exceptions} exceptions`)
      .optional(),
  })
  .refine((repeat) => !(repeat.until && repeat.count), {
    message: 'Repeat until a date or a number of times, not both',
    path: ['count'],
  })
  .refine((repeat) => repeat.freq === 'weekly' || !repeat.days || repeat.days.length === 0, {
    message: 'Days are for weekly repeats',
    path: ['days'],
  });
export type EventRepeat = z.output<typeof EventRepeat>;

const eventFields = {
  title: requiredLine(
    EVENT_LIMITS.title,
    'Title is required',
    `Title must be at most ${EVENT_LIMITS.title} characters`,
    'Title must be one line',
  ),
  description: optionalText(
    EVENT_LIMITS.description,
    `Description must be at most ${EVENT_LIMITS.description} characters`,
  ),
  /** The organizing shop; null: the mall's own event (admins only). */
  shopId: z.uuid('Unknown shop').nullable().optional(),
  placeKind: z.enum(EVENT_PLACE_KINDS, 'Where is the mall, a floor, an amenity or a shop'),
  /** The floor's, amenity's or shop's id; null for the whole mall. */
  placeId: z.uuid('Choose the place').nullable().optional(),
  allDay: z.boolean('All day is true or false'),
  startDate: calendarDate('Start date is required'),
  /** Null (or missing) for an all-day event. */
  startTime: TimeOfDay.nullable().optional(),
  endDate: calendarDate('End date is required'),
  endTime: TimeOfDay.nullable().optional(),
  tags: z
    .array(EventTag, 'Tags must be a list')
    .max(EVENT_LIMITS.tags, `At most ${EVENT_LIMITS.tags} tags`)
    .optional(),
  repeat: EventRepeat.nullable().optional(),
  status: z.enum(EVENT_STATUSES, 'Status is scheduled or cancelled').optional(),
};

type Timing = {
  allDay?: boolean;
  startDate?: string;
  startTime?: string | null;
  endDate?: string;
  endTime?: string | null;
};

/** The problems of an event's timing as a whole: field → message (empty when it holds together). */
export function timingProblems(value: Timing): Record<string, string> {
  const problems: Record<string, string> = {};
  if (value.allDay === false) {
    if (!value.startTime) problems.startTime = 'Start time is required (or make it all day)';
    if (!value.endTime) problems.endTime = 'End time is required (or make it all day)';
  }
  if (value.allDay === true) {
    if (value.startTime) problems.startTime = 'An all-day event has no start time';
    if (value.endTime) problems.endTime = 'An all-day event has no end time';
  }
  if (value.startDate && value.endDate && Object.keys(problems).length === 0) {
    const start = `${value.startDate} ${value.allDay ? '' : (value.startTime ?? '')}`;
    const end = `${value.endDate} ${value.allDay ? '' : (value.endTime ?? '')}`;
    // All day: the end date counts, so the same date is fine; timed: the end is strictly later.
    if (value.allDay ? end < start : end <= start) problems.endDate = END_NOT_AFTER_START;
  }
  return problems;
}

/** The place's id goes with the kind of place: none for the mall, one for the others. */
export function placeProblem(value: { placeKind?: EventPlaceKind; placeId?: string | null }): string | null {
  if (value.placeKind === undefined) return null;
  if (value.placeKind === 'mall') return value.placeId ? 'The whole mall has no place to choose' : null;
  return value.placeId ? null : 'Choose the place';
}

function checkWhole(
  value: z.output<z.ZodObject<typeof eventFields>> | Partial<Timing>,
  ctx: z.RefinementCtx,
) {
  for (const [field, message] of Object.entries(timingProblems(value as Timing))) {
    ctx.addIssue({ code: 'custom', message, path: [field] });
  }
  const place = placeProblem(value as { placeKind?: EventPlaceKind; placeId?: string | null });
  if (place) ctx.addIssue({ code: 'custom', message: place, path: ['placeId'] });
  const repeat = (value as { repeat?: EventRepeat | null }).repeat;
  const startDate = (value as Timing).startDate;
  if (repeat?.until && startDate && repeat.until < startDate) {
    ctx.addIssue({
      code: 'custom',
      message: 'Repeat until must be on or after the start date',
      path: ['repeat'],
    });
  }
}

export const EventInput = z.strictObject(eventFields).superRefine(checkWhole);
export type EventInput = z.input<typeof EventInput>;
/** A change: the server checks the whole event again, as it will be stored. */
export const EventPatch = z.strictObject(eventFields).partial();
export type EventPatch = z.input<typeof EventPatch>;

/** The whole event, as stored after a change: the same checks as a new one. */
export const EventWhole = z.object(eventFields).superRefine(checkWhole);

export const EventListQuery = z.strictObject({
  ...PageQuery.shape,
  /** The first mall date (default: today) and the last (default: 60 days later). */
  from: calendarDate('From must be a date').optional(),
  to: calendarDate('To must be a date').optional(),
  tag: EventTag.optional(),
  floorId: z.uuid('Unknown floor').optional(),
  shopId: z.uuid('Unknown shop').optional(),
});
export type EventListQuery = z.input<typeof EventListQuery>;
/** The longest window the list expands (days). */
export const EVENT_WINDOW_MAX_DAYS = 400;
export const EVENT_WINDOW_DEFAULT_DAYS = 60;

export const EventFeedQuery = z.strictObject({
  tag: EventTag.optional(),
  shopId: z.uuid('Unknown shop').optional(),
});
export type EventFeedQuery = z.input<typeof EventFeedQuery>;

export const EventPlace = z.object({
  kind: z.enum(EVENT_PLACE_KINDS),
  id: z.string().nullable(),
  /** "The whole mall", the floor's name, the amenity's kind and floor, or the shop's name. */
  name: z.string(),
  floorId: z.string().nullable(),
  floorName: z.string().nullable(),
});
export type EventPlace = z.infer<typeof EventPlace>;

const RepeatAnswer = z.object({
  freq: z.enum(REPEAT_FREQUENCIES),
  interval: z.number().int().optional(),
  days: z.array(z.enum(WEEKDAYS)).optional(),
  until: z.string().nullable().optional(),
  count: z.number().int().nullable().optional(),
  except: z.array(z.string()).optional(),
});

export const Event = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  shopId: z.string().nullable(),
  shopName: z.string().nullable(),
  shopSlug: z.string().nullable(),
  place: EventPlace,
  allDay: z.boolean(),
  startDate: z.string(),
  startTime: z.string().nullable(),
  endDate: z.string(),
  endTime: z.string().nullable(),
  tags: z.array(z.string()),
  repeat: RepeatAnswer.nullable(),
  status: z.enum(EVENT_STATUSES),
  image: z.string().nullable(),
  createdAt: z.string(),
});
export type Event = z.infer<typeof Event>;

/** One time an event takes place: instants (ISO, UTC) and the mall dates it starts and ends on. */
export const EventOccurrence = z.object({
  start: z.string(),
  end: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  /** The wall-clock times in the mall's zone (null all day). */
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
});
export type EventOccurrence = z.infer<typeof EventOccurrence>;

export const EventListItem = z.object({ event: Event, occurrence: EventOccurrence });
export type EventListItem = z.infer<typeof EventListItem>;
export const EventPage = pageSchema(EventListItem).extend({ from: z.string(), to: z.string() });
export type EventPage = z.infer<typeof EventPage>;

/** What an event's card shows: no description, rule or creation time (the events page carries many). */
export const EventSummary = Event.pick({
  id: true,
  title: true,
  shopId: true,
  shopName: true,
  shopSlug: true,
  place: true,
  status: true,
  tags: true,
  image: true,
});
export type EventSummary = z.infer<typeof EventSummary>;

export const EVENT_OVERVIEW_GROUPS = ['today', 'weekend', 'upcoming'] as const;
export type EventOverviewGroup = (typeof EVENT_OVERVIEW_GROUPS)[number];
export const EVENT_OVERVIEW_PAGE_SIZE = 24;

/** /events' filters and page (?tag=&floorId=&page=; a shop's page: ?shopId=): the next 60 days' cards. */
export const EventOverviewQuery = z.strictObject({
  page: PageQuery.shape.page,
  tag: EventTag.optional(),
  floorId: z.uuid('Unknown floor').optional(),
  shopId: z.uuid('Unknown shop').optional(),
});
export type EventOverviewQuery = z.input<typeof EventOverviewQuery>;

/**
 * One card of the events page: an occurrence today, this weekend (after today), or later; a later
 * event once, at its next date, with how many more dates it has in the window.
 */
export const EventOverviewCard = z.object({
  group: z.enum(EVENT_OVERVIEW_GROUPS),
  event: EventSummary,
  occurrence: EventOccurrence,
  moreDates: z.number().int(),
});
export type EventOverviewCard = z.infer<typeof EventOverviewCard>;

export const EventOverview = pageSchema(EventOverviewCard).extend({
  from: z.string(),
  to: z.string(),
  /** The weekend after today (null on a Sunday: its events are today's). */
  weekend: z.object({ from: z.string(), to: z.string() }).nullable(),
  /** How many cards each group has over all pages. */
  groupTotals: z.object({ today: z.number().int(), weekend: z.number().int(), upcoming: z.number().int() }),
  /** Every tag of the window's events under the floor filter (the tag filter's choices). */
  tags: z.array(z.string()),
});
export type EventOverview = z.infer<typeof EventOverview>;

export const EventDetail = Event.extend({
  /** The next times it takes place (up to 10), from today on; an ended event has none. */
  upcoming: z.array(EventOccurrence),
});
export type EventDetail = z.infer<typeof EventDetail>;

/** The terms an admin approves before shoppers see them (as offers': docs/decisions/015). */
export const EVENT_REVIEWED_FIELDS = [
  'title',
  'description',
  'placeKind',
  'placeId',
  'allDay',
  'startDate',
  'startTime',
  'endDate',
  'endTime',
  'tags',
  'repeat',
  'status',
] as const;
export type EventReviewedField = (typeof EVENT_REVIEWED_FIELDS)[number];
export type EventProposal = Partial<z.output<typeof EventPatch>>;

export const ReviewedEvent = Event.extend({
  approved: z.boolean(),
  review: z
    .object({
      state: z.enum(['pending', 'sent_back']),
      /** A change to an approved event; null when the whole (unapproved) event is under review. */
      proposal: z.record(z.string(), z.unknown()).nullable(),
      comment: z.string().nullable(),
      submittedBy: z.string().nullable(),
      submittedAt: z.string().nullable(),
      /** What is under review, as a digest: a decision names the version the admin saw. */
      version: z.string(),
    })
    .nullable(),
});
export type ReviewedEvent = z.infer<typeof ReviewedEvent>;
export const ReviewedEventList = z.object({ items: z.array(ReviewedEvent), total: z.number().int() });

export const EVENT_REVIEW_COMMENT_MAX = 1000;
const reviewedVersion = z.string('Reload the event and review it again').min(1).max(100);
export const EventApproveInput = z.strictObject({ version: reviewedVersion });
export const EventSendBackInput = z.strictObject({
  version: reviewedVersion,
  comment: requiredText(
    EVENT_REVIEW_COMMENT_MAX,
    'Say what should change',
    `Comment must be at most ${EVENT_REVIEW_COMMENT_MAX} characters`,
  ),
});

/** An event's public page. */
export function eventPath(id: string): string {
  return `/events/${id}`;
}
