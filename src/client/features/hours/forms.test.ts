import { describe, expect, it } from 'vitest';
import { everyDay, OpeningHours, type SpecialDay } from '../../../shared/hours';
import { hoursErrorSummary, hoursErrors, specialNotePath } from './forms';

const withSpecial = (...special: SpecialDay[]) => ({ ...everyDay('10:00', '21:00'), special });

describe('hoursErrors', () => {
  it('puts a note with a line break (U+2028, CR LF) on that special day’s note field', () => {
    const errors = hoursErrors(
      withSpecial(
        { date: '2025-12-25', intervals: [], note: 'Christmas' },
        { date: '2025-12-26', intervals: [], note: 'Boxing\u2028Day' },
        { date: '2025-12-31', intervals: [], note: 'New\r\nYear' },
      ),
      OpeningHours,
    );
    expect(errors).toEqual({
      [specialNotePath(1)]: 'Note must be one line',
      [specialNotePath(2)]: 'Note must be one line',
    });
    expect(specialNotePath(1)).toBe('special.1.note');
  });

  it('has no messages for valid hours, nor for none', () => {
    expect(
      hoursErrors(withSpecial({ date: '2025-12-25', intervals: [], note: 'Christmas' }), OpeningHours),
    ).toEqual({});
    expect(hoursErrors(null, OpeningHours)).toEqual({});
  });
});

describe('hoursErrorSummary', () => {
  it('names the special day whose note needs fixing', () => {
    const errors = hoursErrors(
      withSpecial({ date: '2025-12-26', intervals: [], note: 'a\u2028b' }),
      OpeningHours,
    );
    expect(hoursErrorSummary(errors)).toBe('Special day 1, note must be one line');
  });

  it('gives other messages as they are, and nothing without messages', () => {
    expect(hoursErrorSummary({ 'weekly.mon.0.open': 'Monday: intervals overlap' })).toBe(
      'Monday: intervals overlap',
    );
    expect(hoursErrorSummary({})).toBeNull();
  });
});
