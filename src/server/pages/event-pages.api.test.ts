// The events' public pages (issue 35, docs/decisions/036): /events (today, this weekend, upcoming; a
// tag and a floor as plain GET parameters) and /events/{id}, rendered on the server from the client's
// screens, with schema.org Event data; a cancelled event marked until it is over; an event waiting for
// approval nowhere; nothing with the public directory off.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewedEvent } from '../../shared/event';
import { buildApp } from '../app';
import { type Directory, openDirectory, uniqueName } from '../test/catalog-fixtures';
import { createTestApp, TEST_TIME_ZONE, type TestApp } from '../test/harness';

let t: TestApp;
let d: Directory;
let closed: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
  closed = await buildApp({
    maxEventLoopDelayMs: 0, // no event-loop check, as createTestApp (test/harness.ts)
    database: t.database,
    timeZone: TEST_TIME_ZONE,
    now: t.now,
    publicDirectory: false,
  });
  await closed.ready();
});
afterAll(async () => {
  await closed?.close();
  await t?.close();
});

const jsonLdOf = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? 'null') as Record<string, unknown>,
  );
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');

async function event(as: 'admin' | 'manager', over: Record<string, unknown>, shopId?: string) {
  const shop = shopId ?? (await d.shop()).id;
  const person = as === 'admin' ? d.admin : await d.manager(shop);
  const response = await d.call(person, 'POST', '/api/events', {
    title: uniqueName('Event'),
    shopId: shop,
    placeKind: 'shop',
    placeId: shop,
    allDay: false,
    startDate: d.today(),
    startTime: '10:00',
    endDate: d.today(),
    endTime: '11:00',
    ...over,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ReviewedEvent;
}

describe('/events', () => {
  it('lists today, this weekend and upcoming, filtered by tag and floor with plain links and a GET form', async () => {
    const floor = await d.floor();
    const shop = await d.shop({ floorId: floor.id });
    const today = await event('admin', { tags: ['kids'] }, shop.id);
    const later = await event('admin', { startDate: d.day(20), endDate: d.day(20), tags: ['music'] });
    const cancelled = await event('admin', { status: 'cancelled', tags: ['kids'] }, shop.id);
    const pending = await event('manager', { tags: ['kids'] });

    const page = await t.app.inject({ url: '/events' });
    expect(page.statusCode).toBe(200);
    const text = textOf(page.body);
    for (const shown of [today, later, cancelled]) expect(text).toContain(shown.title);
    expect(text).not.toContain(pending.title);
    expect(text).toMatch(/Today .* Upcoming/);
    expect(text).toContain('Cancelled');
    expect(page.body).toMatch(/<form [^>]*aria-label="Filter events" action="\/events" method="get">/);
    expect(page.body).toMatch(/<select [^>]*name="tag"/);
    expect(page.body).toMatch(/<select [^>]*name="floor"/);
    expect(page.body).toContain('href="/events?tag=kids"');

    const kids = textOf((await t.app.inject({ url: '/events?tag=kids' })).body);
    expect(kids).toContain(today.title);
    expect(kids).not.toContain(later.title);
    const onFloor = textOf((await t.app.inject({ url: `/events?floor=${floor.id}` })).body);
    expect(onFloor).toContain(today.title);
    expect(onFloor).not.toContain(later.title);

    // A weekly event beyond this weekend: one card in Upcoming, at its next date, standing for the rest.
    const start = d.day(14);
    const weekly = await event('admin', {
      startDate: start,
      endDate: start,
      repeat: { freq: 'weekly', interval: 1, count: 4 },
    });
    const html = (await t.app.inject({ url: '/events' })).body;
    const section = html.slice(html.indexOf('>Upcoming</h2>'));
    const upcoming = textOf(section.slice(0, section.indexOf('</section>')));
    expect(upcoming.split(weekly.title).length - 1).toBe(1);
    expect(upcoming).toContain('and 3 more dates');

    const data = jsonLdOf(page.body)[0] as { '@graph': { name: string; eventStatus: string }[] };
    const cancelledNode = data['@graph'].find((node) => node.name === cancelled.title);
    expect(cancelledNode?.eventStatus).toBe('https://schema.org/EventCancelled');
  });
});

describe('/events/{id}', () => {
  it('shows the event with Add to calendar, its place and organizer, and schema.org Event data', async () => {
    const shop = await d.shop();
    const shown = await event('admin', { description: 'Signing at noon', tags: ['books'] }, shop.id);
    const response = await t.app.inject({ url: `/events/${shown.id}` });
    expect(response.statusCode).toBe(200);
    const text = textOf(response.body);
    expect(text).toContain(shown.title);
    expect(text).toContain('Add to calendar');
    expect(response.body).toContain(`href="/api/events/${shown.id}/calendar.ics"`);
    expect(text).toContain(`Organized by ${shop.name}`);
    expect(response.body).toContain(`<title>${shown.title} · Super Mall</title>`);
    const [data] = jsonLdOf(response.body) as Record<string, unknown>[];
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: shown.title,
      // Asia/Kolkata: +05:30.
      startDate: `${d.today()}T10:00:00+05:30`,
      endDate: `${d.today()}T11:00:00+05:30`,
      eventStatus: 'https://schema.org/EventScheduled',
      location: {
        '@type': 'Place',
        name: expect.stringContaining(shop.name),
        containedInPlace: { '@type': 'ShoppingCenter', name: 'Super Mall' },
      },
      organizer: { '@type': 'Organization', name: shop.name },
    });
    expect(data?.image).toBeUndefined();
  });

  it('is a 404 page for an event waiting for approval, an unknown id, and with the public directory off', async () => {
    const pending = await event('manager', {});
    expect((await t.app.inject({ url: `/events/${pending.id}` })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/events/not-an-id' })).statusCode).toBe(404);
    const live = await event('admin', {});
    expect((await closed.inject({ url: `/events/${live.id}` })).statusCode).toBe(404);
    expect((await closed.inject({ url: '/events' })).statusCode).toBe(404);
    expect((await closed.inject({ url: '/api/events' })).statusCode).toBe(401);
    expect((await closed.inject({ url: '/api/events/calendar.ics' })).statusCode).toBe(401);
  });
});
