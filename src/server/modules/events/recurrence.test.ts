import { describe, expect, it } from 'vitest';
import {
  type EventTiming,
  lastDate,
  occurrences,
  RRULE_SHAPE_MESSAGE,
  repeatFromRrule,
  repeatKey,
  rruleValue,
  upcoming,
  weekdayKey,
} from './recurrence';

const timed = (over: Partial<EventTiming>): EventTiming => ({
  allDay: false,
  startDate: '2026-03-01',
  startTime: '10:00',
  endDate: '2026-03-01',
  endTime: '12:00',
  repeat: null,
  ...over,
});
const starts = (timing: EventTiming, from: string, to: string, zone: string) =>
  occurrences(timing, from, to, zone).map((occurrence) => occurrence.start);

describe('a weekly 10:00 event stays at 10:00 across daylight-saving changes', () => {
  it('Europe/London, spring (29 March 2026) and autumn (25 October 2026)', () => {
    const sundays = timed({ startDate: '2026-03-22', endDate: '2026-03-22', repeat: { freq: 'weekly' } });
    expect(starts(sundays, '2026-03-20', '2026-04-06', 'Europe/London')).toEqual([
      '2026-03-22T10:00:00.000Z', // GMT
      '2026-03-29T09:00:00.000Z', // BST from 01:00 UTC that day
      '2026-04-05T09:00:00.000Z',
    ]);
    expect(starts(sundays, '2026-10-17', '2026-11-02', 'Europe/London')).toEqual([
      '2026-10-18T09:00:00.000Z',
      '2026-10-25T10:00:00.000Z', // GMT again
      '2026-11-01T10:00:00.000Z',
    ]);
  });

  it('America/New_York, spring (8 March 2026) and autumn (1 November 2026)', () => {
    const sundays = timed({ startDate: '2026-03-01', endDate: '2026-03-01', repeat: { freq: 'weekly' } });
    expect(starts(sundays, '2026-03-01', '2026-03-15', 'America/New_York')).toEqual([
      '2026-03-01T15:00:00.000Z', // EST
      '2026-03-08T14:00:00.000Z', // EDT
      '2026-03-15T14:00:00.000Z',
    ]);
    expect(starts(sundays, '2026-10-25', '2026-11-08', 'America/New_York')).toEqual([
      '2026-10-25T14:00:00.000Z',
      '2026-11-01T15:00:00.000Z',
      '2026-11-08T15:00:00.000Z',
    ]);
  });

  it('keeps the length on the wall clock too: 10:00–12:00 on the day the clocks change', () => {
    const sundays = timed({ startDate: '2026-03-22', endDate: '2026-03-22', repeat: { freq: 'weekly' } });
    const [changeDay] = occurrences(sundays, '2026-03-29', '2026-03-29', 'Europe/London');
    expect(changeDay).toMatchObject({
      start: '2026-03-29T09:00:00.000Z',
      end: '2026-03-29T11:00:00.000Z',
      startTime: '10:00',
      endTime: '12:00',
    });
  });
});

describe('repeats', () => {
  it('weekly on chosen days, with exceptions, for a number of times (exceptions count, as RFC 5545)', () => {
    const weekend = timed({
      startDate: '2026-03-21',
      endDate: '2026-03-21',
      repeat: { freq: 'weekly', days: ['sat', 'sun'], count: 6, except: ['2026-03-28'] },
    });
    const dates = occurrences(weekend, '2026-03-01', '2026-12-31', 'Europe/London').map((o) => o.startDate);
    expect(dates).toEqual(['2026-03-21', '2026-03-22', '2026-03-29', '2026-04-04', '2026-04-05']);
    expect(lastDate(weekend)).toBe('2026-04-05');
    expect(rruleValue(weekend, 'Europe/London')).toBe('FREQ=WEEKLY;BYDAY=SA,SU;COUNT=6');
  });

  it('monthly until a date (the date counts), every other month', () => {
    const monthly = timed({
      startDate: '2026-01-15',
      endDate: '2026-01-15',
      repeat: { freq: 'monthly', interval: 2, until: '2026-07-15' },
    });
    const dates = occurrences(monthly, '2026-01-01', '2027-12-31', 'America/New_York').map(
      (o) => o.startDate,
    );
    expect(dates).toEqual(['2026-01-15', '2026-03-15', '2026-05-15', '2026-07-15']);
    // UNTIL: the last second of 15 July in New York (EDT, UTC−4), in UTC.
    expect(rruleValue(monthly, 'America/New_York')).toBe('FREQ=MONTHLY;INTERVAL=2;UNTIL=20260716T035959Z');
  });

  it('a repeat with no end has no last date, and the next occurrences come a year at a time', () => {
    const weekly = timed({ startDate: '2026-01-05', endDate: '2026-01-05', repeat: { freq: 'weekly' } });
    expect(lastDate(weekly)).toBeNull();
    const monday = upcoming(weekly, '2026-06-01', 'Europe/London', 3);
    expect(monday.map((o) => o.startDate)).toEqual(['2026-06-01', '2026-06-08', '2026-06-15']);
    // The next day, Monday's is over; a year later, still weekly.
    expect(upcoming(weekly, '2026-06-02', 'Europe/London', 1).map((o) => o.startDate)).toEqual([
      '2026-06-08',
    ]);
    expect(upcoming(weekly, '2027-06-02', 'Europe/London', 1).map((o) => o.startDate)).toEqual([
      '2027-06-07',
    ]);
  });

  it('the weekday of a date', () => {
    expect(weekdayKey('2026-11-29')).toBe('sun');
    expect(weekdayKey('1969-12-31')).toBe('wed');
  });
});

describe('an event spanning midnight', () => {
  const lateNight = timed({
    startDate: '2026-10-23',
    startTime: '22:00',
    endDate: '2026-10-24',
    endTime: '02:00',
    repeat: { freq: 'weekly' },
  });

  it('ends the next day, and shows on both dates', () => {
    const [friday] = occurrences(lateNight, '2026-10-23', '2026-10-23', 'Europe/London');
    expect(friday).toMatchObject({
      start: '2026-10-23T21:00:00.000Z',
      end: '2026-10-24T01:00:00.000Z',
      startDate: '2026-10-23',
      endDate: '2026-10-24',
    });
    // Asked for Saturday only: Friday's night is still going on.
    expect(
      occurrences(lateNight, '2026-10-24', '2026-10-24', 'Europe/London').map((o) => o.startDate),
    ).toEqual(['2026-10-23']);
  });

  it('a night across the autumn change is five hours long (the clock goes back once)', () => {
    const [night] = occurrences(
      { ...lateNight, startDate: '2026-10-24', endDate: '2026-10-25' },
      '2026-10-24',
      '2026-10-24',
      'Europe/London',
    );
    expect(night).toMatchObject({ start: '2026-10-24T21:00:00.000Z', end: '2026-10-25T02:00:00.000Z' });
  });
});

describe('all-day events', () => {
  it('run from the start of the first date to the start of the day after the last, in the zone', () => {
    const market = {
      allDay: true,
      startDate: '2026-03-28',
      startTime: null,
      endDate: '2026-03-29',
      endTime: null,
      repeat: null,
    };
    const [weekend] = occurrences(market, '2026-03-01', '2026-03-31', 'Europe/London');
    // Saturday 00:00 GMT to Monday 00:00 BST: 47 hours.
    expect(weekend).toMatchObject({
      start: '2026-03-28T00:00:00.000Z',
      end: '2026-03-29T23:00:00.000Z',
      startTime: null,
      endTime: null,
    });
  });

  it('repeat with a date UNTIL', () => {
    const fair = {
      allDay: true,
      startDate: '2026-11-01',
      startTime: null,
      endDate: '2026-11-01',
      endTime: null,
      repeat: { freq: 'monthly' as const, until: '2027-01-01' },
    };
    expect(rruleValue(fair, 'America/New_York')).toBe('FREQ=MONTHLY;UNTIL=20270101');
    expect(occurrences(fair, '2026-11-01', '2027-12-31', 'America/New_York').map((o) => o.start)).toEqual([
      '2026-11-01T04:00:00.000Z', // EDT until 06:00 UTC that day
      '2026-12-01T05:00:00.000Z',
      '2027-01-01T05:00:00.000Z',
    ]);
  });
});

describe('an RRULE read back (the events import: docs/decisions/038)', () => {
  const repeats: EventTiming['repeat'][] = [
    { freq: 'weekly' },
    { freq: 'weekly', days: ['sat', 'mon'], interval: 2, count: 6 },
    { freq: 'weekly', until: '2026-06-27' },
    { freq: 'monthly', interval: 3, until: '2026-12-31' },
    { freq: 'monthly', count: 500 },
  ];
  for (const zone of ['America/New_York', 'Asia/Kolkata', 'Pacific/Auckland', 'UTC'])
    for (const allDay of [false, true])
      it(`gives back what rruleValue wrote: ${zone}, ${allDay ? 'all day' : 'timed'}`, () => {
        for (const repeat of repeats) {
          const timing = allDay
            ? { ...timed({ repeat }), startTime: null, endTime: null, allDay: true }
            : timed({ startTime: '23:30', endTime: '23:45', repeat });
          const written = rruleValue(timing, zone) as string;
          const read = repeatFromRrule(written, zone);
          expect('repeat' in read, written).toBe(true);
          // The same repeat: days written out and the interval of 1 are what the stored one means.
          const back = (read as { repeat: EventTiming['repeat'] }).repeat;
          expect(repeatKey(back, timing.startDate), written).toBe(repeatKey(repeat, timing.startDate));
        }
      });

  it('reads a timed UNTIL, written in UTC, as the mall’s date — not the UTC date', () => {
    // 23:59:59 on 27 June in New York is 03:59:59 on the 28th in UTC.
    expect(repeatFromRrule('FREQ=WEEKLY;UNTIL=20260628T035959Z', 'America/New_York')).toEqual({
      repeat: { freq: 'weekly', until: '2026-06-27' },
    });
    // 23:59:59 on 27 June in Auckland is 11:59:59 on the 27th in UTC; a date stays the date.
    expect(repeatFromRrule('RRULE:freq=monthly;until=20260627T115959Z', 'Pacific/Auckland')).toEqual({
      repeat: { freq: 'monthly', until: '2026-06-27' },
    });
    expect(repeatFromRrule('FREQ=MONTHLY;UNTIL=20270101', 'Pacific/Auckland')).toEqual({
      repeat: { freq: 'monthly', until: '2027-01-01' },
    });
  });

  it('hands what the schema refuses on to it, and refuses what is no RRULE of the events form', () => {
    expect(repeatFromRrule('FREQ=DAILY;INTERVAL=x;COUNT=2.5;BYDAY=SA,1MO', 'UTC')).toEqual({
      repeat: { freq: 'daily', interval: Number.NaN, count: Number.NaN, days: ['sat', '1mo'] },
    });
    expect(repeatFromRrule('FREQ=WEEKLY;UNTIL=soon', 'UTC')).toEqual({
      repeat: { freq: 'weekly', until: 'SOON' },
    });
    expect(repeatFromRrule('FREQ=MONTHLY;BYSETPOS=-1', 'UTC')).toEqual({
      message:
        "Repeat cannot use BYSETPOS: events repeat weekly on chosen days or monthly on the start date's day",
    });
    expect(repeatFromRrule('FREQ=WEEKLY;FREQ=MONTHLY', 'UTC')).toEqual({ message: 'Repeat has FREQ twice' });
    for (const text of ['weekly', ';', 'RRULE:', '=WEEKLY'])
      expect(repeatFromRrule(text, 'UTC')).toEqual({ message: RRULE_SHAPE_MESSAGE });
  });

  it('tells two ways of writing the same repeat from a different one', () => {
    const saturday = '2026-03-21';
    expect(repeatKey({ freq: 'weekly' }, saturday)).toBe(
      repeatKey(
        { freq: 'weekly', days: ['sat'], interval: 1, until: null, count: null, except: [] },
        saturday,
      ),
    );
    expect(repeatKey({ freq: 'weekly', except: ['2026-04-04', '2026-03-28'] }, saturday)).toBe(
      repeatKey({ freq: 'weekly', except: ['2026-03-28', '2026-04-04'] }, saturday),
    );
    expect(repeatKey({ freq: 'weekly' }, saturday)).not.toBe(
      repeatKey({ freq: 'weekly', days: ['sun'] }, saturday),
    );
    expect(repeatKey({ freq: 'weekly', count: 3 }, saturday)).not.toBe(
      repeatKey({ freq: 'weekly' }, saturday),
    );
    expect(repeatKey(null, saturday)).not.toBe(repeatKey({ freq: 'monthly' }, saturday));
  });
});
