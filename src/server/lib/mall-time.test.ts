import { describe, expect, it } from 'vitest';
import { mallToday } from './mall-time';

describe('mallToday', () => {
  it('gives the date in the zone, also when asked again in the same minute or out of order', () => {
    const beforeMidnight = new Date('2026-03-28T23:59:30Z');
    const afterMidnight = new Date('2026-03-29T00:00:10Z');
    expect(mallToday('UTC', beforeMidnight)).toBe('2026-03-28');
    expect(mallToday('UTC', new Date('2026-03-28T23:59:59.999Z'))).toBe('2026-03-28');
    expect(mallToday('UTC', afterMidnight)).toBe('2026-03-29');
    // back to an earlier minute (a request's clock behind another's)
    expect(mallToday('UTC', beforeMidnight)).toBe('2026-03-28');
    // the same instant in other zones: each zone's own date
    expect(mallToday('Asia/Kolkata', beforeMidnight)).toBe('2026-03-29');
    expect(mallToday('America/New_York', afterMidnight)).toBe('2026-03-28');
    expect(mallToday('UTC', afterMidnight)).toBe('2026-03-29');
    // a zone at a quarter-hour offset (UTC+5:45) changes date on its own minute
    expect(mallToday('Asia/Kathmandu', new Date('2026-03-28T18:14:59Z'))).toBe('2026-03-28');
    expect(mallToday('Asia/Kathmandu', new Date('2026-03-28T18:15:00Z'))).toBe('2026-03-29');
  });
});
