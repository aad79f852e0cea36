import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../shared/event';
import type { MallProfile } from '../../../shared/mall-profile';
import { calendar, escapeText, foldLine, timingOf } from './ical';
import { occurrences } from './recurrence';

const profile = { name: 'Super Mall, Central' } as MallProfile;

function event(over: Partial<Event>): Event {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    title: 'Saturday market; fresh, local',
    description:
      'Line one\nLine two — with a long tail of text that certainly runs past seventy-five octets in UTF-8: ééééé',
    shopId: null,
    shopName: null,
    shopSlug: null,
    place: { kind: 'floor', id: 'f', name: 'Ground Floor', floorId: 'f', floorName: 'Ground Floor' },
    allDay: false,
    startDate: '2026-03-21',
    startTime: '10:00',
    endDate: '2026-03-21',
    endTime: '12:00',
    tags: ['market', 'food'],
    repeat: { freq: 'weekly', days: ['sat'], count: 10, except: ['2026-04-04'] },
    status: 'scheduled',
    image: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

/** Parses a feed with ical.js and lists each event's occurrences (UTC instants) up to `until`. */
function parsed(text: string, until: string) {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const zone of root.getAllSubcomponents('vtimezone')) {
    ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  }
  return root.getAllSubcomponents('vevent').map((component) => {
    const parsedEvent = new ICAL.Event(component);
    const starts: string[] = [];
    const iterator = parsedEvent.iterator();
    for (let next = iterator.next(); next; next = iterator.next()) {
      const details = parsedEvent.getOccurrenceDetails(next);
      const start = details.startDate.toJSDate().toISOString();
      if (start > until) break;
      starts.push(start);
    }
    return { event: parsedEvent, starts };
  });
}

describe('the iCalendar feed', () => {
  for (const timeZone of ['Europe/London', 'America/New_York']) {
    it(`parsed back with ical.js gives the server's occurrences, across DST (${timeZone})`, () => {
      const weekly = event({});
      const lateNight = event({
        id: '00000000-0000-4000-8000-000000000002',
        title: 'Late night shopping',
        startDate: '2026-10-23',
        startTime: '22:00',
        endDate: '2026-10-24',
        endTime: '01:30',
        repeat: { freq: 'weekly', until: '2026-11-13' },
        status: 'cancelled',
      });
      const fair = event({
        id: '00000000-0000-4000-8000-000000000003',
        allDay: true,
        startTime: null,
        endTime: null,
        startDate: '2026-02-28',
        endDate: '2026-03-01',
        repeat: { freq: 'monthly', count: 4 },
      });
      const text = calendar([weekly, lateNight, fair], {
        timeZone,
        profile,
        name: 'Super Mall events',
        origin: 'https://mall.example',
        today: '2026-03-01',
      });
      const back = parsed(text, '2027-01-01');
      for (const [index, source] of [weekly, lateNight, fair].entries()) {
        const expected = occurrences(timingOf(source), '2026-01-01', '2027-01-01', timeZone);
        const mine = back[index];
        if (source.allDay) {
          // Dates have no zone: compare the dates.
          const dates = [] as string[];
          const iterator = mine?.event.iterator();
          for (let next = iterator?.next(); next; next = iterator?.next()) dates.push(next.toString());
          expect(dates).toEqual(expected.map((occurrence) => occurrence.startDate));
        } else {
          expect(mine?.starts).toEqual(expected.map((occurrence) => occurrence.start));
        }
      }
      expect(back[0]?.event.summary).toBe(weekly.title);
      expect(back[0]?.event.description).toBe(weekly.description);
      expect(back[1]?.event.component.getFirstPropertyValue('status')).toBe('CANCELLED');
      expect(back[0]?.event.startDate.zone?.tzid).toBe(timeZone);
    });
  }

  it('uses CRLF, folds at 75 octets, escapes text', () => {
    const text = calendar([event({})], {
      timeZone: 'Europe/London',
      profile,
      name: 'Events',
      origin: '',
      today: '2026-03-01',
    });
    const lines = text.split('\r\n');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(escapeText('a,b;c\\d\ne')).toBe('a\\,b\\;c\\\\d\\ne');
    expect(foldLine('x'.repeat(80))).toBe(`${'x'.repeat(75)}\r\n ${'x'.repeat(5)}`);
    expect(text).toContain('LOCATION:Ground Floor\\, Ground Floor\\, Super Mall\\, Central');
  });
});
