// The bad-input corpus (issue #6): for every field of every writable entity, the values a careless or
// hostile client might send. Each is refused with a 4xx in the one error shape — carrying the form's own
// message in `message` and under `fields[field]` where the form has one — and nothing is written.
// Valid text in any script comes back as it was sent (NFC-normalised, zero-width spaces removed, line
// separators made newlines); text-direction controls, C1 controls and stray tag characters are refused,
// a field of one line (a name, a title, a location, a code, an email) refuses every line break inside it,
// names and titles must show something, and a category or floor name that only looks like another is a
// duplicate (docs/decisions/006 and 011).
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, DISPLAY_NAME_MAX_LENGTH } from '../../shared/account';
import type { ApiErrorBody } from '../../shared/errors';
import { AUTH_MESSAGES, IMAGE_MESSAGES, INVITE_MESSAGES } from '../../shared/errors';
import { END_NOT_AFTER_START } from '../../shared/event';
import { PIN_MESSAGE, PIN_MESSAGES } from '../../shared/floor-plan';
import { CLOSE_TIME_MESSAGE, everyDay, SAME_TIME_MESSAGE, TIME_MESSAGE } from '../../shared/hours';
import { addDays as addDaysTo } from '../../shared/hours-status';
import { MAX_IMAGE_BYTES } from '../../shared/images';
import { SYNONYM_MESSAGES } from '../../shared/insights';
import { MALL_LOGO_MESSAGE } from '../../shared/mall-profile';
import { DIRECTORY_FIELDS_REFUSED, MANAGER_INVITE_MESSAGES } from '../../shared/managers';
import { END_BEFORE_START, type Offer, type ReviewedOffer } from '../../shared/offer';
import { FLOOR_LEVEL_MESSAGE, type Place } from '../../shared/place';
import type { ShopDetail } from '../../shared/shop';
import { SESSION_COOKIE } from '../auth/sessions';
import { FORBIDDEN_KEY } from '../request-guards';
import { type Directory, openDirectory, type Table, uniqueName } from '../test/catalog-fixtures';
import {
  createTestApp,
  registerAs,
  type SignedIn,
  sessionCookie,
  type TestApp,
  uniqueEmail,
} from '../test/harness';
import { multipart, testJpeg } from '../test/images';

let t: TestApp;
let d: Directory;
/** Rows the corpus points at: a category and floor for new shops, a shop with an offer, PATCH targets. */
let fx: {
  category: Place;
  floor: Place;
  shop: ShopDetail;
  offer: Offer;
  offerOfAnotherShop: Offer;
  /** Manages `shop` (issue 14): their writes are checked against it. */
  manager: SignedIn;
  /** An offer `manager` submitted, waiting for an admin. */
  pendingOffer: ReviewedOffer;
  /** A user with an open invite to manage a shop, and its code. */
  newcomer: SignedIn;
  inviteCode: string;
  /** Changes their own display name and password (password: 'secret-password', set again each time). */
  accountHolder: SignedIn;
  targets: Record<'category' | 'floor' | 'amenity' | 'shop' | 'product' | 'offer' | 'event', { id: string }>;
};

/**
 * The day before the target offer's own start date, not today's day before: the mall's date may turn
 * between the offer's creation and the case (a CI run at the mall's midnight saw "yesterday" equal to
 * the start date, a valid change).
 */
function dayBeforeTargetOfferStarts(): string {
  const start = new Date(`${(fx.targets.offer as Offer).startDate}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() - 1);
  return start.toISOString().slice(0, 10);
}

beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  const shop = await d.shop();
  const offer = await d.offer({ shopId: shop.id });
  const manager = await d.manager(shop.id);
  const pending = await d.call(manager, 'POST', '/api/offers', {
    title: uniqueName('Pending'),
    discount: 5,
    startDate: d.today(),
    endDate: d.day(3),
    shopId: shop.id,
  });
  fx = {
    manager,
    pendingOffer: pending.json() as ReviewedOffer,
    newcomer: await registerAs(t.app, 'user'),
    accountHolder: await registerAs(t.app, 'user'),
    inviteCode: await d.managerInvite((await d.shop()).id),
    category: await d.category(),
    floor: await d.floor(),
    shop,
    offer,
    offerOfAnotherShop: await d.offer(),
    targets: {
      category: await d.category(),
      floor: await d.floor(),
      amenity: (
        await d.call(d.admin, 'POST', '/api/amenities', { floorId: (await d.floor()).id, kind: 'lift' })
      ).json(),
      shop: await d.shop(),
      product: await d.product({ shopId: shop.id, offerId: offer.id }),
      // Runs from today to today + 30 (the date cases below lean on that).
      offer: await d.offer({ shopId: shop.id }),
      // An approved event of the shop, tomorrow 10:00–12:00 (the date and time cases lean on that).
      event: (
        await d.call(d.admin, 'POST', '/api/events', {
          title: uniqueName('Event'),
          shopId: shop.id,
          placeKind: 'mall',
          allDay: false,
          startDate: d.day(1),
          startTime: '10:00',
          endDate: d.day(1),
          endTime: '12:00',
        })
      ).json(),
    },
  };
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------------
// How a case is sent and checked

/** JSON text sent as it is: what JSON.stringify cannot write (1e309) or a parser treats specially. */
class RawJson {
  constructor(readonly text: string) {}
}
const raw = (text: string) => new RawJson(text);

/** A value known only once the fixtures exist (yesterday, an offer of another shop). */
class Later {
  constructor(readonly get: () => unknown) {}
}
const later = (get: () => unknown) => new Later(get);

/** `base` with `key` set to `value`, as JSON text. */
function jsonBody(base: Record<string, unknown>, key: string, value: unknown): string {
  const resolved = value instanceof Later ? value.get() : value;
  if (!(resolved instanceof RawJson)) return JSON.stringify({ ...base, [key]: resolved });
  const { [key]: _replaced, ...rest } = base;
  const head = JSON.stringify(rest).slice(0, -1);
  return `${head}${head === '{' ? '' : ','}${JSON.stringify(key)}:${resolved.text}}`;
}

function send(as: SignedIn | null, method: 'POST' | 'PATCH' | 'PUT', url: string, body: string) {
  return t.app.inject({
    method,
    url,
    payload: body,
    headers: { 'content-type': 'application/json', ...(as ? as.headers : {}) },
  });
}

const TABLES = [
  'categories',
  'floors',
  'amenities',
  'shops',
  'products',
  'offers',
  'events',
  'users',
  'sessions',
  'sign_in_attempts',
  'shop_managers',
  'manager_invites',
  'search_synonyms',
  'insight_counts',
];

/** How many rows every table holds: a refused request must leave all of them as they were. */
async function rowCounts(): Promise<Record<string, number>> {
  const columns = TABLES.map((table) => `(select count(*)::int from ${table}) as ${table}`).join(', ');
  const result = await t.database.pool.query<Record<string, number>>(`select ${columns}`);
  return result.rows[0] ?? {};
}

interface Bad {
  label: string;
  value: unknown;
  /**
   * The form's message: the 400 carries it in `message` and under `fields[under ?? field]`. Null where
   * the form has none (zod's own wording for a wrong type, the JSON parser's refusal of `__proto__`):
   * then only a non-empty message is asserted, under `fields[field]` too when the field is a form's.
   */
  message: string | null;
  /** The field the message is filed under when it is not the one sent (start after end → endDate). */
  under?: string;
  /** 400 unless given, with its code. */
  status?: number;
  code?: string;
}

const bad = (label: string, value: unknown, message: string | null, more: Partial<Bad> = {}): Bad => ({
  label,
  value,
  message,
  ...more,
});

function expectRefused(response: LightMyRequestResponse, c: Case): void {
  expect(response.statusCode, response.body).toBe(c.status ?? 400);
  const { error } = response.json() as ApiErrorBody;
  expect(error.code).toEqual(expect.any(String));
  expect(error.message).toEqual(expect.stringMatching(/\S/));
  if (c.message !== null && c.under === '_') {
    // An unknown key is filed under `_`; a missing required field may come first in `message`.
    expect(error.code).toBe('VALIDATION');
    expect(error.fields?._).toBe(c.message);
  } else if (c.message !== null) {
    expect(error.code).toBe(c.code ?? 'VALIDATION');
    expect(error.message).toBe(c.message);
    if (error.code === 'VALIDATION') expect(error.fields?.[c.under ?? c.field]).toBe(c.message);
  } else if (Object.hasOwn(c.w.fields, c.field) && (c.status ?? 400) === 400) {
    // A refusal of the person (403) names no field: it is not the field's value that is wrong.
    expect(error.fields?.[c.field]).toEqual(expect.stringMatching(/\S/));
  }
  // A `__proto__` key must never reach Object.prototype.
  expect(({} as Record<string, unknown>).admin).toBeUndefined();
}

// ---------------------------------------------------------------------------------------------------
// The corpus, field by field

const CONTROL = 'Remove the control characters';
const BROKEN = 'Remove the broken characters';
const DIRECTION = 'Remove the text-direction control characters';
const TAGS = 'Remove the invisible tag characters';
/** Tag characters spelling `text` (U+E0020–E007E mirror ASCII): invisible, so they can hide a message. */
const tagged = (text: string) =>
  [...text].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
const CANCEL_TAG = '\u{E007F}';
const TEN_THOUSAND = 'x'.repeat(10_000);

/** Numbers, booleans, arrays, objects and null where text goes. */
const notText = (message: string | null): Bad[] => [
  bad('a number', 42, message),
  bad('true', true, message),
  bad('an array', ['a'], message),
  bad('an object', { text: 'a' }, message),
  bad('null', null, message),
];

/** Every mandatory line break of Unicode (UAX #14: BK, CR, LF, NL), and CR LF. */
const LINE_BREAKS: Array<[label: string, text: string]> = [
  ['CR LF', '\r\n'],
  ['LF', '\n'],
  ['CR', '\r'],
  ['VT', '\v'],
  ['FF', '\f'],
  ['NEL (U+0085)', '\u0085'],
  ['a line separator (U+2028)', '\u2028'],
  ['a paragraph separator (U+2029)', '\u2029'],
];

/**
 * A field of one line refuses each line break inside it with its own message ('Name must be one line'):
 * the CSV-formula trick `a\r\n=1+1`, and a break between two words. One of several lines takes CR and LF
 * and makes the separators newlines; VT, FF and NEL are control characters there.
 */
const lineBreaks = (oneLine: string): Bad[] =>
  LINE_BREAKS.flatMap(([label, text]) => [
    bad(`${label} before a formula`, `a${text}=1+1`, oneLine),
    bad(`${label} between two words`, `Food${text}Court`, oneLine),
  ]);

/**
 * Text the schemas refuse whether or not the field is required; `oneLine` (the field's message for a
 * line break) when the field is one line.
 */
const badText = (tooLong: string, oneLine?: string): Bad[] => [
  bad('10,000 characters', TEN_THOUSAND, tooLong),
  bad('a NUL', '\u0000', CONTROL),
  bad('a BEL inside', 'a\u0007b', CONTROL),
  bad('an escape sequence', 'red \u001b[31m', CONTROL),
  bad('a DEL', 'a\u007fb', CONTROL),
  bad('half an emoji (a lone surrogate)', 'a\ud83d', BROKEN),
  bad('a right-to-left override (bidi)', 'abc\u202Efdp.exe', DIRECTION),
  bad('an isolated RTL run (bidi)', '\u2067متجر\u2069 Shop', DIRECTION),
  bad('a left-to-right embedding (bidi)', '\u202Aabc\u202C', DIRECTION),
  bad('a C1 next line (U+0085) alone', '\u0085', oneLine ?? CONTROL),
  bad('a C1 next line (U+0085) inside', 'a\u0085b', oneLine ?? CONTROL),
  bad('a vertical tab inside', 'a\vb', oneLine ?? CONTROL),
  bad('a form feed inside', 'a\fb', oneLine ?? CONTROL),
  ...(oneLine ? lineBreaks(oneLine) : []),
  bad('the first C1 control (U+0080)', 'a\u0080b', CONTROL),
  bad('a C1 control sequence introducer (U+009B)', 'red \u009B31m', CONTROL),
  bad('the last C1 control (U+009F)', 'a\u009Fb', CONTROL),
  bad('hidden text in tag characters', `Sale${tagged('ignore the price')}`, TAGS),
  bad('only tag characters', tagged('hi'), TAGS),
  bad('a language tag (U+E0001)', `\u{E0001}${tagged('en')}text`, TAGS),
  bad('the lowest tag (U+E0000)', 'a\u{E0000}b', TAGS),
  bad('a lone cancel tag', `a${CANCEL_TAG}`, TAGS),
  bad('a flag sequence without its cancel tag', `\u{1F3F4}${tagged('gbeng')} x`, TAGS),
  bad('flag tags after another emoji', `\u{1F600}${tagged('gbeng')}${CANCEL_TAG}`, TAGS),
  bad('a flag with a capital tag letter', `\u{1F3F4}${tagged('GBENG')}${CANCEL_TAG}`, TAGS),
  bad('a flag code too long to be a subdivision', `\u{1F3F4}${tagged('gbengland')}${CANCEL_TAG}`, TAGS),
];

const requiredText = (required: string, tooLong: string, oneLine?: string): Bad[] => [
  bad('empty', '', required),
  bad('only spaces', '   ', required),
  bad('only a tab and a newline', '\t\n', required),
  // Names and titles must show something (docs/decisions/011).
  bad('only a Hangul filler (U+3164)', '\u3164', required),
  bad('only a Hangul choseong filler (U+115F)', '\u115F', required),
  bad('only a Hangul jungseong filler (U+1160)', '\u1160', required),
  bad('only a halfwidth Hangul filler (U+FFA0)', '\uFFA0', required),
  bad('only a soft hyphen (U+00AD)', '\u00AD', required),
  bad('only a zero-width non-joiner (U+200C)', '\u200C', required),
  bad('only a zero-width joiner (U+200D)', '\u200D', required),
  bad('only a combining grapheme joiner (U+034F)', '\u034F', required),
  bad('only a blank braille pattern (U+2800)', '\u2800', required),
  bad('only a variation selector (U+FE0F)', '\uFE0F', required),
  bad('only a left-to-right mark (U+200E)', '\u200E', required),
  bad('only a line separator (U+2028)', '\u2028', required),
  bad('only a paragraph separator (U+2029)', '\u2029', required),
  bad('only an ideographic space (U+3000)', '\u3000', required),
  bad('invisible characters and spaces, mixed', ' \u3164 \u00AD\u2800\u200C\u034F\u115F ', required),
  // Format characters and blank glyphs show nothing either (\p{Cf}, U+FFFC, U+1D159).
  bad('only an Arabic number sign (U+0600, Cf)', '\u0600', required),
  bad('only an Egyptian hieroglyph format control (U+13430)', '\u{13430}', required),
  bad('only an object replacement character (U+FFFC)', '\uFFFC', required),
  bad('only a musical null notehead (U+1D159)', '\u{1D159}', required),
  bad('only line breaks', '\r\n\u2028\r\n', required),
  ...badText(tooLong, oneLine),
  ...notText(required),
];

/** Optional text may be empty; no form shows a wrong type, so the general message (zod-config.ts). */
const optionalText = (tooLong: string, oneLine?: string): Bad[] => [
  ...badText(tooLong, oneLine),
  ...notText('Must be text'),
];
/** An external code (docs/decisions/022): optional text; null and blank clear it, so they are not bad. */
const externalCode: Bad[] = [
  ...badText('Code must be at most 64 characters', 'Code must be one line'),
  ...notText('Must be text').filter((one) => one.value !== null),
];

const id = (required: string): Bad[] => [
  bad('not a uuid', 'not-a-uuid', required),
  bad('empty', '', required),
  bad('a number', 123, required),
  bad('null', null, required),
  bad('a uuid no row has', randomUUID(), required),
];

const PRICE = 'Valid price is required';
const price: Bad[] = [
  bad('negative', -1, PRICE),
  bad('1e309 (Infinity once parsed)', raw('1e309'), PRICE),
  bad('-1e309', raw('-1e309'), PRICE),
  bad('three decimals', 12.345, 'Price can have at most 2 decimal places'),
  bad('a tiny fraction', 1e-7, 'Price can have at most 2 decimal places'),
  bad('above numeric(12,2)', 100_000_000, 'Price is too large'),
  bad('a string', '12', PRICE),
  bad('an empty string', '', PRICE),
  bad('null', null, PRICE),
  bad('an array', [12], PRICE),
  bad('true', true, PRICE),
  bad('an object', {}, PRICE),
];

const DISCOUNT = 'Discount must be between 1 and 100';
const discount: Bad[] = [
  bad('0', 0, DISCOUNT),
  bad('101', 101, DISCOUNT),
  bad('negative', -10, DISCOUNT),
  bad('a fraction', 1.5, DISCOUNT),
  bad('1e309', raw('1e309'), DISCOUNT),
  bad('a word', 'abc', DISCOUNT),
  bad('a numeric string', '50', DISCOUNT),
  bad('null', null, DISCOUNT),
];

const NOT_A_DATE = 'Enter a date as YYYY-MM-DD';
const NOT_REAL = 'Enter a real date';
const date = (required: string): Bad[] => [
  bad('February 30th', '2025-02-30', NOT_REAL),
  bad('a 13th month', '2025-13-01', NOT_REAL),
  bad('year 1899', '1899-12-31', NOT_REAL),
  bad('empty', '', required),
  bad('unpadded', '2025-1-1', NOT_A_DATE),
  bad('a timestamp', '2025-01-01T00:00:00Z', NOT_A_DATE),
  bad('null', null, required),
  bad('a number', 20250101, required),
];

const EMAIL_REQUIRED = 'Email is required';
const email: Bad[] = [
  bad('empty', '', EMAIL_REQUIRED),
  bad('only spaces', '   ', EMAIL_REQUIRED),
  bad('no @', 'person.example.com', AUTH_MESSAGES.invalidEmail),
  bad('two @', 'a@b@example.com', AUTH_MESSAGES.invalidEmail),
  bad('10,000 characters', `${TEN_THOUSAND}@example.com`, AUTH_MESSAGES.invalidEmail),
  bad('a NUL', 'a\u0000b@example.com', AUTH_MESSAGES.invalidEmail),
  bad('a BEL', 'a\u0007b@example.com', AUTH_MESSAGES.invalidEmail),
  // One line, as every email address: a break inside is an invalid address (the spec's message).
  ...LINE_BREAKS.flatMap(([label, text]) => [
    bad(`${label} inside`, `person${text}@example.com`, AUTH_MESSAGES.invalidEmail),
    bad(
      `${label} before a second address`,
      `person@example.com${text}bcc@example.com`,
      AUTH_MESSAGES.invalidEmail,
    ),
  ]),
  ...notText(EMAIL_REQUIRED),
];

const PASSWORD_REQUIRED = 'Password is required';
const PASSWORD_TOO_LONG = 'Password must be at most 128 characters';
const loginPassword: Bad[] = [
  bad('empty', '', PASSWORD_REQUIRED),
  bad('10,000 characters', TEN_THOUSAND, PASSWORD_TOO_LONG),
  ...notText(PASSWORD_REQUIRED),
];

const ROLE = 'Choose User or Admin';

/** Keys no form has, in every body: mass assignment, prototype pollution. */
const FORBIDDEN = { status: 400, code: 'FORBIDDEN_KEY' };
const unknownField = (key: string) => `Unknown field: ${key}`;
const UNKNOWN_KEYS: Array<[string, Bad]> = [
  ['extra', bad('an unknown field', 1, unknownField('extra'), { under: '_' })],
  ['id', bad('an id of our choosing', randomUUID(), unknownField('id'), { under: '_' })],
  [
    'createdAt',
    bad('a creation time of our choosing', '2000-01-01T00:00:00.000Z', unknownField('createdAt'), {
      under: '_',
    }),
  ],
  ['__proto__', bad('a __proto__ key (raw JSON)', raw('{"admin":true}'), FORBIDDEN_KEY, FORBIDDEN)],
  ['constructor', bad('a constructor key', 1, unknownField('constructor'), { under: '_' })],
  [
    'constructor',
    bad(
      'a constructor.prototype key (raw JSON)',
      raw('{"prototype":{"admin":true}}'),
      FORBIDDEN_KEY,
      FORBIDDEN,
    ),
  ],
];

// Events (issue 35): a timed event tomorrow 10:00–12:00 at the mall, of the fixtures' shop.
const EVENT_TIME = 'Enter a time as HH:MM (00:00–23:59)';
const eventBody = () => ({
  title: uniqueName('Event'),
  description: 'A morning of crafts',
  shopId: fx.shop.id,
  placeKind: 'mall',
  allDay: false,
  startDate: d.day(1),
  startTime: '10:00',
  endDate: d.day(1),
  endTime: '12:00',
  tags: ['kids'],
});
const eventTime = (required: string): Bad[] => [
  bad("25 o'clock", '25:00', EVENT_TIME),
  bad('with seconds', '10:00:00', EVENT_TIME),
  bad('a word', 'noon', EVENT_TIME),
  bad('a number', 1000, EVENT_TIME),
  bad('null on a timed event', null, required),
];
const eventFields = (): Record<string, Bad[]> => ({
  title: requiredText('Title is required', 'Title must be at most 120 characters', 'Title must be one line'),
  description: optionalText('Description must be at most 4000 characters'),
  startDate: [
    ...date('Start date is required'),
    bad(
      'after the end',
      later(() => d.day(31)),
      END_NOT_AFTER_START,
      { under: 'endDate' },
    ),
  ],
  endDate: [
    ...date('End date is required'),
    bad(
      'before the start',
      later(() => d.day(-1)),
      END_NOT_AFTER_START,
    ),
  ],
  startTime: [
    ...eventTime('Start time is required (or make it all day)'),
    bad('after the end time', '12:30', END_NOT_AFTER_START, { under: 'endDate' }),
  ],
  endTime: [
    ...eventTime('End time is required (or make it all day)'),
    bad('the start time', '10:00', END_NOT_AFTER_START, { under: 'endDate' }),
  ],
  allDay: [
    bad('a word', 'yes', 'All day is true or false'),
    bad('null', null, 'All day is true or false'),
    bad('all day with times', true, 'An all-day event has no start time', { under: 'startTime' }),
  ],
  placeKind: [
    bad('an unknown kind', 'moon', 'Where is the mall, a floor, an amenity or a shop'),
    bad('null', null, 'Where is the mall, a floor, an amenity or a shop'),
    bad('a floor, with none chosen', 'floor', 'Choose the place', { under: 'placeId' }),
  ],
  placeId: [
    bad('not a uuid', 'not-a-uuid', 'Choose the place'),
    bad('a place for the whole mall', randomUUID(), 'The whole mall has no place to choose'),
  ],
  tags: [
    bad('not a list', 'kids', 'Tags must be a list'),
    bad('a capital letter', ['Kids'], 'A tag is lowercase letters, digits and dashes (kids, late-night)', {
      under: 'tags.0',
    }),
    bad('a space', ['late night'], 'A tag is lowercase letters, digits and dashes (kids, late-night)', {
      under: 'tags.0',
    }),
    bad('31 characters', ['x'.repeat(31)], 'A tag must be at most 30 characters', { under: 'tags.0' }),
    bad('nine tags', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'], 'At most 8 tags'),
  ],
  repeat: [
    bad('daily', { freq: 'daily' }, 'Repeat is weekly or monthly', { under: 'repeat.freq' }),
    bad('no times', { freq: 'weekly', count: 0 }, 'Number of times must be between 1 and 500', {
      under: 'repeat.count',
    }),
    bad(
      'a date and a count',
      { freq: 'weekly', count: 3, until: '2099-01-01' },
      'Repeat until a date or a number of times, not both',
      {
        under: 'repeat.count',
      },
    ),
    bad(
      'until before the start',
      { freq: 'weekly', until: '2000-01-01' },
      'Repeat until must be on or after the start date',
    ),
    bad('days on a monthly repeat', { freq: 'monthly', days: ['mon'] }, 'Days are for weekly repeats', {
      under: 'repeat.days',
    }),
    bad('an unknown day', { freq: 'weekly', days: ['funday'] }, 'Unknown weekday', {
      under: 'repeat.days.0',
    }),
    bad('an exception that is no date', { freq: 'weekly', except: ['soon'] }, 'Enter a date as YYYY-MM-DD', {
      under: 'repeat.except.0',
    }),
    bad('an unknown key', { freq: 'weekly', hourly: true }, null),
  ],
  status: [
    bad('postponed', 'postponed', 'Status is scheduled or cancelled'),
    bad('null', null, 'Status is scheduled or cancelled'),
  ],
});

interface Writable {
  entity: string;
  url: string;
  as: () => SignedIn | null;
  /** A body the route accepts; each case changes one key of it. */
  valid: () => Record<string, unknown>;
  /** The row a PATCH case aims at; none for the auth routes. */
  target?: { table: Table; id: () => string };
  /** False where only PATCH is this person's to send (a manager and their shop). */
  creates?: boolean;
  /**
   * The method of a route that takes its body at `url` itself (one's own account: PATCH; the mall's
   * profile: PUT); POST unless given.
   */
  method?: 'POST' | 'PATCH' | 'PUT';
  /** A one-row table the route sets (the mall's profile): a refused request leaves it as it was. */
  row?: () => Promise<unknown>;
  /** Sees the answer to the valid body (a password change hands the browser a new session cookie). */
  onAccepted?: (response: LightMyRequestResponse) => void;
  fields: Record<string, Bad[]>;
}

const DIRECTORY_FIELDS = DIRECTORY_FIELDS_REFUSED;
const NOT_YOURS = { status: 403, code: 'FORBIDDEN' };
/** Structured opening hours (shared/hours.ts): each refusal names the day, interval and field. */
const weekWith = (mon: unknown) => ({ weekly: { ...everyDay('10:00', '21:00').weekly, mon } });
const HOURS_CASES: Bad[] = [
  bad('free text', 'Mon-Sun 10-21', 'Give the weekly hours'),
  bad('no weekly hours', { special: [] }, 'Give the hours of all seven weekdays', { under: 'hours.weekly' }),
  bad(
    'six weekdays',
    { weekly: { ...everyDay('10:00', '21:00').weekly, sun: undefined } },
    'Sunday: give a list of intervals',
    { under: 'hours.weekly.sun' },
  ),
  bad('a day as text', weekWith('10-21'), 'Monday: give a list of intervals', { under: 'hours.weekly.mon' }),
  bad('25:00', weekWith([{ open: '25:00', close: '26:00' }]), TIME_MESSAGE, {
    under: 'hours.weekly.mon.0.open',
  }),
  bad('10 am', weekWith([{ open: '10am', close: '21:00' }]), TIME_MESSAGE, {
    under: 'hours.weekly.mon.0.open',
  }),
  bad('24:30', weekWith([{ open: '10:00', close: '24:30' }]), CLOSE_TIME_MESSAGE, {
    under: 'hours.weekly.mon.0.close',
  }),
  bad('opens as it closes', weekWith([{ open: '10:00', close: '10:00' }]), SAME_TIME_MESSAGE, {
    under: 'hours.weekly.mon.0.close',
  }),
  bad(
    'overlapping intervals',
    weekWith([
      { open: '10:00', close: '14:00' },
      { open: '13:00', close: '18:00' },
    ]),
    'Monday: intervals overlap',
    { under: 'hours.weekly.mon.1.open' },
  ),
  bad(
    'five intervals',
    weekWith(
      [
        ['00:00', '02:00'],
        ['04:00', '06:00'],
        ['08:00', '10:00'],
        ['12:00', '14:00'],
        ['16:00', '18:00'],
      ].map(([open, close]) => ({ open, close })),
    ),
    'Monday: at most 4 intervals',
    { under: 'hours.weekly.mon' },
  ),
  bad(
    'a special day on 31 February',
    { ...everyDay('10:00', '21:00'), special: [{ date: '2026-02-31', intervals: [] }] },
    'Enter a real date',
    { under: 'hours.special.0.date' },
  ),
  bad(
    'the same special day twice',
    {
      ...everyDay('10:00', '21:00'),
      special: [
        { date: '2026-12-25', intervals: [] },
        { date: '2026-12-25', intervals: [] },
      ],
    },
    '2026-12-25 is listed twice: give each special day once',
    { under: 'hours.special.1.date' },
  ),
  bad(
    '101 special days',
    {
      ...everyDay('10:00', '21:00'),
      special: Array.from({ length: 101 }, (_, i) => ({ date: addDaysTo('2027-01-01', i), intervals: [] })),
    },
    'At most 100 special days',
    { under: 'hours.special' },
  ),
  bad('an unknown key', { ...everyDay('10:00', '21:00'), holidays: [] }, null),
  bad('a number', 42, 'Give the weekly hours'),
  // A special day's note is one line.
  ...LINE_BREAKS.map(([label, text]) =>
    bad(
      `a special day's note with ${label}`,
      {
        ...everyDay('10:00', '21:00'),
        special: [{ date: '2026-12-25', intervals: [], note: `Closed${text}=1+1` }],
      },
      'Note must be one line',
      { under: 'hours.special.0.note' },
    ),
  ),
];

const placeName = requiredText(
  'Name is required',
  'Name must be at most 60 characters',
  'Name must be one line',
);

/** A category's schema.org store type (docs/decisions/034): one of the list, spelt as the list has it. */
const STORE_TYPE = 'Choose a store type from the list';
const storeType: Bad[] = [
  bad('not in the list', 'Restaurant', STORE_TYPE),
  bad('in lower case', 'bookstore', STORE_TYPE),
  bad('padded', ' BookStore ', STORE_TYPE),
  bad('empty', '', STORE_TYPE),
  bad('null', null, STORE_TYPE),
  bad('a number', 1, STORE_TYPE),
  bad('an array', ['Store'], STORE_TYPE),
  bad('an object', { type: 'Store' }, STORE_TYPE),
];

/** The mall's profile (PUT /api/mall/profile, docs/decisions/034). */
const COUNTRY = 'Country must be a two-letter code, such as IN or GB';
const CURRENCY = 'Currency must be a three-letter code, such as INR or EUR';
const LATITUDE = 'Latitude must be a number from -90 to 90';
const LONGITUDE = 'Longitude must be a number from -180 to 180';
const PUBLIC_URL =
  'Public URL must start with https:// or http:// and name a host, such as https://mall.example.com';
const coordinate = (message: string, limit: number): Bad[] => [
  bad('past the limit', limit + 0.5, message),
  bad('past the other limit', -limit - 1, message),
  bad('a numeric string', '12.5', message),
  bad('1e309', raw('1e309'), message),
  bad('true', true, message),
  bad('an array', [12], message),
];
const mallProfileBody = () => ({
  name: uniqueName('Mall'),
  streetAddress: '26/1 Dr Rajkumar Road',
  locality: 'Bengaluru',
  region: 'Karnataka',
  postalCode: '560055',
  country: 'IN',
  phone: '+91 80 2268 2222',
  latitude: 13.011,
  longitude: 77.555,
  currency: 'INR',
  publicUrl: 'https://mall.example.com',
});

/** A search hit as a browser reports it, with `change` made to it. */
const search = (change: Record<string, unknown>) => ({
  kind: 'search',
  q: 'loo',
  shops: 0,
  products: 0,
  offers: 0,
  didYouMean: false,
  ...change,
});

const WRITABLE: Writable[] = [
  // Search synonyms (docs/decisions/035): two required lines.
  {
    entity: 'synonym',
    url: '/api/synonyms',
    as: () => d.admin,
    valid: () => ({ term: uniqueName('term'), replacement: 'toilets' }),
    fields: {
      term: requiredText(
        SYNONYM_MESSAGES.termRequired,
        SYNONYM_MESSAGES.termTooLong,
        SYNONYM_MESSAGES.termOneLine,
      ),
      replacement: requiredText(
        SYNONYM_MESSAGES.replacementRequired,
        SYNONYM_MESSAGES.replacementTooLong,
        SYNONYM_MESSAGES.replacementOneLine,
      ),
    },
  },
  // What a browser reports to insights: a list of known hits, each with its own shape (decision 035).
  {
    entity: 'insight hits',
    url: '/api/insights/hits',
    as: () => null,
    valid: () => ({ hits: [{ kind: 'open_now' }] }),
    fields: {
      hits: [
        bad('empty', [], 'No hits'),
        bad(
          'too many',
          Array.from({ length: 51 }, () => ({ kind: 'open_now' })),
          'At most 50 hits at once',
        ),
        bad('not a list', { kind: 'open_now' }, 'Must be a list'),
        bad('null', null, 'Must be a list'),
        bad('a hit of an unknown kind', [{ kind: 'visit' }], 'Unknown kind of hit', { under: 'hits.0.kind' }),
        bad('a view without an id', [{ kind: 'shop_view' }], 'Unknown item', { under: 'hits.0.id' }),
        bad('a view of no uuid', [{ kind: 'shop_view', id: 'shop-1' }], 'Unknown item', {
          under: 'hits.0.id',
        }),
        bad(
          'a view with a field too many',
          [{ kind: 'shop_view', id: randomUUID(), ip: '1.2.3.4' }],
          'Unknown field: ip',
          {
            under: 'hits.0',
          },
        ),
        bad('a search of nothing', [search({ q: '' })], 'Type something to search for', {
          under: 'hits.0.q',
        }),
        bad('a search with a negative count', [search({ shops: -1 })], 'Results must be a count', {
          under: 'hits.0.shops',
        }),
        bad('a search with a fraction', [search({ offers: 1.5 })], 'Results must be a count', {
          under: 'hits.0.offers',
        }),
        bad('a search of two lines', [search({ q: 'loo\nname' })], 'Search text must be one line', {
          under: 'hits.0.q',
        }),
        bad('a search too long', [search({ q: 'x'.repeat(101) })], 'Search text is too long', {
          under: 'hits.0.q',
        }),
      ],
    },
  },
  {
    entity: 'category',
    url: '/api/categories',
    as: () => d.admin,
    valid: () => ({ name: uniqueName('Category') }),
    target: { table: 'categories', id: () => fx.targets.category.id },
    fields: { name: placeName, schemaType: storeType },
  },
  {
    entity: 'floor',
    url: '/api/floors',
    as: () => d.admin,
    valid: () => ({ name: uniqueName('Floor') }),
    target: { table: 'floors', id: () => fx.targets.floor.id },
    fields: {
      name: placeName,
      level: [
        bad('a fraction', 1.5, FLOOR_LEVEL_MESSAGE),
        bad('a numeric string', '2', FLOOR_LEVEL_MESSAGE),
        bad('null', null, FLOOR_LEVEL_MESSAGE),
        bad('1e309', raw('1e309'), FLOOR_LEVEL_MESSAGE),
        bad('above the highest', 1000, FLOOR_LEVEL_MESSAGE),
        bad('below the lowest', -100, FLOOR_LEVEL_MESSAGE),
        bad('an array', [1], FLOOR_LEVEL_MESSAGE),
      ],
    },
  },
  {
    entity: 'amenity',
    url: '/api/amenities',
    as: () => d.admin,
    valid: () => ({ floorId: fx.floor.id, kind: 'restrooms', location: 'Beside the lifts' }),
    target: { table: 'amenities', id: () => fx.targets.amenity.id },
    fields: {
      floorId: id('Floor is required'),
      kind: [
        bad('not on the list', 'sauna', 'Choose a kind of amenity'),
        bad('in capitals', 'LIFT', 'Choose a kind of amenity'),
        bad('empty', '', 'Choose a kind of amenity'),
        bad('null', null, 'Choose a kind of amenity'),
        bad('a number', 1, 'Choose a kind of amenity'),
        bad('an array', ['lift'], 'Choose a kind of amenity'),
      ],
      location: optionalText('Location must be at most 120 characters', 'Location must be one line'),
    },
  },
  {
    entity: 'shop',
    url: '/api/shops',
    as: () => d.admin,
    valid: () => ({
      name: uniqueName('Shop'),
      description: 'Shoes and bags',
      categoryId: fx.category.id,
      floorId: fx.floor.id,
      location: 'Unit 12, east wing',
      contact: '+91 80 1234 5678',
      openingHours: '10:00–22:00',
    }),
    target: { table: 'shops', id: () => fx.targets.shop.id },
    fields: {
      name: requiredText('Name is required', 'Name must be at most 120 characters', 'Name must be one line'),
      description: optionalText('Description must be at most 2000 characters'),
      categoryId: id('Category is required'),
      floorId: id('Floor is required'),
      location: optionalText('Location must be at most 200 characters', 'Location must be one line'),
      contact: optionalText('Contact must be at most 200 characters', 'Contact must be one line'),
      openingHours: optionalText(
        'Opening hours must be at most 200 characters',
        'Opening hours must be one line',
      ),
      hours: HOURS_CASES,
      externalCode,
    },
  },
  {
    entity: 'product',
    url: '/api/products',
    as: () => d.admin,
    valid: () => ({
      name: uniqueName('Product'),
      description: 'Leather, hand stitched',
      price: 1299.5,
      category: 'Shoes',
      shopId: fx.shop.id,
      offerId: fx.offer.id,
    }),
    target: { table: 'products', id: () => fx.targets.product.id },
    fields: {
      name: requiredText('Name is required', 'Name must be at most 120 characters', 'Name must be one line'),
      description: optionalText('Description must be at most 2000 characters'),
      price,
      category: optionalText('Category must be at most 60 characters', 'Category must be one line'),
      shopId: id('Shop is required'),
      offerId: [
        bad('not a uuid', 'not-a-uuid', 'Unknown offer'),
        bad('a number', 123, 'Unknown offer'),
        // The composite foreign key answers, in its own words, under offerId.
        bad('a uuid no offer has', randomUUID(), null),
        bad(
          'an offer of another shop',
          later(() => fx.offerOfAnotherShop.id),
          "This offer is not one of the product's shop",
        ),
      ],
      externalCode,
    },
  },
  {
    entity: 'offer',
    url: '/api/offers',
    as: () => d.admin,
    valid: () => ({
      title: uniqueName('Offer'),
      description: 'On everything',
      discount: 15,
      startDate: d.today(),
      endDate: d.day(30),
      shopId: fx.shop.id,
    }),
    target: { table: 'offers', id: () => fx.targets.offer.id },
    fields: {
      title: requiredText(
        'Title is required',
        'Title must be at most 120 characters',
        'Title must be one line',
      ),
      description: optionalText('Description must be at most 2000 characters'),
      discount,
      startDate: [
        ...date('Start date is required'),
        bad(
          'after the end date',
          later(() => d.day(31)),
          END_BEFORE_START,
          { under: 'endDate' },
        ),
      ],
      endDate: [
        ...date('End date is required'),
        bad(
          'before the start date',
          later(() => dayBeforeTargetOfferStarts()),
          END_BEFORE_START,
        ),
      ],
      shopId: id('Shop is required'),
    },
  },
  {
    // A shop manager's offer: the same rules, and only for their own shop (issue 14).
    entity: 'offer (shop manager)',
    url: '/api/offers',
    as: () => fx.manager,
    valid: () => ({
      title: uniqueName('Offer'),
      discount: 15,
      startDate: d.today(),
      endDate: d.day(30),
      shopId: fx.shop.id,
    }),
    // An approved offer of the manager's shop: a refused change leaves no proposal behind either.
    target: { table: 'offers', id: () => fx.targets.offer.id },
    fields: {
      title: requiredText(
        'Title is required',
        'Title must be at most 120 characters',
        'Title must be one line',
      ),
      description: optionalText('Description must be at most 2000 characters'),
      discount,
      startDate: [
        ...date('Start date is required'),
        bad(
          'after the end date',
          later(() => d.day(31)),
          END_BEFORE_START,
          { under: 'endDate' },
        ),
      ],
      endDate: [
        ...date('End date is required'),
        bad(
          'before the start date',
          later(() => dayBeforeTargetOfferStarts()),
          END_BEFORE_START,
        ),
      ],
      shopId: [
        bad('not a uuid', 'not-a-uuid', 'Shop is required'),
        bad('empty', '', 'Shop is required'),
        bad('null', null, 'Shop is required'),
        bad('a uuid no shop has', randomUUID(), null, NOT_YOURS),
        bad(
          'another shop',
          later(() => fx.offerOfAnotherShop.shopId),
          null,
          NOT_YOURS,
        ),
      ],
    },
  },
  {
    // Events (issue 35): the mall office's, with any shop as organizer.
    entity: 'event',
    url: '/api/events',
    as: () => d.admin,
    valid: eventBody,
    target: { table: 'events', id: () => fx.targets.event.id },
    fields: {
      ...eventFields(),
      shopId: [
        bad('not a uuid', 'not-a-uuid', 'Unknown shop'),
        bad('a uuid no shop has', randomUUID(), 'Unknown shop'),
      ],
    },
  },
  {
    // A shop manager's event: the same rules, only for their own shop, and the change to an approved
    // one (the target) refused before it becomes a proposal.
    entity: 'event (shop manager)',
    url: '/api/events',
    as: () => fx.manager,
    valid: eventBody,
    target: { table: 'events', id: () => fx.targets.event.id },
    fields: {
      ...eventFields(),
      shopId: [
        bad('not a uuid', 'not-a-uuid', 'Unknown shop'),
        bad('null (a mall event)', null, null, NOT_YOURS),
        bad('a uuid no shop has', randomUUID(), null, NOT_YOURS),
        bad(
          'another shop',
          later(() => fx.offerOfAnotherShop.shopId),
          null,
          NOT_YOURS,
        ),
      ],
    },
  },
  {
    // A shop manager's own shop: its page is theirs, its place in the directory is not.
    entity: 'shop (its manager)',
    url: '/api/shops',
    as: () => fx.manager,
    valid: () => ({ contact: '+91 80 1234 5678' }),
    target: { table: 'shops', id: () => fx.shop.id },
    creates: false,
    fields: {
      description: optionalText('Description must be at most 2000 characters'),
      location: optionalText('Location must be at most 200 characters', 'Location must be one line'),
      contact: optionalText('Contact must be at most 200 characters', 'Contact must be one line'),
      openingHours: optionalText(
        'Opening hours must be at most 200 characters',
        'Opening hours must be one line',
      ),
      name: [bad('a new name', 'Renamed by the tenant', DIRECTORY_FIELDS, NOT_YOURS)],
      categoryId: [
        bad(
          'another category',
          later(() => fx.category.id),
          DIRECTORY_FIELDS,
          NOT_YOURS,
        ),
      ],
      floorId: [
        bad(
          'another floor',
          later(() => fx.floor.id),
          DIRECTORY_FIELDS,
          NOT_YOURS,
        ),
      ],
    },
  },
  {
    entity: 'send back',
    get url() {
      return `/api/offer-reviews/${fx.pendingOffer.id}/send-back`;
    },
    as: () => d.admin,
    valid: () => ({ comment: 'Please start it on Monday', version: fx.pendingOffer.review?.version }),
    fields: {
      comment: requiredText('Say what should change', 'Comment must be at most 1000 characters'),
    },
  },
  {
    entity: 'manager invite',
    url: '/api/manager-invites/accept',
    as: () => fx.newcomer,
    valid: () => ({ code: fx.inviteCode }),
    fields: {
      code: [
        bad('empty', '', MANAGER_INVITE_MESSAGES.invalid, { under: 'code' }),
        bad('65 characters', 'c'.repeat(65), MANAGER_INVITE_MESSAGES.invalid),
        bad('a space inside', 'abc def', MANAGER_INVITE_MESSAGES.invalid),
        bad('a path', '../../etc/passwd', MANAGER_INVITE_MESSAGES.invalid),
        bad('a quote', 'a"b', MANAGER_INVITE_MESSAGES.invalid),
        bad('a NUL', 'a\u0000b', MANAGER_INVITE_MESSAGES.invalid),
        bad('a number', 42, MANAGER_INVITE_MESSAGES.invalid),
        bad('null', null, MANAGER_INVITE_MESSAGES.invalid),
        bad('an array', ['code'], MANAGER_INVITE_MESSAGES.invalid),
        bad('a code no invite has', 'A'.repeat(43), MANAGER_INVITE_MESSAGES.invalid, {
          status: 403,
          code: 'INVITE_INVALID',
        }),
      ],
    },
  },
  {
    entity: 'register',
    url: '/api/auth/register',
    as: () => null,
    valid: () => ({ email: uniqueEmail('corpus'), password: 'secret-password', role: 'user' }),
    fields: {
      email,
      password: [
        bad('empty', '', PASSWORD_REQUIRED),
        bad('five characters', '12345', AUTH_MESSAGES.weakPassword),
        bad('10,000 characters', TEN_THOUSAND, PASSWORD_TOO_LONG),
        ...notText(PASSWORD_REQUIRED),
      ],
      role: [
        bad('superuser', 'superuser', ROLE),
        bad('upper case', 'ADMIN', ROLE),
        bad('empty', '', ROLE),
        bad('null', null, ROLE),
        bad('a number', 1, ROLE),
        bad('an array', ['admin'], ROLE),
        bad('admin without an invite code', 'admin', INVITE_MESSAGES.required, {
          under: 'inviteCode',
          status: 403,
          code: 'INVITE_REQUIRED',
        }),
      ],
      inviteCode: [
        bad('65 characters', 'c'.repeat(65), null),
        bad('a number', 123456, null),
        bad('null', null, null),
        bad('an object', { code: 'x' }, null),
      ],
    },
  },
  {
    entity: 'mall profile',
    url: '/api/mall/profile',
    method: 'PUT',
    as: () => d.admin,
    valid: mallProfileBody,
    row: async () => (await t.database.pool.query('select * from mall_profile')).rows,
    fields: {
      name: requiredText(
        'Mall name is required',
        'Mall name must be at most 80 characters',
        'Mall name must be one line',
      ),
      streetAddress: optionalText(
        'Street address must be at most 120 characters',
        'Street address must be one line',
      ),
      locality: optionalText('Town or city must be at most 120 characters', 'Town or city must be one line'),
      region: optionalText('Region must be at most 120 characters', 'Region must be one line'),
      postalCode: optionalText('Postal code must be at most 20 characters', 'Postal code must be one line'),
      country: [
        bad('three letters', 'IND', COUNTRY),
        bad('a digit', 'I1', COUNTRY),
        bad('a name', 'India', COUNTRY),
        bad('a line break after the code', 'IN\n=1+1', COUNTRY),
        bad('a number', 91, null),
        bad('null', null, null),
      ],
      phone: optionalText('Phone must be at most 40 characters', 'Phone must be one line'),
      latitude: [
        ...coordinate(LATITUDE, 90),
        bad('null without the longitude', null, 'Give both latitude and longitude, or neither', {
          under: 'longitude',
        }),
      ],
      longitude: coordinate(LONGITUDE, 180),
      currency: [
        bad('a word', 'RUPEE', CURRENCY),
        bad('two letters', 'IN', CURRENCY),
        bad('empty', '', CURRENCY),
        bad('a symbol', '₹', CURRENCY),
        bad('a number', 356, null),
        bad('null', null, null),
      ],
      logo: [
        bad('a file name', 'logo.png', MALL_LOGO_MESSAGE),
        bad('a URL', 'https://example.com/logo.png', MALL_LOGO_MESSAGE),
        bad('a key no stored image has', `${'A'.repeat(43)}-160x160`, MALL_LOGO_MESSAGE),
        bad('a path', '../../etc/passwd', MALL_LOGO_MESSAGE),
        bad('a number', 1, null),
      ],
      publicUrl: [
        bad('another scheme', 'ftp://mall.example.com', PUBLIC_URL),
        bad('a script', 'javascript:alert(1)', PUBLIC_URL),
        bad('no scheme', 'mall.example.com', PUBLIC_URL),
        bad('no host', 'https://', PUBLIC_URL),
        bad('a query', 'https://mall.example.com/?q=1', PUBLIC_URL),
        bad('a fragment', 'https://mall.example.com/#top', PUBLIC_URL),
        bad('credentials', 'https://admin:secret@mall.example.com', PUBLIC_URL),
        bad('a space inside', 'https://mall example.com', PUBLIC_URL),
        bad('a line break', 'https://mall.example.com\r\nSet-Cookie: x=1', PUBLIC_URL),
        bad('201 characters', `https://${'m'.repeat(189)}.com`, 'Public URL must be at most 200 characters'),
        ...notText(null),
      ],
    },
  },
  {
    entity: 'login',
    url: '/api/auth/login',
    as: () => null,
    valid: () => ({ email: d.user.user.email, password: 'secret-password' }),
    fields: { email, password: loginPassword },
  },
  {
    entity: 'display name',
    url: '/api/account',
    method: 'PATCH',
    as: () => fx.accountHolder,
    valid: () => ({ displayName: 'Asha Rao' }),
    fields: {
      displayName: [
        bad('61 characters', 'x'.repeat(DISPLAY_NAME_MAX_LENGTH + 1), ACCOUNT_MESSAGES.displayNameTooLong),
        ...badText(ACCOUNT_MESSAGES.displayNameTooLong, ACCOUNT_MESSAGES.displayNameOneLine),
        ...notText('Give a display name, or leave it empty'),
      ],
    },
  },
  {
    entity: 'password change',
    url: '/api/account/password',
    as: () => fx.accountHolder,
    // The same password again: accepted, so every case starts from the same account.
    valid: () => ({ currentPassword: 'secret-password', newPassword: 'secret-password' }),
    onAccepted: (response) => {
      const cookie = sessionCookie(response);
      fx.accountHolder = { ...fx.accountHolder, cookie, headers: { cookie: `${SESSION_COOKIE}=${cookie}` } };
    },
    fields: {
      currentPassword: [
        bad('empty', '', ACCOUNT_MESSAGES.currentPasswordRequired),
        bad('10,000 characters', TEN_THOUSAND, PASSWORD_TOO_LONG),
        ...notText(ACCOUNT_MESSAGES.currentPasswordRequired),
      ],
      newPassword: [
        bad('empty', '', PASSWORD_REQUIRED),
        bad('five characters', '12345', AUTH_MESSAGES.weakPassword),
        bad('10,000 characters', TEN_THOUSAND, PASSWORD_TOO_LONG),
        ...notText(PASSWORD_REQUIRED),
      ],
    },
  },
];

interface Case extends Bad {
  w: Writable;
  field: string;
}

/** [title, case] pairs: every field's bad values, then the unknown keys. */
function casesOf(w: Writable): Array<[string, Case]> {
  const fieldCases = Object.entries(w.fields).flatMap(([field, list]) => list.map((c) => ({ field, c })));
  const keyCases = UNKNOWN_KEYS.map(([field, c]) => ({ field, c }));
  return [...fieldCases, ...keyCases].map(({ field, c }) => [
    `${w.entity}.${field}: ${c.label}`,
    { ...c, w, field },
  ]);
}

const CREATE_CASES = WRITABLE.filter((w) => w.creates !== false).flatMap(casesOf);
const PATCH_CASES = WRITABLE.filter((w) => w.target).flatMap(casesOf);

describe('the corpus starts from bodies the routes accept', () => {
  it.each(WRITABLE.map((w) => [w.entity, w] as const))(
    '%s: the valid body is accepted',
    async (_entity, w) => {
      const method = w.creates === false ? 'PATCH' : (w.method ?? 'POST');
      const url = w.creates === false && w.target ? `${w.url}/${w.target.id()}` : w.url;
      const response = await send(w.as(), method, url, JSON.stringify(w.valid()));
      const accepted =
        ['login', 'send back', 'manager invite', 'password change'].includes(w.entity) ||
        method === 'PATCH' ||
        method === 'PUT';
      // A report of hits is counted, not created: 204.
      expect(response.statusCode, response.body).toBe(
        w.entity === 'insight hits' ? 204 : accepted ? 200 : 201,
      );
      w.onAccepted?.(response);
    },
  );
});

describe('bad input to a create is refused and writes no row', () => {
  it.each(CREATE_CASES)('POST %s', async (_title, c) => {
    const state = async () => ({ counts: await rowCounts(), row: await c.w.row?.() });
    const before = await state();
    const response = await send(
      c.w.as(),
      c.w.method ?? 'POST',
      c.w.url,
      jsonBody(c.w.valid(), c.field, c.value),
    );
    expectRefused(response, c);
    expect(await state()).toEqual(before);
  });
});

describe('bad input to an update is refused and leaves the row as it was', () => {
  it.each(PATCH_CASES)('PATCH %s', async (_title, c) => {
    const target = c.w.target;
    if (!target) throw new Error(`${c.w.entity} has no PATCH target`);
    const id = target.id();
    const before = { row: await d.row(target.table, id), counts: await rowCounts() };
    const response = await send(c.w.as(), 'PATCH', `${c.w.url}/${id}`, jsonBody({}, c.field, c.value));
    expectRefused(response, c);
    expect({ row: await d.row(target.table, id), counts: await rowCounts() }).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------
// Valid text in any script round-trips

const UNICODE: Array<{ label: string; sent: string; stored: string }> = [
  { label: 'emoji', sent: 'Gifts 😀🛍️', stored: 'Gifts 😀🛍️' },
  { label: 'a family emoji (ZWJ sequence)', sent: '👩‍👩‍👧 Kids', stored: '👩‍👩‍👧 Kids' },
  { label: 'Arabic', sent: 'متجر', stored: 'متجر' },
  { label: 'Hindi', sent: 'दुकान', stored: 'दुकान' },
  { label: 'Chinese', sent: '购物中心', stored: '购物中心' },
  { label: 'combining accents (NFD → NFC)', sent: 'Cafe\u0301 Zoe\u0308', stored: 'Café Zoë' },
  { label: 'Hangul jamo (NFD → NFC)', sent: '\u1100\u1161\u11a8 mart', stored: '\uac01 mart' },
  { label: 'right-to-left marks', sent: 'Shop \u200Fمتجر\u200F', stored: 'Shop \u200Fمتجر\u200F' },
  { label: 'a zero-width non-joiner (Persian)', sent: 'می\u200Cخواهم', stored: 'می\u200Cخواهم' },
  // A soft hyphen inside a word is a hyphenation hint, not a hidden name (docs/decisions/011).
  { label: 'a soft hyphen inside a word', sent: 'Kaffee\u00ADhaus', stored: 'Kaffee\u00ADhaus' },
  {
    label: "England's flag (an emoji tag sequence)",
    sent: `\u{1F3F4}${tagged('gbeng')}${CANCEL_TAG} Fans`,
    stored: `\u{1F3F4}${tagged('gbeng')}${CANCEL_TAG} Fans`,
  },
  { label: 'a Hangul name', sent: '한글 상점', stored: '한글 상점' },
];

const TEXT_FIELDS: Array<[entity: string, field: string]> = [
  ['category', 'name'],
  ['floor', 'name'],
  ['amenity', 'location'],
  ['shop', 'name'],
  ['shop', 'description'],
  ['shop', 'location'],
  ['shop', 'contact'],
  ['shop', 'openingHours'],
  ['product', 'name'],
  ['product', 'description'],
  ['product', 'category'],
  ['offer', 'title'],
  ['offer', 'description'],
];

const UNICODE_CASES = TEXT_FIELDS.flatMap(([entity, field]) =>
  UNICODE.map((u) => [`${entity}.${field}: ${u.label}`, { ...u, entity, field }] as const),
);

describe('valid unicode round-trips through create and read', () => {
  it('the NFD samples really are not NFC', () => {
    for (const u of UNICODE) expect(u.sent.normalize('NFC')).toBe(u.stored);
    expect(UNICODE.filter((u) => u.sent !== u.stored)).toHaveLength(2);
  });

  it.each(UNICODE_CASES)('%s', async (_title, { entity, field, sent, stored }) => {
    const w = WRITABLE.find((candidate) => candidate.entity === entity);
    if (!w) throw new Error(`no writable entity ${entity}`);
    const createdResponse = await send(w.as(), 'POST', w.url, jsonBody(w.valid(), field, sent));
    expect(createdResponse.statusCode, createdResponse.body).toBe(201);
    const created = createdResponse.json() as Record<string, unknown>;
    expect(created[field]).toBe(stored);
    const read = await d.call(d.user, 'GET', `${w.url}/${created.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect((read.json() as Record<string, unknown>)[field]).toBe(stored);
  });
});

describe('invisible characters', () => {
  it('removes zero-width spaces, so "Fash\\u200Bion" is the same name as "Fashion"', async () => {
    const name = `Zero Width ${randomUUID().slice(0, 6)}`;
    const first = await d.call(d.admin, 'POST', '/api/categories', { name });
    expect(first.statusCode, first.body).toBe(201);
    const hidden = `${name.slice(0, 4)}\u200B${name.slice(4)}\uFEFF`;
    const second = await d.call(d.admin, 'POST', '/api/categories', { name: hidden });
    expect(second.statusCode).toBe(409);
    const shop = await d.call(d.admin, 'POST', '/api/shops', {
      name: `\u2060Word\u200BJoiner ${name}`,
      categoryId: first.json().id,
      floorId: (await d.floor()).id,
    });
    expect(shop.statusCode, shop.body).toBe(201);
    expect(shop.json().name).toBe(`WordJoiner ${name}`);
  });

  it('finds a name when the search text carries a zero-width space', async () => {
    const found = await d.call(d.user, 'GET', `/api/shops?q=${encodeURIComponent('Word\u200BJoiner')}`);
    expect(found.statusCode).toBe(200);
    expect(found.json().total).toBeGreaterThan(0);
  });
});

/** The fields of several lines: every other text field is one line, and refuses a line break. */
const MULTI_LINE_FIELDS = new Set(['shop.description', 'product.description', 'offer.description']);

describe('line and paragraph separators become newlines where a field has several lines', () => {
  it.each(
    TEXT_FIELDS.filter(([entity, field]) => MULTI_LINE_FIELDS.has(`${entity}.${field}`)).map(
      ([entity, field]) => [`${entity}.${field}`, entity, field] as const,
    ),
  )('%s', async (_title, entity, field) => {
    const w = WRITABLE.find((candidate) => candidate.entity === entity);
    if (!w) throw new Error(`no writable entity ${entity}`);
    const text = `Line ${randomUUID().slice(0, 8)}`;
    const response = await send(
      w.as(),
      'POST',
      w.url,
      jsonBody(w.valid(), field, `${text}\u2028two\u2029three\u2028`),
    );
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json() as Record<string, unknown>;
    expect(created[field]).toBe(`${text}\ntwo\nthree`);
    expect(await d.row(w.target?.table ?? 'categories', String(created.id))).toMatchObject({
      [field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]: `${text}\ntwo\nthree`,
    });
  });
});

describe('a field of one line refuses separators and CR LF, and stores nothing', () => {
  const CASES = TEXT_FIELDS.filter(([entity, field]) => !MULTI_LINE_FIELDS.has(`${entity}.${field}`)).flatMap(
    ([entity, field]) =>
      [
        ['separators', '\u2028two\u2029three'],
        ['CR LF and a formula', '\r\n=1+1'],
      ].map(([label, tail]) => [`${entity}.${field}: ${label}`, entity, field, tail as string] as const),
  );
  it.each(CASES)('%s', async (_title, entity, field, tail) => {
    const w = WRITABLE.find((candidate) => candidate.entity === entity);
    if (!w) throw new Error(`no writable entity ${entity}`);
    const before = await rowCounts();
    const response = await send(
      w.as(),
      'POST',
      w.url,
      jsonBody(w.valid(), field, `Line ${randomUUID().slice(0, 8)}${tail}`),
    );
    expect(response.statusCode, response.body).toBe(400);
    const { error } = response.json() as ApiErrorBody;
    expect(error.message).toMatch(/ must be one line$/);
    expect(error.fields?.[field]).toBe(error.message);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('a category or floor name that only looks like another is a duplicate (docs/decisions/011)', () => {
  const LOOK_ALIKES: Array<[label: string, spell: (word: string) => string]> = [
    ['in capitals', (word) => word.toUpperCase()],
    ['with a soft hyphen', (word) => `${word}\u00AD`],
    ['with a zero-width non-joiner inside', (word) => `${word.slice(0, 4)}\u200C${word.slice(4)}`],
    ['with a combining grapheme joiner inside', (word) => `${word.slice(0, 4)}\u034F${word.slice(4)}`],
    ['with a Hangul filler inside', (word) => `${word.slice(0, 4)}\u3164${word.slice(4)}`],
    ['with a fullwidth capital', (word) => `\uFF25${word.slice(1)}`],
    ['with a Cyrillic dze for the s', (word) => `${word.slice(0, -1)}\u0455`],
    ['with a Greek capital epsilon', (word) => `\u0395${word.slice(1)}`],
    ['in capitals with Cyrillic ones among them', (word) => word.toUpperCase().replace(/E/g, '\u0415')],
    // Characters that show nothing, by class: format characters (\p{Cf}) and blank glyphs.
    ['with a trailing blank braille pattern (U+2800)', (word) => `${word}\u2800`],
    ['with an Egyptian hieroglyph format control (U+13430)', (word) => `${word}\u{13430}`],
    ['with an Arabic number sign (U+0600)', (word) => `${word}\u0600`],
    ['with an Arabic end of ayah (U+06DD)', (word) => `${word}\u06DD`],
    ['with a Syriac abbreviation mark (U+070F)', (word) => `${word}\u070F`],
    ['with an Arabic disputed end of ayah (U+08E2)', (word) => `${word}\u08E2`],
    ['with a Kaithi number sign (U+110BD)', (word) => `${word}\u{110BD}`],
    ['with an object replacement character (U+FFFC)', (word) => `${word}\uFFFC`],
    ['with a musical null notehead (U+1D159)', (word) => `${word}\u{1D159}`],
    [
      'with an interlinear annotation anchor inside (U+FFF9)',
      (word) => `${word.slice(0, 4)}\uFFF9${word.slice(4)}`,
    ],
    ['with two spaces before the suffix', (word) => `${word} `],
  ];
  const CASES = (['category', 'floor'] as const).flatMap((entity) =>
    LOOK_ALIKES.map(([label, spell]) => [`${entity}: ${label}`, entity, spell] as const),
  );

  it.each(CASES)('POST %s: 409 DUPLICATE, no row written', async (_title, entity, spell) => {
    const w = WRITABLE.find((candidate) => candidate.entity === entity);
    if (!w) throw new Error(`no writable entity ${entity}`);
    const suffix = ` ${randomUUID().slice(0, 8)}`;
    const original = await send(w.as(), 'POST', w.url, JSON.stringify({ name: `Electronics${suffix}` }));
    expect(original.statusCode, original.body).toBe(201);
    const before = await rowCounts();
    const message = `A ${entity} with this name already exists`;
    const response = await send(
      w.as(),
      'POST',
      w.url,
      JSON.stringify({ name: `${spell('Electronics')}${suffix}` }),
    );
    expect(response.statusCode, response.body).toBe(409);
    const { error } = response.json() as ApiErrorBody;
    expect(error).toMatchObject({ code: 'DUPLICATE', message, fields: { name: message } });
    expect(await rowCounts()).toEqual(before);
  });

  it.each(CASES)('PATCH %s: 409 DUPLICATE, the row as it was', async (_title, entity, spell) => {
    const w = WRITABLE.find((candidate) => candidate.entity === entity);
    const target = w?.target;
    if (!w || !target) throw new Error(`no writable entity ${entity}`);
    const suffix = ` ${randomUUID().slice(0, 8)}`;
    const original = await send(w.as(), 'POST', w.url, JSON.stringify({ name: `Electronics${suffix}` }));
    expect(original.statusCode, original.body).toBe(201);
    const before = { row: await d.row(target.table, target.id()), counts: await rowCounts() };
    const response = await send(
      w.as(),
      'PATCH',
      `${w.url}/${target.id()}`,
      JSON.stringify({ name: `${spell('Electronics')}${suffix}` }),
    );
    expect(response.statusCode, response.body).toBe(409);
    expect((response.json() as ApiErrorBody).error.code).toBe('DUPLICATE');
    expect({ row: await d.row(target.table, target.id()), counts: await rowCounts() }).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------
// The mall-wide search's query string (GET /api/search, docs/decisions/016)

describe('bad search text is refused with the message the search box shows', () => {
  const TOO_LONG = 'Search text must be at most 100 characters';
  const REQUIRED = 'Type something to search for';
  const CASES: Array<[label: string, query: string, message: string | null]> = [
    ['no q', '', REQUIRED],
    ['an empty q', 'q=', REQUIRED],
    ['only spaces', 'q=%20%20%20', REQUIRED],
    ['only a zero-width space', `q=${encodeURIComponent('\u200B')}`, REQUIRED],
    ['101 characters', `q=${'a'.repeat(101)}`, TOO_LONG],
    ['10,000 characters', `q=${'a'.repeat(10_000)}`, TOO_LONG],
    ['a control character', `q=${encodeURIComponent('tea\u0007')}`, 'Remove the control characters'],
    [
      'a text-direction control',
      `q=${encodeURIComponent('tea\u202E')}`,
      'Remove the text-direction control characters',
    ],
    ['q twice', 'q=tea&q=coffee', null],
    ['an unknown kind', 'q=tea&kind=people', 'Kind must be shops, products or offers'],
    ['page 0', 'q=tea&kind=shops&page=0', null],
    ['page past 100', 'q=tea&kind=shops&page=101', null],
    ['a page size of 101', 'q=tea&pageSize=101', null],
    ['an unknown parameter', 'q=tea&sort=name', null],
  ];
  it.each(CASES)('%s: 400', async (_label, query, message) => {
    const response = await d.call(d.user, 'GET', `/api/search?${query}`);
    expect(response.statusCode, response.body).toBe(400);
    const { error } = response.json() as ApiErrorBody;
    expect(error.code).toBe('VALIDATION');
    if (message) expect(error.message).toBe(message);
  });
});

// ---------------------------------------------------------------------------------------------------
// The events' public reads (issue 35): the list, the events page's cards, the feeds

describe("bad query strings on the events' reads are refused with their message, for every read", () => {
  const TAG = 'A tag is lowercase letters, digits and dashes (kids, late-night)';
  const CASES: Array<[label: string, routes: string[], query: string, message: string | null]> = [
    ['a tag in capitals', ['', '/overview', '/calendar.ics', '/feed.json'], 'tag=Kids', TAG],
    ['a tag with a space', ['', '/overview', '/calendar.ics', '/feed.json'], 'tag=late%20night', TAG],
    [
      'a tag of 10,000 characters',
      ['', '/overview', '/calendar.ics', '/feed.json'],
      `tag=${'a'.repeat(10_000)}`,
      null,
    ],
    ['a tag twice', ['', '/overview', '/calendar.ics', '/feed.json'], 'tag=kids&tag=music', null],
    ['a floor that is not an id', ['', '/overview'], 'floorId=ground', 'Unknown floor'],
    [
      'a shop that is not an id',
      ['', '/overview', '/calendar.ics', '/feed.json'],
      'shopId=pixel-point',
      'Unknown shop',
    ],
    ['page 0', ['', '/overview'], 'page=0', null],
    ['page -1', ['', '/overview'], 'page=-1', null],
    ['page 1.5', ['', '/overview'], 'page=1.5', null],
    ['a page past 100,000', ['', '/overview'], 'page=100001', null],
    ['a window the page does not take', ['/overview'], 'from=2026-01-01', null],
    ['a page size the page does not take', ['/overview'], 'pageSize=100', null],
    ['a date that is not one', [''], 'from=soon', 'Enter a date as YYYY-MM-DD'],
    ['a day no month has', [''], 'from=2026-02-30', 'Enter a real date'],
    ['to before from', [''], 'from=2026-03-02&to=2026-03-01', 'To must be on or after from'],
    ['a window of 401 days', [''], 'from=2026-01-01&to=2027-02-06', 'At most 400 days at a time'],
    ['an unknown parameter', ['', '/overview', '/calendar.ics', '/feed.json'], 'sort=title', null],
  ];
  const cases = CASES.flatMap(([label, routes, query, message]) =>
    routes.map(
      (route) => [`/api/events${route}?${query.slice(0, 40)}: ${label}`, route, query, message] as const,
    ),
  );
  it.each(cases)('%s: 400', async (_title, route, query, message) => {
    const before = await d.count('events');
    const response = await d.call(null, 'GET', `/api/events${route}?${query}`);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
    const { error } = response.json() as ApiErrorBody;
    expect(error.code).toBe('VALIDATION');
    if (message) expect(error.message).toBe(message);
    expect(await d.count('events')).toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------------
// Insights' reads (issue 34, docs/decisions/035): the mall's report and a shop's numbers

describe("bad query strings on insights' reads are refused with their message, for both reads", () => {
  const BOTH = ['', '/shops/:id'];
  const CASES: Array<[label: string, routes: string[], query: string, message: string | null]> = [
    ['a date that is not one', BOTH, 'from=soon', 'Enter a date as YYYY-MM-DD'],
    ['a day no month has', BOTH, 'from=2026-02-30', 'Enter a real date'],
    ['an end on a day no month has', BOTH, 'to=2026-13-01', 'Enter a real date'],
    ['to before from', BOTH, 'from=2026-03-02&to=2026-03-01', 'From must be before To'],
    ['a range of 367 days', BOTH, 'from=2026-01-01&to=2027-01-02', 'A range of at most 366 days'],
    ['a date twice', BOTH, 'from=2026-03-01&from=2026-03-02', null],
    ['an unknown parameter', BOTH, 'sort=views', null],
  ];
  const cases = CASES.flatMap(([label, routes, query, message]) =>
    routes.map((route) => [`/api/insights${route}?${query}: ${label}`, route, query, message] as const),
  );
  it.each(cases)('%s: 400', async (_title, route, query, message) => {
    // Nothing counted waits to be written: a flush now cannot land between the two counts.
    await t.app.insights?.flush();
    const before = await rowCounts();
    const url = `/api/insights${route.replace(':id', fx.shop.id)}?${query}`;
    const response = await d.call(d.admin, 'GET', url);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
    const { error } = response.json() as ApiErrorBody;
    expect(error.code).toBe('VALIDATION');
    if (message) expect(error.message).toBe(message);
    expect(await rowCounts()).toEqual(before);
  });

  it('a shop id that cannot be one: 404 "Shop not found", as for every path id', async () => {
    const before = await rowCounts();
    for (const as of [d.admin, fx.manager]) {
      const response = await d.call(as, 'GET', '/api/insights/shops/not-a-uuid');
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Shop not found' } });
    }
    expect(await rowCounts()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------
// Import files (POST /api/imports, docs/decisions/022): a file that cannot be read is a 4xx naming why

describe('a bad import file is refused with its reason, never a 5xx, and stores no run', () => {
  const HEADER = 'shop,name,price\n';
  const CASES: Array<[label: string, body: string | Buffer, type: string, status: number, message: string]> =
    [
      ['an empty file', Buffer.alloc(0), 'text/csv', 400, ''],
      [
        'a Windows-1252 file',
        Buffer.from([...Buffer.from(HEADER), 0x43, 0x61, 0x66, 0xe9, 0x2c, 0x31, 0x0a]),
        'text/csv',
        400,
        'The file is not UTF-8 text (line 2 is not)',
      ],
      [
        'a UTF-16 file',
        Buffer.from('\ufeffshop,name', 'utf16le'),
        'text/csv',
        400,
        'The file is UTF-16 text',
      ],
      ['semicolons', 'shop;name;price\nA;b;1\n', 'text/csv', 400, 'The columns are separated by semicolons'],
      ['tabs', 'shop\tname\tprice\n', 'text/csv', 400, 'The columns are separated by tabs'],
      ['an unknown column', 'shop,name,price,colour\n', 'text/csv', 400, 'Unknown column: colour'],
      ['a missing column', 'shop,name\n', 'text/csv', 400, 'Missing column: price'],
      ['no shop column', 'name,price\n', 'text/csv', 400, 'Missing column: shop or shop_code'],
      ['a column twice', 'shop,name,name,price\n', 'text/csv', 400, 'Column name appears twice'],
      ['a quote left open', `${HEADER}"A,b,1\n`, 'text/csv', 400, 'A quote opened on line 2 is never closed'],
      ['a row with too few cells', `${HEADER}A,b\n`, 'text/csv', 400, 'Line 2 has 2 cells; the header has 3'],
      ['JSON instead of CSV', '{"name":"x"}', 'application/json', 400, ''],
      ['plain text', HEADER, 'text/plain', 415, ''],
      ['a file over 40 MB', Buffer.alloc(40 * 1024 * 1024 + 1, 0x61), 'text/csv', 413, ''],
    ];
  // The kinds added to the pipeline (docs/decisions/038): their own required columns.
  const KIND_CASES: Array<[kind: string, body: string, message: string]> = [
    ['events', 'title,all_day,start_date,end_date\n', 'Missing column: place_kind'],
    ['events', 'title,place_kind,all_day,start_date,end_date,organizer\n', 'Unknown column: organizer'],
    ['events', 'title;place_kind;all_day;start_date;end_date\n', 'The columns are separated by semicolons'],
    ['synonyms', 'term\nloo\n', 'Missing column: replacement'],
    ['synonyms', 'term,replacement,replacement\n', 'Column replacement appears twice'],
    ['synonyms', 'term,replacement\n"loo,toilets\n', 'A quote opened on line 2 is never closed'],
  ];
  it.each(KIND_CASES)('%s: %s', async (kind, body, message) => {
    const before = await d.count('import_runs' as Table);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/imports?kind=${kind}`,
      headers: { ...d.admin.headers, 'content-type': 'text/csv' },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect((response.json() as ApiErrorBody).error.message).toContain(message);
    expect(await d.count('import_runs' as Table)).toBe(before);
  });

  it.each(CASES)('%s', async (_label, body, type, status, message) => {
    const before = await d.count('import_runs' as Table);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/imports?kind=products',
      headers: { ...d.admin.headers, 'content-type': type },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(status);
    const { error } = response.json() as ApiErrorBody;
    expect(error.message).toContain(message);
    expect(await d.count('import_runs' as Table)).toBe(before);
  });

  it.each([
    ['an unknown kind', 'kind=people', 'Kind must be shops, products, offers, events or synonyms'],
    ['no kind', '', 'Kind must be shops, products, offers, events or synonyms'],
    [
      'a 201-character file name',
      `kind=shops&fileName=${'f'.repeat(201)}`,
      'File name must be at most 200 characters',
    ],
    ...LINE_BREAKS.map(
      ([label, text]) =>
        [
          `a file name with ${label} inside`,
          `kind=shops&fileName=${encodeURIComponent(`shops${text}=1+1.csv`)}`,
          'File name must be one line',
        ] as [string, string, string],
    ),
  ])('%s in the query: 400', async (_label, query, message) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/imports?${query}`,
      headers: { ...d.admin.headers, 'content-type': 'text/csv' },
      payload: 'name,category,floor\n',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect((response.json() as ApiErrorBody).error.message).toBe(message);
  });

  it('a confirm body that is not a yes or no: 400', async () => {
    const response = await d.call(d.admin, 'POST', `/api/imports/${randomUUID()}/confirm`, {
      validOnly: 'yes',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect((response.json() as ApiErrorBody).error.message).toBe(
      'Choose whether to import the valid rows only',
    );
  });
});

// Image uploads (docs/decisions/020): what a careless or hostile client sends instead of one image

describe('a bad upload is refused in words a person understands, and writes nothing', () => {
  type Upload = { payload: Buffer | string; headers: Record<string, string> };
  const jpegUpload = async (options?: Parameters<typeof multipart>[1]) =>
    multipart(await testJpeg(), options);
  const CASES: Array<
    [label: string, build: () => Promise<Upload>, status: number, code: string, message: string]
  > = [
    [
      'a PDF named .jpg',
      async () => multipart(Buffer.from('%PDF-1.4 not a picture'), { filename: 'photo.jpg' }),
      422,
      'INVALID_IMAGE',
      IMAGE_MESSAGES.notAnImage,
    ],
    [
      'an SVG (script-capable, never decoded)',
      async () =>
        multipart(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="99" height="99"/>'), {
          type: 'image/svg+xml',
        }),
      422,
      'INVALID_IMAGE',
      IMAGE_MESSAGES.notAnImage,
    ],
    [
      'over 10 MB',
      async () => multipart(Buffer.concat([await testJpeg(), Buffer.alloc(MAX_IMAGE_BYTES)])),
      413,
      'FILE_TOO_LARGE',
      IMAGE_MESSAGES.tooLarge,
    ],
    [
      'the file in another field',
      () => jpegUpload({ field: 'photo' }),
      400,
      'WRONG_FIELD',
      IMAGE_MESSAGES.wrongField,
    ],
    [
      'a form with no file',
      async () => {
        const { headers } = multipart(Buffer.alloc(0));
        const boundary = String(headers['content-type']).split('boundary=')[1];
        return { payload: `--${boundary}--\r\n`, headers };
      },
      400,
      'NO_FILE',
      IMAGE_MESSAGES.noFile,
    ],
    [
      'two files',
      async () => {
        const one = multipart(await testJpeg());
        const boundary = String(one.headers['content-type']).split('boundary=')[1];
        const closing = `--${boundary}--\r\n`;
        // The same part twice, then the closing boundary.
        const part = one.payload.subarray(0, one.payload.length - closing.length);
        return { payload: Buffer.concat([part, part, Buffer.from(closing)]), headers: one.headers };
      },
      400,
      'ONE_FILE',
      IMAGE_MESSAGES.oneFile,
    ],
    [
      'a text field beside the file',
      async () => multipart(await testJpeg(), {}, { caption: 'hello' }),
      400,
      'ONE_FILE',
      IMAGE_MESSAGES.oneFile,
    ],
    [
      'JSON instead of a form',
      async () => ({
        payload: '{"file":"x"}',
        headers: { 'content-type': 'application/json', 'x-mall-upload': '1' },
      }),
      415,
      'NOT_MULTIPART',
      IMAGE_MESSAGES.noFile,
    ],
    [
      'no X-Mall-Upload header (a cross-site form could send this body)',
      async () => {
        const { payload, headers } = await jpegUpload();
        return { payload, headers: { 'content-type': String(headers['content-type']) } };
      },
      403,
      'UPLOAD_HEADER',
      IMAGE_MESSAGES.uploadHeader,
    ],
    [
      'from another site',
      async () => {
        const upload = await jpegUpload();
        return { ...upload, headers: { ...upload.headers, 'sec-fetch-site': 'cross-site' } };
      },
      403,
      'CROSS_SITE',
      'This request came from another site and was refused',
    ],
  ];
  it.each(CASES)('%s', async (_label, build, status, code, message) => {
    const shop = fx.shop;
    const before = {
      row: await d.row('shops', shop.id),
      counts: await rowCounts(),
      stored: await t.app.imageStore.count(),
    };
    const { payload, headers } = await build();
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/shops/${shop.id}/logo`,
      payload,
      headers: { ...headers, ...d.admin.headers },
    });
    expect(response.statusCode, response.body).toBe(status);
    const { error } = response.json() as ApiErrorBody;
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    expect({
      row: await d.row('shops', shop.id),
      counts: await rowCounts(),
      stored: await t.app.imageStore.count(),
    }).toEqual(before);
  });
});

describe('bad pins on a floor plan are refused with the message the admin sees, and change nothing', () => {
  /** A floor with a plan and a pinned shop; a shop on another floor. */
  let plan: {
    floorId: string;
    shopId: string;
    otherShopId: string;
    otherShopName: string;
    floorName: string;
  };
  beforeAll(async () => {
    const floor = await d.floor();
    const { payload, headers } = multipart(await testJpeg());
    const uploaded = await t.app.inject({
      method: 'PUT',
      url: `/api/floors/${floor.id}/plan`,
      payload,
      headers: { ...headers, ...d.admin.headers },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const shop = await d.shop({ floorId: floor.id });
    const other = await d.shop();
    const placed = await d.call(d.admin, 'PUT', `/api/floors/${floor.id}/pins`, {
      pins: [{ kind: 'shop', id: shop.id, pin: { x: 0.25, y: 0.75 } }],
    });
    expect(placed.statusCode, placed.body).toBe(200);
    plan = {
      floorId: floor.id,
      floorName: floor.name,
      shopId: shop.id,
      otherShopId: other.id,
      otherShopName: other.name,
    };
  });
  const one = (pin: unknown, more: Record<string, unknown> = {}) => ({
    pins: [{ kind: 'shop', id: later(() => plan.shopId), pin, ...more }],
  });
  const CASES: Array<[label: string, body: () => unknown, message: () => string]> = [
    ['x above 1', () => one({ x: 1.5, y: 0.5 }), () => PIN_MESSAGE],
    ['y below 0', () => one({ x: 0.5, y: -0.01 }), () => PIN_MESSAGE],
    ['x only', () => one({ x: 0.5 }), () => PIN_MESSAGE],
    ['y null', () => one({ x: 0.5, y: null }), () => PIN_MESSAGE],
    ['a numeric string', () => one({ x: '0.5', y: 0.5 }), () => PIN_MESSAGE],
    ['"NaN"', () => one({ x: 'NaN', y: 0.5 }), () => PIN_MESSAGE],
    ['an array', () => one([0.5, 0.5]), () => PIN_MESSAGE],
    ['an extra coordinate', () => one({ x: 0.5, y: 0.5, z: 1 }), () => PIN_MESSAGE],
    ['no pin field', () => ({ pins: [{ kind: 'shop', id: plan.shopId }] }), () => PIN_MESSAGE],
    ['an unknown kind', () => one(null, { kind: 'kiosk' }), () => PIN_MESSAGES.kind],
    ['an id that is no uuid', () => one(null, { id: '42' }), () => PIN_MESSAGES.id],
    ['no pins', () => ({ pins: [] }), () => PIN_MESSAGES.list],
    ['pins not a list', () => ({ pins: { x: 0.5 } }), () => PIN_MESSAGES.list],
    [
      'a shop of another floor',
      () => ({ pins: [{ kind: 'shop', id: plan.otherShopId, pin: { x: 0.5, y: 0.5 } }] }),
      () => `${plan.otherShopName} is not on ${plan.floorName}: its pin goes on its own floor's plan`,
    ],
  ];
  it.each(CASES)('%s', async (_label, build, message) => {
    const before = { shop: await d.row('shops', plan.shopId), counts: await rowCounts() };
    const body = JSON.parse(
      JSON.stringify(build(), (_key, value) => (value instanceof Later ? value.get() : value)),
    );
    const response = await d.call(d.admin, 'PUT', `/api/floors/${plan.floorId}/pins`, body);
    expect(response.statusCode, response.body).toBe(400);
    const { error } = response.json() as ApiErrorBody;
    expect(error.message).toBe(message());
    expect({ shop: await d.row('shops', plan.shopId), counts: await rowCounts() }).toEqual(before);
  });
  it('1e309 (Infinity once parsed) is refused too', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/floors/${plan.floorId}/pins`,
      payload: `{"pins":[{"kind":"shop","id":"${plan.shopId}","pin":{"x":1e309,"y":0.5}}]}`,
      headers: { 'content-type': 'application/json', ...d.admin.headers },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect((response.json() as ApiErrorBody).error.message).toBe(PIN_MESSAGE);
  });
});

// ---------------------------------------------------------------------------------------------------
// The public directory's reads (docs/decisions/034): a shop by its address (the API and the page), the
// sitemap's files, robots.txt. Whatever address is asked, the answer is the shop, a 301 to it, or a 4xx
// in the one error shape (the shop page's own 404 page), never a 5xx; nothing is written. Query strings
// full of junk on the pages: pages/public-pages.api.test.ts.

describe("bad addresses on the public directory's reads: never a 5xx, nothing written", () => {
  const ADDRESSES: Array<[label: string, address: string]> = [
    ['an unknown slug', 'no-such-shop'],
    ['an unknown id', randomUUID()],
    ['upper case', 'NO-SUCH-SHOP'],
    ['a space', 'no%20such'],
    ['a NUL', '%00'],
    ['a control character', 'shop%07'],
    ['a text-direction control', `shop${encodeURIComponent('\u202E')}`],
    ['a lone surrogate, encoded', 'shop%ED%A0%80'],
    ['bad percent-encoding', 'shop%E0%A4%A'],
    ['a lone percent', '%'],
    ['an encoded slash', '..%2F..%2Fapi%2Fhealth'],
    ['markup', encodeURIComponent('<script>alert(1)</script>')],
    ['SQL', encodeURIComponent("x' or '1'='1")],
    ['unicode', encodeURIComponent('café-☕')],
    ['100 characters', 'x'.repeat(100)],
    ['201 characters', 'x'.repeat(201)],
    ['a query only', '?page=2'],
  ];
  const errorShape = (response: LightMyRequestResponse) => {
    const { error } = response.json() as ApiErrorBody;
    expect(error.code).toEqual(expect.any(String));
    expect(error.message).toEqual(expect.stringMatching(/\S/));
  };

  it.each(ADDRESSES)('GET /api/shops/by-slug/ with %s: 4xx in the one shape', async (_label, address) => {
    const before = await rowCounts();
    for (const as of [null, d.user]) {
      const response = await d.call(as, 'GET', `/api/shops/by-slug/${address}`);
      expect([400, 404, 414], response.body).toContain(response.statusCode);
      errorShape(response);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it.each(ADDRESSES)(
    'GET /shops/ with %s: the 404 page, a redirect or a 4xx, never a 5xx',
    async (_label, address) => {
      const response = await t.app.inject({ method: 'GET', url: `/shops/${address}` });
      expect(response.statusCode, response.body.slice(0, 200)).toBeLessThan(500);
      if (response.statusCode === 404 && String(response.headers['content-type']).startsWith('text/html'))
        expect(response.body).toContain('<title>Shop not found');
      else if (response.statusCode === 301) expect(response.headers.location).toMatch(/^\/shops(\/|\?|$)/);
      else {
        expect([400, 404, 414]).toContain(response.statusCode);
        errorShape(response);
      }
      expect(response.body).not.toContain('<script>alert(1)</script>');
    },
  );

  it('finds a shop by its slug or id whatever else is asked, and follows a rename', async () => {
    const shop = await d.shop();
    expect((await d.call(null, 'GET', `/api/shops/by-slug/${shop.slug}`)).json().id).toBe(shop.id);
    expect((await d.call(null, 'GET', `/api/shops/by-slug/${shop.id}`)).json().slug).toBe(shop.slug);
    // The slug's own characters only: another spelling is another address.
    expect((await d.call(null, 'GET', `/api/shops/by-slug/${shop.slug.toUpperCase()}`)).statusCode).toBe(404);
    expect((await d.call(null, 'GET', `/api/shops/by-slug/${shop.slug}%20`)).statusCode).toBe(404);
  });

  // A number written otherwise than plainly is no file; nor is any number while the sitemap is one file.
  it.each(['0', '01', '-1', '1e3', '1.0', 'abc', '9999999', '%31', '1', '2', '999999'])(
    'GET /sitemap-%s.xml: 404 No such sitemap',
    async (n) => {
      const response = await t.app.inject({ method: 'GET', url: `/sitemap-${n}.xml` });
      expect(response.statusCode, response.body).toBe(404);
      expect((response.json() as ApiErrorBody).error).toEqual({
        code: 'NOT_FOUND',
        message: 'No such sitemap',
      });
    },
  );

  it('answers robots.txt and the sitemap whatever the query string', async () => {
    for (const query of ['', '?x=1', `?${'y'.repeat(5000)}`, '?%zz', '?a=%E0%A4%A&a=2']) {
      const robots = await t.app.inject({ method: 'GET', url: `/robots.txt${query}` });
      expect(robots.statusCode, query).toBe(200);
      expect(robots.body).toContain('User-agent: *');
      const sitemap = await t.app.inject({ method: 'GET', url: `/sitemap.xml${query}` });
      expect(sitemap.statusCode, query).toBe(200);
      expect(sitemap.body).toContain('<urlset');
    }
  });
});
