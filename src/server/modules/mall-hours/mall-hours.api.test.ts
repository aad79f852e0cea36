// The mall's hours and shops' structured hours through the API: stored as sent, refused with the form's
// messages, recorded in the audit log, and judged "open at" an instant by the shared computation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyWeek, everyDay, minutesOf, type OpeningHours, SAME_TIME_MESSAGE } from '../../../shared/hours';
import { zonedInstant } from '../../../shared/hours-status';
import { type Directory, openDirectory } from '../../test/catalog-fixtures';
import { createTestApp, TEST_TIME_ZONE, type TestApp } from '../../test/harness';

let t: TestApp;
let d: Directory;
beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t?.close();
});

const HOURS: OpeningHours = {
  weekly: {
    ...everyDay('10:00', '21:00').weekly,
    fri: [
      { open: '10:00', close: '14:00' },
      { open: '17:00', close: '02:00' },
    ],
    sun: [],
  },
  special: [{ date: '2026-12-25', intervals: [], note: 'Christmas Day' }],
};

const lastEntry = async () =>
  (await d.call(d.admin, 'GET', '/api/audit?pageSize=1')).json().items[0] as {
    entityType: string;
    action: string;
    changes: Record<string, { before: unknown; after: unknown }>;
  };

describe('/api/mall-hours', () => {
  it('answers anyone, signed in or not, and admins set them (recorded in the log)', async () => {
    const before = t.now().getTime();
    const put = await d.call(d.admin, 'PUT', '/api/mall-hours', { hours: HOURS });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().hours).toEqual(HOURS);
    expect(Date.parse(put.json().updatedAt)).toBeGreaterThanOrEqual(before);
    const anonymous = await t.app.inject({ url: '/api/mall-hours' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json().hours).toEqual(HOURS);
    expect(await lastEntry()).toMatchObject({
      entityType: 'mall',
      action: 'update',
      changes: {
        hours: {
          after:
            'Mon–Thu 10:00–21:00; Fri 10:00–14:00, 17:00–02:00; Sat 10:00–21:00; Sun Closed; 2026-12-25 Closed (Christmas Day)',
        },
      },
    });
    const cleared = await d.call(d.admin, 'PUT', '/api/mall-hours', { hours: null });
    expect(cleared.json().hours).toBeNull();
  });

  it('refuses shoppers and bad hours, naming the field', async () => {
    expect((await d.call(d.user, 'PUT', '/api/mall-hours', { hours: HOURS })).statusCode).toBe(403);
    const bad = await d.call(d.admin, 'PUT', '/api/mall-hours', {
      hours: { weekly: { ...HOURS.weekly, tue: [{ open: '09:00', close: '09:00' }] } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      code: 'VALIDATION',
      message: SAME_TIME_MESSAGE,
      fields: { 'hours.weekly.tue.0.close': SAME_TIME_MESSAGE },
    });
    expect((await d.call(d.admin, 'PUT', '/api/mall-hours', {})).statusCode).toBe(400);
    expect((await d.call(d.admin, 'PUT', '/api/mall-hours', { hours: HOURS, open: true })).statusCode).toBe(
      400,
    );
  });
});

describe("a shop's structured hours", () => {
  it('are stored beside the free text, changed and cleared through the shop write, and logged', async () => {
    const shop = await d.shop({ openingHours: '10:00 – 21:00 daily', hours: HOURS });
    expect(shop.hours).toEqual(HOURS);
    expect(shop.openingHours).toBe('10:00 – 21:00 daily');
    const read = (await d.call(d.user, 'GET', `/api/shops/${shop.id}`)).json();
    expect(read.hours).toEqual(HOURS);
    const patched = await d.call(d.admin, 'PATCH', `/api/shops/${shop.id}`, {
      hours: everyDay('09:00', '18:00'),
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().hours).toEqual(everyDay('09:00', '18:00'));
    expect(patched.json().openingHours).toBe('10:00 – 21:00 daily');
    expect((await lastEntry()).changes).toEqual({
      hours: {
        before:
          'Mon–Thu 10:00–21:00; Fri 10:00–14:00, 17:00–02:00; Sat 10:00–21:00; Sun Closed; 2026-12-25 Closed (Christmas Day)',
        after: 'Mon–Sun 09:00–18:00',
      },
    });
    const cleared = await d.call(d.admin, 'PATCH', `/api/shops/${shop.id}`, { hours: null });
    expect(cleared.json().hours).toBeNull();
  });

  it('filter the list by "open at" an instant, bounded by the mall', async () => {
    // Midday and 23:00 in the tests' zone, on a Wednesday (2026-11-25), as UTC minutes.
    const wall = (time: string) =>
      `${new Date(zonedInstant('2026-11-25', minutesOf(time), TEST_TIME_ZONE)).toISOString().slice(0, 16)}Z`;
    const day = await d.shop({ hours: everyDay('09:00', '18:00') });
    const night = await d.shop({ hours: everyDay('20:00', '02:00') });
    const closed = await d.shop({ hours: emptyWeek() });
    const unknown = await d.shop();
    const ids = async (openAt: string) => {
      const response = await d.call(d.user, 'GET', `/api/shops?openAt=${openAt}&pageSize=100`);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().items as { id: string }[]).map((s) => s.id);
    };
    await d.call(d.admin, 'PUT', '/api/mall-hours', { hours: null });
    const noon = await ids(wall('12:00'));
    expect(noon).toContain(day.id);
    expect(noon).not.toContain(night.id);
    expect(noon).not.toContain(closed.id);
    expect(noon).not.toContain(unknown.id);
    const late = await ids(wall('23:00'));
    expect(late).toContain(night.id);
    expect(late).not.toContain(day.id);
    // The mall closes at 22:00: the night shop is closed with it.
    await d.call(d.admin, 'PUT', '/api/mall-hours', { hours: everyDay('08:00', '22:00') });
    expect(await ids(wall('23:00'))).not.toContain(night.id);
    expect(await ids(wall('12:00'))).toContain(day.id);
    await d.call(d.admin, 'PUT', '/api/mall-hours', { hours: null });
  });

  it('refuse an "open at" that is not a UTC minute', async () => {
    for (const openAt of ['now', '2026-11-25T12:00:30Z', '2026-11-25T12:00', '2026-02-31T12:00Z']) {
      const response = await d.call(d.user, 'GET', `/api/shops?openAt=${encodeURIComponent(openAt)}`);
      expect(response.statusCode, openAt).toBe(400);
      expect(response.json().error.fields.openAt).toMatch(/Open at must be/);
    }
  });
});
