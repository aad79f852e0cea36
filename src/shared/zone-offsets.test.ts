import { afterEach, describe, expect, it } from 'vitest';
import { everyDay, OpeningHours } from './hours';
import { adoptZoneOffsets, hoursStatus, wallClock, zonedInstant, zoneOffsets } from './hours-status';

// Zones with daylight saving (north and south), half-hour and 45-minute offsets, a 30-minute DST shift.
const ZONES = [
  'Europe/London',
  'America/New_York',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'America/Santiago',
];
const FROM = Date.parse('2026-01-01T00:00:00Z');
const TO = Date.parse('2027-01-01T00:00:00Z');
const HOURS = OpeningHours.parse({
  weekly: { ...everyDay('09:30', '21:00').weekly, fri: [{ open: '10:00', close: '02:00' }] },
  special: [{ date: '2026-12-24', intervals: [{ open: '08:00', close: '14:00' }] }],
});

/** Instants to compare: every 419 minutes (about 7 hours) through the year, and each change of offset ±1 s. */
function probes(changes: number[]): number[] {
  const out: number[] = [];
  for (let t = FROM; t < TO - 20 * 86_400_000; t += 419 * 60_000) out.push(t);
  for (const change of changes) out.push(change - 1000, change, change + 1000);
  return out;
}

function readings(zone: string, instants: number[]) {
  return instants.map((instant) => {
    const { date, minutes } = wallClock(instant, zone);
    const status = hoursStatus(HOURS, instant, { timeZone: zone });
    return `${date} ${minutes} ${zonedInstant(date, 600, zone)} ${status.label}`;
  });
}

afterEach(() => {
  for (const zone of ZONES) adoptZoneOffsets(zone, []);
});

describe('zoneOffsets', () => {
  it('finds each change of offset to the second (London 2026: 29 March 01:00 UTC, 25 October 01:00 UTC)', () => {
    const spans = zoneOffsets('Europe/London', FROM, TO);
    expect(spans.map((span) => [new Date(span.from).toISOString(), span.offsetMs / 60_000])).toEqual([
      ['2026-01-01T00:00:00.000Z', 0],
      ['2026-03-29T01:00:00.000Z', 60],
      ['2026-10-25T01:00:00.000Z', 0],
    ]);
    expect(spans.at(-1)?.to).toBe(TO);
  });

  it('reads the same wall clock, instants and statuses from the table as from Intl, in every zone', () => {
    for (const zone of ZONES) {
      const spans = zoneOffsets(zone, FROM, TO);
      const instants = probes(spans.slice(1).map((span) => span.from));
      const fromIntl = readings(zone, instants);
      adoptZoneOffsets(zone, spans);
      expect(readings(zone, instants), zone).toEqual(fromIntl);
    }
  });

  it('is what the wall clock is read from where it reaches (a wrong table shows)', () => {
    const instant = Date.parse('2026-06-01T12:00:00Z');
    expect(wallClock(instant, 'Asia/Kolkata').minutes).toBe(17 * 60 + 30);
    adoptZoneOffsets('Asia/Kolkata', [{ from: instant - 1000, to: instant + 1000, offsetMs: 3_600_000 }]);
    expect(wallClock(instant, 'Asia/Kolkata').minutes).toBe(13 * 60);
    // Beyond the table, Intl again.
    expect(wallClock(instant + 60_000, 'Asia/Kolkata').minutes).toBe(17 * 60 + 31);
  });
});
