// Events (/api/events, /api/event-reviews, issue 35): who may write what, a shop manager's event and
// change waiting in the approvals queue (shoppers never see unapproved terms; a decision acts on the
// version the admin saw), the public list and detail, the feeds parsed back with ical.js, the audit log.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDetail, EventOverview, EventPage, ReviewedEvent } from '../../../shared/event';
import { NOT_YOUR_SHOP } from '../../../shared/managers';
import {
  type Directory,
  expectError,
  expectFieldError,
  openDirectory,
  uniqueName,
  unknownId,
} from '../../test/catalog-fixtures';
import { createTestApp, type SignedIn, TEST_TIME_ZONE, type TestApp } from '../../test/harness';
import { weekendAfter } from './overview';
import { EVENT_CHANGED_SINCE_REVIEW } from './repository';

let t: TestApp;
let d: Directory;
let shopId: string;
let manager: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  shopId = (await d.shop()).id;
  manager = await d.manager(shopId);
});
afterAll(async () => {
  await t?.close();
});

const body = (over: Record<string, unknown> = {}) => ({
  title: uniqueName('Event'),
  description: 'Come along',
  placeKind: 'mall',
  allDay: false,
  startDate: d.day(1),
  startTime: '10:00',
  endDate: d.day(1),
  endTime: '12:00',
  tags: ['kids'],
  ...over,
});
const create = async (as: SignedIn, over: Record<string, unknown> = {}) => {
  const response = await d.call(as, 'POST', '/api/events', body(over));
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ReviewedEvent;
};
const listed = async (query = '', as: SignedIn | null = null) => {
  const response = await d.call(as, 'GET', `/api/events${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as EventPage;
};
const titles = (page: EventPage) => page.items.map((item) => item.event.title);

describe('writing events', () => {
  it("an admin's event is live at once, for visitors too, with its place and occurrences", async () => {
    const floor = await d.floor();
    const event = await create(d.admin, { placeKind: 'floor', placeId: floor.id, tags: ['kids', 'craft'] });
    expect(event.approved).toBe(true);
    expect(event.review).toBeNull();
    expect(event.place).toMatchObject({ kind: 'floor', id: floor.id, name: floor.name, floorId: floor.id });
    const page = await listed(`?floorId=${floor.id}`);
    expect(titles(page)).toEqual([event.title]);
    // Asia/Kolkata: 10:00 is 04:30 UTC.
    expect(page.items[0]?.occurrence).toMatchObject({
      start: `${d.day(1)}T04:30:00.000Z`,
      end: `${d.day(1)}T06:30:00.000Z`,
    });
    const detail = (await d.call(null, 'GET', `/api/events/${event.id}`)).json() as EventDetail;
    expect(detail.upcoming).toHaveLength(1);
    expect(titles(await listed('?tag=craft'))).toEqual([event.title]);
  });

  it('refuses bad input with the field and its message; nothing is written', async () => {
    expectFieldError(
      await d.call(d.admin, 'POST', '/api/events', body({ endTime: '09:00' })),
      'endDate',
      'End must be after start',
    );
    expectFieldError(
      await d.call(d.admin, 'POST', '/api/events', body({ startTime: null })),
      'startTime',
      'Start time is required (or make it all day)',
    );
    expectFieldError(
      await d.call(d.admin, 'POST', '/api/events', body({ placeKind: 'floor' })),
      'placeId',
      'Choose the place',
    );
    expectFieldError(
      await d.call(d.admin, 'POST', '/api/events', body({ placeKind: 'floor', placeId: unknownId() })),
      'placeId',
      'Choose the place',
    );
    expectFieldError(
      await d.call(d.admin, 'POST', '/api/events', body({ tags: ['Not A Tag'] })),
      'tags.0',
      'A tag is lowercase letters, digits and dashes (kids, late-night)',
    );
    expectFieldError(
      await d.call(
        d.admin,
        'POST',
        '/api/events',
        body({ repeat: { freq: 'weekly', count: 3, until: d.day(9) } }),
      ),
      'repeat.count',
      'Repeat until a date or a number of times, not both',
    );
    const patched = await d.call(d.admin, 'PATCH', `/api/events/${(await create(d.admin)).id}`, {
      endDate: d.day(-5),
    });
    expectFieldError(patched, 'endDate', 'End must be after start');
  });

  it('a manager cannot make a mall event, nor another shop’s, nor delete, nor set an image', async () => {
    expectError(await d.call(manager, 'POST', '/api/events', body()), 403, 'FORBIDDEN', NOT_YOUR_SHOP);
    const other = (await d.shop()).id;
    expect((await d.call(manager, 'POST', '/api/events', body({ shopId: other }))).statusCode).toBe(403);
    const own = await create(manager, { shopId });
    expect((await d.call(manager, 'DELETE', `/api/events/${own.id}`)).statusCode).toBe(403);
    expect((await d.call(d.user, 'POST', '/api/events', body({ shopId }))).statusCode).toBe(403);
  });
});

describe('approval, as offers', () => {
  it('a manager’s event waits; shoppers never see it; a manager cannot approve it', async () => {
    const event = await create(manager, { shopId, placeKind: 'shop', placeId: shopId, tags: ['signing'] });
    expect(event.approved).toBe(false);
    expect(event.review?.state).toBe('pending');
    expect(titles(await listed('?tag=signing'))).toEqual([]);
    expect((await d.call(null, 'GET', `/api/events/${event.id}`)).statusCode).toBe(404);
    const feed = await d.call(null, 'GET', '/api/events/calendar.ics');
    expect(feed.body).not.toContain(event.title);
    const queue = (await d.call(d.admin, 'GET', '/api/event-reviews')).json() as { items: ReviewedEvent[] };
    expect(queue.items.map((item) => item.id)).toContain(event.id);
    const version = event.review?.version;
    const refused = await d.call(manager, 'POST', `/api/event-reviews/${event.id}/approve`, { version });
    expect(refused.statusCode).toBe(403);
    const mine = (await d.call(manager, 'GET', `/api/manage/shops/${shopId}/events`)).json() as {
      items: ReviewedEvent[];
    };
    expect(mine.items.map((item) => item.id)).toContain(event.id);

    const approved = await d.call(d.admin, 'POST', `/api/event-reviews/${event.id}/approve`, { version });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(titles(await listed('?tag=signing'))).toEqual([event.title]);
  });

  it('a change to an approved event keeps the approved one live until approved; a decision names its version', async () => {
    const event = await create(manager, { shopId, tags: ['talk'] });
    await d.call(d.admin, 'POST', `/api/event-reviews/${event.id}/approve`, {
      version: event.review?.version,
    });
    const changed = (
      await d.call(manager, 'PATCH', `/api/events/${event.id}`, {
        title: 'Renamed talk',
        status: 'cancelled',
      })
    ).json() as ReviewedEvent;
    expect(changed.title).toBe(event.title);
    expect(changed.review?.proposal).toEqual({ title: 'Renamed talk', status: 'cancelled' });
    const live = (await d.call(null, 'GET', `/api/events/${event.id}`)).json() as EventDetail;
    expect([live.title, live.status]).toEqual([event.title, 'scheduled']);

    // The admin saw this version; the manager changes it again before the click.
    const seen = changed.review?.version;
    const again = (
      await d.call(manager, 'PATCH', `/api/events/${event.id}`, { title: 'Renamed talk, again' })
    ).json() as ReviewedEvent;
    const stale = await d.call(d.admin, 'POST', `/api/event-reviews/${event.id}/approve`, { version: seen });
    expectError(stale, 409, 'CHANGED', EVENT_CHANGED_SINCE_REVIEW);
    expect(((await d.call(null, 'GET', `/api/events/${event.id}`)).json() as EventDetail).title).toBe(
      event.title,
    );

    const sentBack = await d.call(d.admin, 'POST', `/api/event-reviews/${event.id}/send-back`, {
      version: again.review?.version,
      comment: 'Keep the old title',
    });
    expect((sentBack.json() as ReviewedEvent).review).toMatchObject({
      state: 'sent_back',
      comment: 'Keep the old title',
    });
    const resubmitted = (
      await d.call(manager, 'PATCH', `/api/events/${event.id}`, { title: 'Talk (new time)' })
    ).json() as ReviewedEvent;
    const ok = await d.call(d.admin, 'POST', `/api/event-reviews/${event.id}/approve`, {
      version: resubmitted.review?.version,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const now = (await d.call(null, 'GET', `/api/events/${event.id}`)).json() as EventDetail;
    expect([now.title, now.status]).toEqual(['Talk (new time)', 'cancelled']);
  });

  it('is audited: create, submit, approve, with the shop for its managers’ history', async () => {
    const event = await create(manager, { shopId });
    await d.call(d.admin, 'POST', `/api/event-reviews/${event.id}/approve`, {
      version: event.review?.version,
    });
    const log = (await d.call(d.admin, 'GET', `/api/audit?entityType=event&entityId=${event.id}`)).json() as {
      items: { action: string; entityId: string }[];
    };
    const mine = log.items.filter((entry) => entry.entityId === event.id).map((entry) => entry.action);
    expect(mine.sort()).toEqual(['approve', 'create']);
  });
});

describe("the events page's cards (GET /api/events/overview)", () => {
  const overview = async (query: string) => {
    const response = await d.call(null, 'GET', `/api/events/overview${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as EventOverview;
  };
  const newTag = () => `ov-${Math.random().toString(36).slice(2, 10)}`;

  it('groups the list API’s occurrences: every one on exactly one card, a weekly event once per group', async () => {
    const tag = newTag();
    const daily = await create(d.admin, {
      tags: [tag],
      startDate: d.day(0),
      endDate: d.day(0),
      startTime: '23:00',
      endTime: '23:30',
      repeat: { freq: 'weekly', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] },
    });
    const once = await create(d.admin, { tags: [tag], startDate: d.day(20), endDate: d.day(20) });
    // A manager's event waits for an admin: never on a card.
    await create(manager, { tags: [tag], shopId, startDate: d.day(2), endDate: d.day(2) });
    const cards = await overview(`?tag=${tag}`);
    const weekend = weekendAfter(d.today());
    expect(cards.weekend).toEqual(weekend);
    const inWeekend = (date: string) => weekend !== null && date >= weekend.from && date <= weekend.to;
    let next = 1;
    while (inWeekend(d.day(next))) next++;
    expect(cards.items.map((card) => [card.group, card.event.title, card.occurrence.startDate])).toEqual([
      ['today', daily.title, d.today()],
      ...(weekend ? [['weekend', daily.title, weekend.from]] : []),
      ['upcoming', daily.title, d.day(next)],
      ['upcoming', once.title, d.day(20)],
    ]);
    // Each occurrence of the list is on exactly one card: the card's own and its "more dates".
    const list = await listed(`?tag=${tag}`);
    expect(cards.items.reduce((sum, card) => sum + 1 + card.moreDates, 0)).toBe(list.total);
    expect(cards.groupTotals).toEqual({ today: 1, weekend: weekend ? 1 : 0, upcoming: 2 });
    expect(cards.total).toBe(cards.items.length);
    // A card carries what it shows: no description, rule or creation time.
    for (const card of cards.items) {
      expect(Object.keys(card.event).sort()).toEqual(
        ['id', 'image', 'place', 'shopId', 'shopName', 'shopSlug', 'status', 'tags', 'title'].sort(),
      );
    }
  });

  it('lists every tag of the window under the floor filter, whichever tag is chosen', async () => {
    const floor = await d.floor();
    const [a, b] = [newTag(), newTag()];
    await create(d.admin, { tags: [a], placeKind: 'floor', placeId: floor.id });
    await create(d.admin, { tags: [b, 'kids'], placeKind: 'floor', placeId: floor.id });
    const all = await overview(`?floorId=${floor.id}`);
    expect(all.tags).toEqual([a, b, 'kids'].sort());
    const onlyA = await overview(`?floorId=${floor.id}&tag=${a}`);
    expect(onlyA.items.map((card) => card.event.tags)).toEqual([[a]]);
    expect(onlyA.tags).toEqual(all.tags);
  });

  it("a shop's cards (its page): only its approved events, each once per group", async () => {
    const [mine, other] = [await d.shop(), await d.shop()];
    const tag = newTag();
    const weekly = await create(d.admin, {
      shopId: mine.id,
      placeKind: 'shop',
      placeId: mine.id,
      tags: [tag],
      startDate: d.day(1),
      endDate: d.day(1),
      repeat: { freq: 'weekly' },
    });
    await create(d.admin, { shopId: other.id, placeKind: 'shop', placeId: other.id, tags: [tag] });
    const cards = await overview(`?shopId=${mine.id}`);
    expect(new Set(cards.items.map((card) => card.event.id))).toEqual(new Set([weekly.id]));
    const list = await listed(`?shopId=${mine.id}`);
    expect(cards.items.reduce((sum, card) => sum + 1 + card.moreDates, 0)).toBe(list.total);
    expect(cards.items.length).toBeLessThan(list.total);
  });

  it('pages 24 cards at a time', async () => {
    const tag = newTag();
    for (let day = 1; day <= 26; day++)
      await create(d.admin, { tags: [tag], startDate: d.day(day), endDate: d.day(day) });
    const first = await overview(`?tag=${tag}`);
    const second = await overview(`?tag=${tag}&page=2`);
    expect([first.total, first.pageSize, first.items.length, second.items.length]).toEqual([26, 24, 24, 2]);
    expect(second.items.map((card) => card.occurrence.startDate)).toEqual([d.day(25), d.day(26)]);
    expect((await overview(`?tag=${tag}&page=3`)).items).toEqual([]);
  });
});

describe('feeds', () => {
  it('the iCalendar feed parsed back gives the occurrences the API lists (repeats, exceptions, cancelled)', async () => {
    const weekly = await create(d.admin, {
      tags: ['market'],
      startDate: d.day(0),
      endDate: d.day(0),
      repeat: { freq: 'weekly', count: 5, except: [d.day(7)] },
    });
    const cancelled = await create(d.admin, {
      tags: ['market'],
      status: 'cancelled',
      startDate: d.day(2),
      endDate: d.day(3),
      startTime: '22:00',
      endTime: '01:00',
    });
    const feed = await d.call(null, 'GET', '/api/events/calendar.ics?tag=market');
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const root = new ICAL.Component(ICAL.parse(feed.body));
    for (const zone of root.getAllSubcomponents('vtimezone'))
      ICAL.TimezoneService.register(new ICAL.Timezone(zone));
    const fromFeed = new Map<string, string[]>();
    for (const component of root.getAllSubcomponents('vevent')) {
      const parsed = new ICAL.Event(component);
      const starts: string[] = [];
      const iterator = parsed.iterator();
      for (let next = iterator.next(); next && starts.length < 50; next = iterator.next()) {
        starts.push(parsed.getOccurrenceDetails(next).startDate.toJSDate().toISOString());
      }
      fromFeed.set(parsed.summary, starts);
      expect(parsed.startDate.zone?.tzid).toBe(TEST_TIME_ZONE);
    }
    const page = await listed(`?tag=market&from=${d.day(0)}&to=${d.day(60)}`);
    for (const event of [weekly, cancelled]) {
      const fromApi = page.items
        .filter((item) => item.event.id === event.id)
        .map((item) => item.occurrence.start);
      expect(fromFeed.get(event.title)).toEqual(fromApi);
    }
    expect(fromFeed.get(weekly.title)).toHaveLength(4);
    expect(feed.body).toContain('STATUS:CANCELLED');

    // Cached by catalogue version: the same body, then a write makes a new one.
    const etag = feed.headers.etag as string;
    const again = await t.app.inject({
      url: '/api/events/calendar.ics?tag=market',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    const hit = await d.call(null, 'GET', '/api/events/calendar.ics?tag=market');
    expect([hit.body, hit.headers['content-type']]).toEqual([feed.body, 'text/calendar; charset=utf-8']);
    await create(d.admin, { tags: ['market'], title: 'Fresh market' });
    expect((await d.call(null, 'GET', '/api/events/calendar.ics?tag=market')).body).toContain('Fresh market');
  });

  it('one event as a download; the JSON feed', async () => {
    const event = await create(d.admin, { tags: ['music'] });
    const file = await d.call(null, 'GET', `/api/events/${event.id}/calendar.ics`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="event.ics"');
    const cachedFile = await d.call(null, 'GET', `/api/events/${event.id}/calendar.ics`);
    expect(cachedFile.headers['content-disposition']).toBe('attachment; filename="event.ics"');
    expect(new ICAL.Component(ICAL.parse(file.body)).getAllSubcomponents('vevent')).toHaveLength(1);
    const json = await d.call(null, 'GET', '/api/events/feed.json?tag=music');
    expect(json.statusCode).toBe(200);
    const items = json.json().items as { id: string; _event: { upcoming: unknown[] } }[];
    expect(items.map((item) => item.id)).toEqual([event.id]);
    expect(items[0]?._event.upcoming).toHaveLength(1);
  });
});
