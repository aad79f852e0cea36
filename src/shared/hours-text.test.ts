import { describe, expect, it } from 'vitest';
import { everyDay, WEEKDAYS } from './hours';
import { parseHoursText } from './hours-text';

const day = (open: string, close: string) => [{ open, close }];

describe('parseHoursText', () => {
  it('reads one interval every day', () => {
    for (const text of [
      '10:00 - 21:00',
      '10:00–21:00',
      '10:00 – 21:00 daily',
      'Daily 10am to 9pm',
      '10 am - 9 pm',
    ]) {
      expect(parseHoursText(text), text).toEqual({ hours: everyDay('10:00', '21:00'), unmentioned: [] });
    }
  });

  it('reads day ranges, closed days and am/pm', () => {
    const parsed = parseHoursText('Mon–Sat 10am–9pm, Sun closed');
    expect(parsed?.unmentioned).toEqual([]);
    expect(parsed?.hours.weekly.mon).toEqual(day('10:00', '21:00'));
    expect(parsed?.hours.weekly.sat).toEqual(day('10:00', '21:00'));
    expect(parsed?.hours.weekly.sun).toEqual([]);
    expect(parseHoursText('Mon-Fri 9:30-18:00; Sat 10-4pm; Sun off')?.hours.weekly).toMatchObject({
      fri: day('09:30', '18:00'),
      sat: day('10:00', '16:00'),
      sun: [],
    });
  });

  it('reads the demo mall texts, naming the days a text leaves out', () => {
    const tueSun = parseHoursText('Tue–Sun 11:00 – 21:00');
    expect(tueSun?.hours.weekly.mon).toEqual([]);
    expect(tueSun?.hours.weekly.sun).toEqual(day('11:00', '21:00'));
    expect(tueSun?.unmentioned).toEqual(['mon']);
    expect(parseHoursText('Mon–Sat 10:00 – 21:00')?.unmentioned).toEqual(['sun']);
    expect(parseHoursText('11:30 – 23:30 daily')?.hours).toEqual(everyDay('11:30', '23:30'));
  });

  it('reads split days, overnight and midnight closes, 24 hours', () => {
    expect(parseHoursText('10:00-14:00, 16:00-21:00')?.hours.weekly.wed).toEqual([
      { open: '10:00', close: '14:00' },
      { open: '16:00', close: '21:00' },
    ]);
    expect(parseHoursText('Fri-Sat 6pm-2am')?.hours.weekly.fri).toEqual(day('18:00', '02:00'));
    expect(parseHoursText('10:00 - 00:00')?.hours.weekly.mon).toEqual(day('10:00', '24:00'));
    expect(parseHoursText('Open 24 hours')?.hours).toEqual(everyDay('00:00', '24:00'));
    // A later day group overrides the earlier one.
    const weekend = parseHoursText('Mon-Sun 10:00-21:00, Sat 10:00-23:00');
    expect(weekend?.hours.weekly.sat).toEqual(day('10:00', '23:00'));
    expect(weekend?.hours.weekly.sun).toEqual(day('10:00', '21:00'));
  });

  it('offers nothing for text it does not fully understand', () => {
    for (const text of [
      '',
      'Call for hours',
      'Mon–Sat 10:00 – 21:00 except holidays',
      '25:00-26:00',
      'Sun closed',
      '10:00',
    ]) {
      expect(parseHoursText(text), text).toBeNull();
    }
  });

  it('gives hours the schema accepts', async () => {
    const { OpeningHours } = await import('./hours');
    for (const text of ['Mon–Sat 10am–9pm, Sun closed', 'Fri-Sat 6pm-2am', 'Open 24 hours']) {
      const parsed = parseHoursText(text);
      expect(OpeningHours.safeParse(parsed?.hours).success, text).toBe(true);
    }
    expect(WEEKDAYS).toHaveLength(7);
  });
});
