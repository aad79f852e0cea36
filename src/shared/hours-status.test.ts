import { describe, expect, it } from 'vitest';
import { everyDay, type OpeningHours as Hours, OpeningHours } from './hours';
import { hoursStatus, isOpenAt, wallClock, zonedInstant } from './hours-status';

const LONDON = 'Europe/London';
const NEW_YORK = 'America/New_York';
const KOLKATA = 'Asia/Kolkata';

/** An instant given as an ISO string with its offset, as a test reads best. */
const at = (iso: string) => Date.parse(iso);

function week(days: Partial<Hours['weekly']>, special: Hours['special'] = []): Hours {
  return OpeningHours.parse({ weekly: { ...everyDay('10:00', '21:00').weekly, ...days }, special });
}

describe('zonedInstant', () => {
  it('turns a wall-clock time into an instant on ordinary and daylight-saving days', () => {
    expect(new Date(zonedInstant('2026-11-24', 600, LONDON)).toISOString()).toBe('2026-11-24T10:00:00.000Z');
    expect(new Date(zonedInstant('2026-07-01', 600, LONDON)).toISOString()).toBe('2026-07-01T09:00:00.000Z');
    expect(new Date(zonedInstant('2026-11-24', 600, KOLKATA)).toISOString()).toBe('2026-11-24T04:30:00.000Z');
    // London springs forward at 01:00 GMT on 29 March 2026: 01:30 does not exist and moves on to 02:30 BST.
    expect(new Date(zonedInstant('2026-03-29', 90, LONDON)).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // …and falls back at 02:00 BST on 25 October 2026: 01:30 happens twice, the first one is meant.
    expect(new Date(zonedInstant('2026-10-25', 90, LONDON)).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // Minutes past 1440 are the next day's.
    expect(new Date(zonedInstant('2026-11-24', 1440 + 120, NEW_YORK)).toISOString()).toBe(
      '2026-11-25T07:00:00.000Z',
    );
  });

  it('reads the wall clock of an instant', () => {
    expect(wallClock(at('2026-11-24T23:30:00Z'), KOLKATA)).toMatchObject({
      date: '2026-11-25',
      minutes: 300,
    });
  });
});

describe('hoursStatus', () => {
  const daily = everyDay('10:00', '21:00');
  const opts = { timeZone: LONDON };

  it('is open with its closing time, and "Closes in N min" near it', () => {
    expect(hoursStatus(daily, at('2026-11-24T12:00:00Z'), opts).label).toBe('Open now · closes 21:00');
    const soon = hoursStatus(daily, at('2026-11-24T20:40:00Z'), opts);
    expect(soon).toMatchObject({
      state: 'open',
      closingSoon: true,
      minutesToClose: 20,
      label: 'Closes in 20 min',
    });
    // A wider warning window.
    expect(hoursStatus(daily, at('2026-11-24T20:00:00Z'), { ...opts, soonMinutes: 60 }).label).toBe(
      'Closes in 60 min',
    );
    expect(hoursStatus(daily, at('2026-11-24T20:00:00Z'), opts).label).toBe('Open now · closes 21:00');
  });

  it('is closed with the next opening: later today, tomorrow, or a weekday', () => {
    expect(hoursStatus(daily, at('2026-11-24T08:00:00Z'), opts).label).toBe('Closed · opens 10:00');
    expect(hoursStatus(daily, at('2026-11-24T21:00:00Z'), opts).label).toBe('Closed · opens tomorrow 10:00');
    // Tuesday 24 Nov 2026 at 22:00, closed on Wednesday and Thursday: opens Friday.
    const midweek = week({ wed: [], thu: [] });
    expect(hoursStatus(midweek, at('2026-11-24T22:00:00Z'), opts).label).toBe('Closed · opens Fri 10:00');
    // Closed all week but Monday: from Tuesday noon, "Mon"; from Monday night, a week on, by its date.
    const mondays = OpeningHours.parse({
      weekly: {
        mon: [{ open: '10:00', close: '21:00' }],
        tue: [],
        wed: [],
        thu: [],
        fri: [],
        sat: [],
        sun: [],
      },
    });
    expect(hoursStatus(mondays, at('2026-11-24T12:00:00Z'), opts).label).toBe('Closed · opens Mon 10:00');
    expect(hoursStatus(mondays, at('2026-11-23T22:00:00Z'), opts).label).toBe('Closed · opens 30 Nov 10:00');
    expect(hoursStatus(emptyHours(), at('2026-11-24T12:00:00Z'), opts).label).toBe('Closed');
  });

  it('is unknown without structured hours', () => {
    expect(hoursStatus(null, at('2026-11-24T12:00:00Z'), opts)).toMatchObject({
      state: 'unknown',
      label: '',
    });
    expect(isOpenAt(null, at('2026-11-24T12:00:00Z'), opts)).toBe(false);
  });

  it('runs an interval past midnight into the next day', () => {
    const late = week({ fri: [{ open: '18:00', close: '02:00' }], sat: [] });
    // Friday 27 Nov 2026, 23:00 GMT: open until 02:00 on Saturday.
    expect(hoursStatus(late, at('2026-11-27T23:00:00Z'), opts).label).toBe('Open now · closes 02:00');
    // Saturday 01:45: still Friday's interval, closing in 15 minutes although Saturday is closed.
    expect(hoursStatus(late, at('2026-11-28T01:45:00Z'), opts)).toMatchObject({
      state: 'open',
      label: 'Closes in 15 min',
    });
    expect(isOpenAt(late, at('2026-11-28T01:45:00Z'), opts)).toBe(true);
    // Saturday 02:00: closed, next opening Sunday 10:00.
    expect(hoursStatus(late, at('2026-11-28T02:00:00Z'), opts).label).toBe('Closed · opens tomorrow 10:00');
    // An interval to midnight, and one that joins the next day's: open through.
    const joined = week({
      mon: [{ open: '10:00', close: '24:00' }],
      tue: [{ open: '00:00', close: '03:00' }],
    });
    expect(hoursStatus(joined, at('2026-11-23T23:00:00Z'), opts).label).toBe('Open now · closes 03:00');
  });

  it('counts real minutes on the days the clocks change', () => {
    // New York falls back at 02:00 EDT on 1 Nov 2026: the night 22:00–04:00 lasts 7 hours.
    const night = OpeningHours.parse({ weekly: { ...everyDay('22:00', '04:00').weekly } });
    const ny = { timeZone: NEW_YORK };
    // 01:30 EDT (05:30Z), the first 01:30: closes at 04:00 EST = 09:00Z, 210 min later.
    const first = hoursStatus(night, at('2026-11-01T05:30:00Z'), { ...ny, soonMinutes: 300 });
    expect(first).toMatchObject({ state: 'open', minutesToClose: 210 });
    // London springs forward on 29 March 2026: a shop 00:00–03:00 is open two real hours.
    const small = week({ sun: [{ open: '00:00', close: '03:00' }] });
    const start = at('2026-03-29T00:00:00Z');
    expect(hoursStatus(small, start, { timeZone: LONDON, soonMinutes: 180 }).minutesToClose).toBe(120);
    // Before the change (Saturday 28 March, 22:00 GMT) it opens Sunday at 00:00 GMT, "tomorrow 00:00".
    expect(hoursStatus(small, at('2026-03-28T22:00:00Z'), { timeZone: LONDON }).label).toBe(
      'Closed · opens tomorrow 00:00',
    );
    // Summer time: 10:00 BST is 09:00Z.
    expect(hoursStatus(daily, at('2026-07-01T08:59:00Z'), opts).label).toBe('Closed · opens 10:00');
    expect(hoursStatus(daily, at('2026-07-01T09:00:00Z'), opts).label).toBe('Open now · closes 21:00');
  });

  it('lets a special day replace the weekday: a closure, extended hours, a holiday', () => {
    const hours = week({}, [
      { date: '2026-12-25', intervals: [], note: 'Christmas Day' },
      { date: '2026-12-24', intervals: [{ open: '08:00', close: '23:30' }], note: 'Late shopping' },
    ]);
    expect(hoursStatus(hours, at('2026-12-25T12:00:00Z'), opts).label).toBe('Closed · opens tomorrow 10:00');
    expect(hoursStatus(hours, at('2026-12-24T22:00:00Z'), opts).label).toBe('Open now · closes 23:30');
    expect(hoursStatus(hours, at('2026-12-24T07:00:00Z'), opts).label).toBe('Closed · opens 08:00');
    // The evening before the closure: the next opening skips it.
    expect(hoursStatus(hours, at('2026-12-24T23:45:00Z'), opts).label).toBe('Closed · opens Sat 10:00');
  });

  it('lets the mall win: a shop is open only while the mall is', () => {
    const mall = week({}, [{ date: '2026-11-26', intervals: [], note: 'Staff day' }]);
    const shop = everyDay('08:00', '23:00');
    const withMall = { timeZone: LONDON, mall };
    // The shop claims 08:00, the mall opens at 10:00.
    expect(hoursStatus(shop, at('2026-11-24T09:00:00Z'), withMall).label).toBe('Closed · opens 10:00');
    expect(isOpenAt(shop, at('2026-11-24T09:00:00Z'), withMall)).toBe(false);
    // It closes with the mall at 21:00, not at 23:00.
    expect(hoursStatus(shop, at('2026-11-24T20:45:00Z'), withMall).label).toBe('Closes in 15 min');
    expect(hoursStatus(shop, at('2026-11-24T22:00:00Z'), withMall).label).toBe(
      'Closed · opens tomorrow 10:00',
    );
    // The mall's closure day closes the shop too.
    expect(hoursStatus(shop, at('2026-11-26T12:00:00Z'), withMall).label).toBe(
      'Closed · opens tomorrow 10:00',
    );
    // A shop with shorter hours keeps them.
    const short = everyDay('12:00', '18:00');
    expect(hoursStatus(short, at('2026-11-24T17:00:00Z'), withMall).label).toBe('Open now · closes 18:00');
    expect(isOpenAt(short, at('2026-11-24T17:00:00Z'), withMall)).toBe(true);
  });

  it('says when something never closes within the fortnight looked at', () => {
    const always = everyDay('00:00', '24:00');
    expect(hoursStatus(always, at('2026-11-24T03:00:00Z'), opts).label).toBe('Open now · open 24 hours');
  });
});

function emptyHours(): Hours {
  return OpeningHours.parse({ weekly: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] } });
}

describe('OpeningHours schema', () => {
  it('refuses what cannot be meant', () => {
    const bad = (weekly: unknown) => OpeningHours.safeParse({ weekly }).error?.issues.map((i) => i.message);
    const base = everyDay('10:00', '21:00').weekly;
    expect(bad({ ...base, mon: [{ open: '10:00', close: '10:00' }] })).toEqual([
      'Closing time must differ from opening time',
    ]);
    expect(bad({ ...base, mon: [{ open: '25:00', close: '10:00' }] })).toEqual([
      'Enter a time as HH:MM (00:00–23:59)',
    ]);
    expect(
      bad({
        ...base,
        tue: [
          { open: '10:00', close: '14:00' },
          { open: '13:00', close: '18:00' },
        ],
      }),
    ).toEqual(['Tuesday: intervals overlap']);
    const { sun: _sun, ...sixDays } = base;
    expect(bad(sixDays)).toHaveLength(1);
    expect(
      OpeningHours.safeParse({
        weekly: base,
        special: [
          { date: '2026-12-25', intervals: [] },
          { date: '2026-12-25', intervals: [] },
        ],
      }).error?.issues[0]?.message,
    ).toBe('2026-12-25 is listed twice: give each special day once');
  });
});
