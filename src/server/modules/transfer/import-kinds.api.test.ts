// Events and search synonyms as kinds of the shared import (issues 34 and 35, docs/decisions/038): the
// preview refuses each bad row with the message the kind's own API gives for the same value, nothing is
// written before the confirm, all or nothing or the valid rows only, the export read back changes
// nothing, the audit entries and the catalogue version are the API's, imported events are live on the
// API and the public pages, and an imported synonym changes what search finds at once.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPage, ReviewedEvent } from '../../../shared/event';
import type { ImportRun } from '../../../shared/transfer';
import { type Directory, openDirectory, uniqueName } from '../../test/catalog-fixtures';
import { createTestApp, type TestApp } from '../../test/harness';
import { importSettled } from '../../test/imports';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

async function previewOf(kind: string, text: string, fileName = `${kind}.csv`): Promise<ImportRun> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/imports?kind=${kind}&fileName=${encodeURIComponent(fileName)}`,
    headers: { ...d.admin.headers, 'content-type': 'text/csv' },
    payload: text,
  });
  expect(response.statusCode, response.body).toBe(202);
  return settled((response.json() as ImportRun).id);
}

const settled = (id: string) => importSettled(t.app, d.admin, id);

async function confirm(id: string, validOnly = false) {
  const response = await d.call(d.admin, 'POST', `/api/imports/${id}/confirm`, { validOnly });
  return { response, run: response.statusCode === 202 ? await settled(id) : null };
}

const query = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await t.database.pool.query(sql, params)).rows as T[];

/** Everything a refused import must leave as it was: the rows and a digest of two tables, the log. */
async function state() {
  const [row] = await query(
    `select (select md5(coalesce(string_agg(e::text, '|' order by e.id), '')) from events e) as events,
            (select md5(coalesce(string_agg(s::text, '|' order by s.id), '')) from search_synonyms s) as synonyms,
            (select count(*)::int from audit_log) as audit,
            (select version from catalog_version) as version`,
  );
  return row;
}

const catalogVersion = async () => Number((await query('select version from catalog_version'))[0]?.version);

/** The audit entries written after entry `after`: [type, action, name, shop, changes]. */
const entriesAfter = (after: number) =>
  query<{
    entity_type: string;
    action: string;
    entity_name: string;
    shop_id: string | null;
    changes: Record<string, { before: unknown; after: unknown }>;
    detail: Record<string, unknown> | null;
  }>(
    'select entity_type, action, entity_name, shop_id, changes, detail from audit_log where id > $1 order by id',
    [after],
  );
const lastAuditId = async () =>
  Number((await query('select coalesce(max(id), 0) as n from audit_log'))[0]?.n);

/** One CSV line (every cell quoted, as the export writes them). */
const csvLine = (cells: readonly string[]) =>
  cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',');

const EVENT_HEADER =
  'shop_code,shop,title,description,place_kind,place,all_day,start_date,start_time,end_date,end_time,tags,repeat,except,status';

/** An events row by column (the rest empty). */
function eventRow(cells: Partial<Record<string, string>>): string {
  return csvLine(EVENT_HEADER.split(',').map((column) => cells[column] ?? ''));
}

/** What POST /api/events answers for a body: the field messages of its 400. */
async function eventApiFields(body: Record<string, unknown>): Promise<Record<string, string>> {
  const response = await d.call(d.admin, 'POST', '/api/events', body);
  expect(response.statusCode, response.body).toBe(400);
  return response.json().error.fields as Record<string, string>;
}

/** The file's column of an API field ("repeat.interval" → repeat, "repeat.except.1" → except, "tags.0" → tags). */
const COLUMN_OF_FIELD: Record<string, string> = {
  placeKind: 'place_kind',
  placeId: 'place',
  allDay: 'all_day',
  startDate: 'start_date',
  startTime: 'start_time',
  endDate: 'end_date',
  endTime: 'end_time',
};
function asColumns(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(fields)) {
    const [head = '', inner] = field.split('.');
    const column = head === 'repeat' && inner === 'except' ? 'except' : (COLUMN_OF_FIELD[head] ?? head);
    out[column] ??= message;
  }
  return out;
}

describe('events: the preview refuses rows with the events API’s messages', () => {
  it('refuses each bad row as POST /api/events refuses the same event, and writes nothing, even on confirm', async () => {
    const floor = await d.floor();
    const shop = await d.shop({ externalCode: uniqueName('EV') });
    const code = shop.externalCode as string;
    const title = uniqueName('Fair');
    const base = {
      title,
      place_kind: 'floor',
      place: floor.name,
      all_day: 'no',
      start_date: '2026-12-05',
      start_time: '10:00',
      end_date: '2026-12-05',
      end_time: '12:00',
    };
    const api = {
      title,
      placeKind: 'floor',
      placeId: floor.id,
      allDay: false,
      startDate: '2026-12-05',
      startTime: '10:00',
      endDate: '2026-12-05',
      endTime: '12:00',
    };
    // Each row the API refuses too: the file's cells, the API's body for the same event, and what both say.
    const refusedLikeTheApi: [
      Partial<Record<string, string>>,
      Record<string, unknown>,
      Record<string, string>,
    ][] = [
      [
        { start_time: '25:00' },
        { startTime: '25:00' },
        // the time refused, and the end (compared as text) not after it: the API says both too
        { start_time: 'Enter a time as HH:MM (00:00–23:59)', end_date: 'End must be after start' },
      ],
      [{ end_time: '09:00' }, { endTime: '09:00' }, { end_date: 'End must be after start' }],
      [
        { tags: 'Late Night' },
        { tags: ['Late', 'Night'] },
        { tags: 'A tag is lowercase letters, digits and dashes (kids, late-night)' },
      ],
      [
        { repeat: 'FREQ=WEEKLY;INTERVAL=13' },
        { repeat: { freq: 'weekly', interval: 13 } },
        { repeat: 'Repeat every 1 to 12' },
      ],
      [{ repeat: 'FREQ=DAILY' }, { repeat: { freq: 'daily' } }, { repeat: 'Repeat is weekly or monthly' }],
      [
        { repeat: 'FREQ=WEEKLY;UNTIL=20261201' },
        { repeat: { freq: 'weekly', until: '2026-12-01' } },
        { repeat: 'Repeat until must be on or after the start date' },
      ],
      [
        { repeat: 'FREQ=WEEKLY;UNTIL=20261231;COUNT=3' },
        { repeat: { freq: 'weekly', until: '2026-12-31', count: 3 } },
        { repeat: 'Repeat until a date or a number of times, not both' },
      ],
      [
        { repeat: 'FREQ=MONTHLY;BYDAY=SA' },
        { repeat: { freq: 'monthly', days: ['sat'] } },
        { repeat: 'Days are for weekly repeats' },
      ],
      [
        { place_kind: 'roof', place: '' },
        { placeKind: 'roof', placeId: null },
        { place_kind: 'Where is the mall, a floor, an amenity or a shop' },
      ],
      [{ place: '' }, { placeId: null }, { place: 'Choose the place' }],
      [
        { repeat: 'FREQ=WEEKLY', except: '2026-12-12 12/19/2026' },
        { repeat: { freq: 'weekly', except: ['2026-12-12', '12/19/2026'] } },
        { except: 'Enter a date as YYYY-MM-DD' },
      ],
      [{ status: 'postponed' }, { status: 'postponed' }, { status: 'Status is scheduled or cancelled' }],
      [{ title: '' }, { title: '' }, { title: 'Title is required' }],
      [{ title: 'Two\u2028lines' }, { title: 'Two\u2028lines' }, { title: 'Title must be one line' }],
      [
        { all_day: 'yes' },
        { allDay: true },
        {
          start_time: 'An all-day event has no start time',
          end_time: 'An all-day event has no end time',
        },
      ],
    ];
    const apiSays: Record<string, string>[] = [];
    for (const [, body, says] of refusedLikeTheApi) {
      const fields = asColumns(await eventApiFields({ ...api, title: uniqueName('Api'), ...body }));
      expect(fields).toEqual(says);
      apiSays.push(fields);
    }
    // Refused by the file's own reading: an unknown name, a cell that is no yes or no, no RRULE.
    const refusedByTheFile: [Partial<Record<string, string>>, Record<string, string>][] = [
      [{ place: 'No such floor' }, { place: 'Unknown floor "No such floor"' }],
      [{ shop_code: 'NO-SUCH-SHOP' }, { shop_code: 'Unknown shop code "NO-SUCH-SHOP"' }],
      [{ shop: 'No such shop' }, { shop: 'Unknown shop "No such shop"' }],
      [{ place_kind: 'shop', place: 'No such shop' }, { place: 'Unknown shop "No such shop"' }],
      [{ place_kind: 'amenity', place: 'Nowhere' }, { place: 'Unknown amenity "Nowhere"' }],
      [{ all_day: 'maybe' }, { all_day: 'All day is yes or no' }],
      [{ except: '2026-12-12' }, { except: 'Exceptions are for repeating events' }],
      [
        { repeat: 'FREQ=MONTHLY;BYMONTHDAY=5' },
        {
          repeat:
            "Repeat cannot use BYMONTHDAY: events repeat weekly on chosen days or monthly on the start date's day",
        },
      ],
      [
        { repeat: 'every saturday' },
        { repeat: 'Repeat must be an RRULE such as FREQ=WEEKLY;BYDAY=SA;COUNT=8' },
      ],
      [{ repeat: 'FREQ=WEEKLY;COUNT=2;COUNT=3' }, { repeat: 'Repeat has COUNT twice' }],
      // Numbers as the forms read them (decision 022): plain digits only, or the schema's own message.
      [{ repeat: 'FREQ=WEEKLY;INTERVAL=+2' }, { repeat: 'Every how many weeks or months' }],
      [{ repeat: 'FREQ=WEEKLY;COUNT=1e3' }, { repeat: 'Number of times must be a whole number' }],
      [{ repeat: 'FREQ=WEEKLY;COUNT=0x10' }, { repeat: 'Number of times must be a whole number' }],
    ];
    const bad = [
      ...refusedLikeTheApi.map(([cells], i) => ({ cells, says: apiSays[i] as Record<string, string> })),
      ...refusedByTheFile.map(([cells, says]) => ({ cells, says })),
    ];
    const file = [
      EVENT_HEADER,
      eventRow({ ...base, tags: 'kids', repeat: 'FREQ=WEEKLY;BYDAY=SA;COUNT=4' }), // 2: valid
      eventRow({
        ...base,
        title: uniqueName('Mall day'),
        place_kind: 'mall',
        place: '',
        all_day: 'yes',
        start_time: '',
        end_time: '',
      }), // 3: valid
      eventRow({ ...base, title: uniqueName('Shop'), shop_code: code, place_kind: 'shop', place: shop.name }), // 4: valid
      ...bad.map(({ cells }) => eventRow({ ...base, title: uniqueName('Bad'), ...cells })), // 5…
      eventRow({ ...base, tags: 'kids' }), // the event of line 2 again
    ].join('\r\n');
    const before = await state();
    const run = await previewOf('events', file);
    expect(run.status).toBe('previewed');
    expect(run.preview?.counts).toEqual({ created: 3, updated: 0, unchanged: 0, refused: bad.length + 1 });
    const byLine = (run.preview?.refused ?? []).map((row) => ({
      line: row.line,
      says: Object.fromEntries(row.errors.map((error) => [error.column, error.message])),
    }));
    expect(byLine).toEqual([
      ...bad.map(({ says }, i) => ({ line: i + 5, says })),
      {
        line: bad.length + 5,
        says: { title: `The same event ("${title}" on 2026-12-05 at 10:00) is on line 2 too` },
      },
    ]);
    // The error file has them too.
    const errors = await t.app.inject({ url: `/api/imports/${run.id}/errors`, headers: d.admin.headers });
    expect(errors.body).toContain('"5","start_time","Enter a time as HH:MM (00:00–23:59)"');

    // All or nothing: refused rows stop the run, and nothing was written by the preview or the refusal.
    const refused = await confirm(run.id);
    expect(refused.response.statusCode).toBe(409);
    expect(refused.response.json().error.code).toBe('ROWS_REFUSED');
    expect(await state()).toEqual(before);
  });

  it('a bad file is refused at upload (400, its reason), stores no run and changes nothing', async () => {
    const before = await state();
    const runs = Number((await query('select count(*) as n from import_runs'))[0]?.n);
    for (const [kind, text, message] of [
      [
        'events',
        'title,start_date,end_date\nA,2026-12-01,2026-12-01\n',
        'Missing columns: place_kind, all_day',
      ],
      ['events', `${EVENT_HEADER},colour\n`, 'Unknown column: colour'],
      ['synonyms', 'term\nloo\n', 'Missing column: replacement'],
      ['synonyms', 'term,replacement,shop\n', 'Unknown column: shop'],
      ['synonyms', 'term;replacement\nloo;toilets\n', 'The columns are separated by semicolons'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/imports?kind=${kind}`,
        headers: { ...d.admin.headers, 'content-type': 'text/csv' },
        payload: text,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.message).toContain(message);
    }
    expect(Number((await query('select count(*) as n from import_runs'))[0]?.n)).toBe(runs);
    expect(await state()).toEqual(before);
  });
});

describe('events: the confirmed import', () => {
  it('imports the valid rows only when asked: live (approved) on the API and the public pages, audited as the API does, the catalogue version raised', async () => {
    const floor = await d.floor();
    const shop = await d.shop({ externalCode: uniqueName('EV') });
    const amenity = await d.call(d.admin, 'POST', '/api/amenities', {
      floorId: floor.id,
      kind: 'lift',
      location: uniqueName('by gate'),
    });
    expect(amenity.statusCode, amenity.body).toBe(201);
    const mallTitle = uniqueName('Lantern walk');
    const shopTitle = uniqueName('Story time');
    const file = [
      EVENT_HEADER,
      eventRow({
        title: mallTitle,
        description: 'Bring a lantern',
        place_kind: 'amenity',
        place: `Lift, ${amenity.json().location}`,
        all_day: 'no',
        start_date: d.day(2),
        start_time: '18:00',
        end_date: d.day(2),
        end_time: '19:30',
        tags: 'family late-night',
        repeat: 'FREQ=WEEKLY;COUNT=3',
        except: d.day(9),
      }),
      eventRow({
        shop_code: shop.externalCode as string,
        title: shopTitle,
        place_kind: 'shop',
        place: shop.name,
        all_day: 'yes',
        start_date: d.day(3),
        end_date: d.day(3),
        status: 'scheduled',
      }),
      eventRow({
        title: uniqueName('Refused'),
        place_kind: 'mall',
        all_day: 'no',
        start_date: d.day(3),
        end_date: d.day(3),
      }),
    ].join('\n');
    const run = await previewOf('events', file, 'events.csv');
    expect(run.preview?.counts).toEqual({ created: 2, updated: 0, unchanged: 0, refused: 1 });
    expect(run.preview?.refused[0]?.errors).toEqual([
      { column: 'start_time', message: 'Start time is required (or make it all day)' },
      { column: 'end_time', message: 'End time is required (or make it all day)' },
    ]);
    const version = await catalogVersion();
    const audit = await lastAuditId();
    // Not public before the confirm.
    const listed = async () => {
      const page = (
        await d.call(null, 'GET', `/api/events?from=${d.today()}&to=${d.day(30)}&pageSize=100`)
      ).json() as EventPage;
      return page.items.map((item) => item.event.title);
    };
    expect(await listed()).not.toContain(mallTitle);

    const done = await confirm(run.id, true);
    expect(done.run?.status, JSON.stringify(done.run?.result)).toBe('done');
    expect(done.run?.result?.counts).toEqual({ created: 2, updated: 0, unchanged: 0, refused: 1 });
    expect(await catalogVersion()).toBeGreaterThan(version);

    // Live at once: the list (each occurrence: 3 times less the exception), the public page.
    const titles = await listed();
    expect(titles.filter((title) => title === mallTitle)).toHaveLength(2);
    expect(titles).toContain(shopTitle);
    const publicPage = await t.app.inject({ url: '/events' });
    expect(publicPage.statusCode).toBe(200);
    expect(publicPage.body).toContain(mallTitle);
    expect(publicPage.body).toContain(shopTitle);
    const all = (await d.call(d.admin, 'GET', '/api/event-reviews/all')).json().items as ReviewedEvent[];
    const mall = all.find((event) => event.title === mallTitle);
    expect(mall).toMatchObject({
      approved: true,
      review: null,
      shopId: null,
      place: { kind: 'amenity', id: amenity.json().id },
      allDay: false,
      startTime: '18:00',
      endTime: '19:30',
      tags: ['family', 'late-night'],
      repeat: { freq: 'weekly', count: 3, except: [d.day(9)] },
      status: 'scheduled',
    });
    const own = all.find((event) => event.title === shopTitle);
    expect(own).toMatchObject({ approved: true, shopId: shop.id, place: { kind: 'shop', id: shop.id } });

    // Audited as the events API audits a create: the event's snapshot, its shop; then the run's entry.
    const entries = await entriesAfter(audit);
    expect(entries.map((e) => [e.entity_type, e.action, e.entity_name])).toEqual([
      ['event', 'create', mallTitle],
      ['event', 'create', shopTitle],
      ['import', 'create', 'events.csv'],
    ]);
    expect(entries[0]?.shop_id).toBeNull();
    expect(entries[1]?.shop_id).toBe(shop.id);
    expect(entries[0]?.changes).toMatchObject({
      title: { before: null, after: mallTitle },
      place: { before: null, after: `Lift, ${amenity.json().location}` },
      start: { before: null, after: `${d.day(2)} 18:00` },
      tags: { before: null, after: 'family, late-night' },
      repeat: { before: null, after: { freq: 'weekly', count: 3, except: [d.day(9)] } },
    });
    expect(entries[0]?.detail).toEqual({ importRun: run.id });
    expect(entries[2]?.detail).toMatchObject({ kind: 'events', created: 2, refused: 1, validOnly: true });
  });

  it('an export read back changes nothing; an edited export updates the event it names, audited field by field', async () => {
    const floor = await d.floor();
    const shop = await d.shop({ externalCode: uniqueName('EV') });
    const amenity = (
      await d.call(d.admin, 'POST', '/api/amenities', { floorId: floor.id, kind: 'atm' })
    ).json();
    const made: ReviewedEvent[] = [];
    for (const body of [
      // a weekly timed event until a date: its UNTIL is written in UTC and read back as the mall's date
      {
        title: uniqueName('Market'),
        description: 'Fresh, local; "weekly"\n=1+1',
        shopId: shop.id,
        placeKind: 'shop',
        placeId: shop.id,
        allDay: false,
        startDate: '2026-03-21',
        startTime: '10:00',
        endDate: '2026-03-21',
        endTime: '12:30',
        tags: ['market', 'food'],
        repeat: { freq: 'weekly', until: '2026-06-27', except: ['2026-03-28', '2026-04-04'] },
      },
      // weekly without days (the start's weekday, as the export writes BYDAY), every other week, for a count
      {
        title: uniqueName('Yoga'),
        placeKind: 'floor',
        placeId: floor.id,
        allDay: false,
        startDate: '2026-04-02',
        startTime: '23:00',
        endDate: '2026-04-03',
        endTime: '01:00',
        repeat: { freq: 'weekly', interval: 2, count: 5 },
      },
      // all day, monthly until a date, cancelled, at an amenity without a location
      {
        title: uniqueName('Swap day'),
        placeKind: 'amenity',
        placeId: amenity.id,
        allDay: true,
        startDate: '2026-05-10',
        endDate: '2026-05-11',
        repeat: { freq: 'monthly', until: '2026-12-31' },
        status: 'cancelled',
      },
      // the mall's own, once
      {
        title: uniqueName('Opening'),
        placeKind: 'mall',
        allDay: true,
        startDate: '2026-07-01',
        endDate: '2026-07-01',
        tags: ['opening'],
      },
    ]) {
      const response = await d.call(d.admin, 'POST', '/api/events', body);
      expect(response.statusCode, response.body).toBe(201);
      made.push(response.json() as ReviewedEvent);
    }
    const exported = await d.call(d.admin, 'GET', '/api/export/events');
    expect(exported.statusCode).toBe(200);
    const rows = parse(exported.body, { bom: true, columns: true }) as Record<string, string>[];
    const market = rows.find((row) => row.title === made[0]?.title);
    // written in UTC (the last second of the until date in the mall's zone), read back as that date
    expect(market?.repeat).toMatch(/^FREQ=WEEKLY;BYDAY=SA;UNTIL=20260627T\d{6}Z$/);

    const before = await state();
    const back = await previewOf('events', exported.body);
    expect(back.preview?.refused).toEqual([]);
    expect(back.preview?.counts).toMatchObject({ created: 0, updated: 0, refused: 0 });
    expect(back.preview?.counts.unchanged).toBe(rows.length);
    const nothing = await confirm(back.id);
    expect(nothing.run?.status).toBe('done');
    // Nothing was changed: the events, the synonyms, the version; only the run's own entry was logged.
    const after = await state();
    expect({ ...after, audit: before?.audit }).toEqual(before);
    expect(after?.audit).toBe(Number(before?.audit) + 1);

    // The yoga class moves an hour later and gets a tag: that event is updated, the rest unchanged.
    const yoga = made[1] as ReviewedEvent;
    const edited = parse(exported.body, { bom: true }) as string[][];
    const header = edited[0] as string[];
    const at = (name: string) => header.indexOf(name);
    for (const row of edited.slice(1))
      if (row[at('title')] === yoga.title) {
        row[at('start_time')] = '23:30';
        row[at('tags')] = 'wellbeing';
      }
    const file = [header.join(','), ...edited.slice(1).map(csvLine)].join('\r\n');
    const audit = await lastAuditId();
    const changed = await previewOf('events', file);
    expect(changed.preview?.counts).toMatchObject({ created: 0, updated: 1, refused: 0 });
    expect((await confirm(changed.id)).run?.status).toBe('done');
    const now = (await d.call(d.admin, 'GET', `/api/events/${yoga.id}`)).json();
    expect(now).toMatchObject({
      startTime: '23:30',
      tags: ['wellbeing'],
      repeat: { freq: 'weekly', interval: 2, count: 5 },
    });
    const entries = await entriesAfter(audit);
    expect(entries.map((e) => [e.entity_type, e.action, e.entity_name])).toEqual([
      ['event', 'update', yoga.title],
      ['import', 'create', 'events.csv'],
    ]);
    expect(entries[0]?.changes).toEqual({
      start: { before: '2026-04-02 23:00', after: '2026-04-02 23:30' },
      tags: { before: '', after: 'wellbeing' },
    });
  });

  it('matches by organizer, title and start date; two sessions that day by their start time', async () => {
    const title = uniqueName('Face painting');
    const session = (time: string, end: string, description = '') =>
      eventRow({
        title,
        description,
        place_kind: 'mall',
        all_day: 'no',
        start_date: '2026-12-19',
        start_time: time,
        end_date: '2026-12-19',
        end_time: end,
      });
    const two = [EVENT_HEADER, session('10:00', '11:00'), session('14:00', '15:00')].join('\n');
    const first = await previewOf('events', two);
    expect(first.preview?.counts).toMatchObject({ created: 2, refused: 0 });
    expect((await confirm(first.id)).run?.status).toBe('done');
    // Each session found again by its time.
    const again = await previewOf(
      'events',
      [EVENT_HEADER, session('10:00', '11:00', 'Morning'), session('14:00', '15:00')].join('\n'),
    );
    expect(again.preview?.counts).toMatchObject({ created: 0, updated: 1, unchanged: 1, refused: 0 });
    // A shop's event of the same title and date is another event (another organizer).
    const shop = await d.shop();
    const other = await previewOf(
      'events',
      [
        EVENT_HEADER,
        eventRow({
          shop: shop.name,
          title,
          place_kind: 'mall',
          all_day: 'yes',
          start_date: '2026-12-19',
          end_date: '2026-12-19',
        }),
      ].join('\n'),
    );
    expect(other.preview?.counts).toMatchObject({ created: 1, updated: 0 });
    // One event that day: a new start time moves it.
    const once = uniqueName('Signing');
    const one = (time: string) =>
      [
        EVENT_HEADER,
        eventRow({
          title: once,
          place_kind: 'mall',
          all_day: 'no',
          start_date: '2026-12-20',
          start_time: time,
          end_date: '2026-12-20',
          end_time: '18:00',
        }),
      ].join('\n');
    expect((await confirm((await previewOf('events', one('15:00'))).id)).run?.status).toBe('done');
    const moved = await previewOf('events', one('16:00'));
    expect(moved.preview?.counts).toMatchObject({ created: 0, updated: 1 });
  });
});

describe('synonyms', () => {
  /** What POST /api/synonyms answers for a body: its 400's field messages. */
  async function synonymApiFields(body: Record<string, unknown>): Promise<Record<string, string>> {
    const response = await d.call(d.admin, 'POST', '/api/synonyms', body);
    expect(response.statusCode, response.body).toBe(400);
    return response.json().error.fields as Record<string, string>;
  }

  it('refuses rows with the synonyms API’s messages; all or nothing; the valid rows only; search finds it at once; audited; the version raised', async () => {
    const letters = () =>
      Array.from({ length: 9 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
    const word = letters();
    const shop = await d.shop({ name: `Trainer Hub ${word}` });
    // A word like no other in the mall: a search for it finds nothing until a synonym says what it means.
    const term = letters();
    const search = async (q: string) =>
      ((await d.call(d.user, 'GET', `/api/search?q=${encodeURIComponent(q)}`)).json().shops?.items ?? []).map(
        (s: { id: string }) => s.id,
      );
    expect(await search(term)).not.toContain(shop.id);
    const existing = await d.call(d.admin, 'POST', '/api/synonyms', {
      term: `old${word}`,
      replacement: 'shoes',
    });
    expect(existing.statusCode).toBe(201);
    const kept = await d.call(d.admin, 'POST', '/api/synonyms', { term: `same${word}`, replacement: 'bags' });
    expect(kept.statusCode).toBe(201);
    const apiSays = {
      noWord: (await synonymApiFields({ term: '!!!', replacement: 'toilets' })).term,
      same: (await synonymApiFields({ term: 'Loo', replacement: 'loo' })).replacement,
      required: (await synonymApiFields({ term: '', replacement: 'toilets' })).term,
      tooLong: (await synonymApiFields({ term: 'x'.repeat(61), replacement: 'toilets' })).term,
    };
    expect(apiSays).toEqual({
      noWord: 'Use at least one letter or digit',
      same: 'Searched as must differ from the term',
      required: 'Term is required',
      tooLong: 'Term must be at most 60 characters',
    });

    const file = [
      'term,replacement',
      `${term.toUpperCase()},Trainer Hub ${word}`, // 2: new (folded as search folds it)
      `old${word},sneakers`, // 3: an update
      `same${word},bags`, // 4: unchanged
      '!!!,toilets', // 5
      'Loo,loo', // 6
      ',toilets', // 7
      `${'x'.repeat(61)},toilets`, // 8
      `${term},trainers`, // 9: the term of line 2 again (any case: the folded term)
    ].join('\n');
    const before = await state();
    const run = await previewOf('synonyms', file, 'synonyms.csv');
    expect(run.preview?.counts).toEqual({ created: 1, updated: 1, unchanged: 1, refused: 5 });
    expect(run.preview?.refused).toEqual([
      { line: 5, errors: [{ column: 'term', message: apiSays.noWord }] },
      { line: 6, errors: [{ column: 'replacement', message: apiSays.same }] },
      { line: 7, errors: [{ column: 'term', message: apiSays.required }] },
      { line: 8, errors: [{ column: 'term', message: apiSays.tooLong }] },
      { line: 9, errors: [{ column: 'term', message: `The same term "${term}" is on line 2 too` }] },
    ]);
    const refused = await confirm(run.id);
    expect(refused.response.statusCode).toBe(409);
    expect(await state()).toEqual(before);
    expect(await search(term)).not.toContain(shop.id);

    const version = await catalogVersion();
    const audit = await lastAuditId();
    const done = await confirm(run.id, true);
    expect(done.run?.status, JSON.stringify(done.run?.result)).toBe('done');
    expect(done.run?.result?.counts).toEqual({ created: 1, updated: 1, unchanged: 1, refused: 5 });
    expect(await catalogVersion()).toBeGreaterThan(version);
    // The search that found nothing finds the shop now, through the imported synonym.
    expect(await search(term)).toContain(shop.id);
    const list = (await d.call(d.admin, 'GET', '/api/synonyms')).json().items as {
      term: string;
      replacement: string;
    }[];
    expect(list).toContainEqual(expect.objectContaining({ term, replacement: `trainer hub ${word}` }));
    expect(list).toContainEqual(expect.objectContaining({ term: `old${word}`, replacement: 'sneakers' }));
    // Audited as the synonyms API audits its writes.
    const entries = await entriesAfter(audit);
    expect(entries.map((e) => [e.entity_type, e.action, e.entity_name, e.shop_id])).toEqual([
      ['synonym', 'create', term, null],
      ['synonym', 'update', `old${word}`, null],
      ['import', 'create', 'synonyms.csv', null],
    ]);
    expect(entries[0]?.changes).toEqual({
      term: { before: null, after: term },
      replacement: { before: null, after: `trainer hub ${word}` },
    });
    expect(entries[1]?.changes).toEqual({ replacement: { before: 'shoes', after: 'sneakers' } });
  });

  it('an export read back changes nothing', async () => {
    await d.call(d.admin, 'POST', '/api/synonyms', { term: uniqueName('atm'), replacement: 'cash machine' });
    const exported = await d.call(d.admin, 'GET', '/api/export/synonyms');
    const rows = parse(exported.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThan(0);
    const before = await state();
    const back = await previewOf('synonyms', exported.body);
    expect(back.preview?.counts).toEqual({ created: 0, updated: 0, unchanged: rows.length, refused: 0 });
    expect((await confirm(back.id)).run?.status).toBe('done');
    const after = await state();
    expect({ ...after, audit: before?.audit }).toEqual(before);
  });

  it('has no import route of its own any more; its template is the pipeline’s', async () => {
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/synonyms/import',
      headers: { ...d.admin.headers, 'content-type': 'text/csv' },
      payload: 'term,replacement\nloo,toilets\n',
    });
    expect(old.statusCode).toBe(404);
    const template = await t.app.inject({ url: '/api/imports/template/synonyms', headers: d.admin.headers });
    expect(template.statusCode).toBe(200);
    expect(template.body).toBe('\uFEFFterm,replacement\r\n"loo","toilets"\r\n');
    const events = await t.app.inject({ url: '/api/imports/template/events', headers: d.admin.headers });
    expect(events.body.startsWith(`\uFEFF${EVENT_HEADER}\r\n`)).toBe(true);
    // The template reads back: its example is a valid row (its shop unknown here, so refused by that only).
    const preview = await previewOf('events', events.body);
    expect(preview.preview?.refused.flatMap((row) => row.errors.map((e) => e.column))).toEqual([
      'shop_code',
      'place',
    ]);
  });
});
