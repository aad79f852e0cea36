import { describe, expect, it } from 'vitest';
import type { EventListItem } from '../../../shared/event';
import { overviewCards, weekendAfter } from './overview';
import { type EventTiming, occurrences } from './recurrence';

const ZONE = 'Europe/London';
/** An event's occurrences in the window, as the list route pairs them. */
function listed(id: string, timing: Partial<EventTiming>, from: string, to: string): EventListItem[] {
  const full: EventTiming = {
    allDay: false,
    startDate: from,
    startTime: '10:00',
    endDate: from,
    endTime: '12:00',
    repeat: null,
    ...timing,
  };
  return occurrences(full, from, to, ZONE).map((occurrence) => ({
    event: { id, title: id } as EventListItem['event'],
    occurrence,
  }));
}
const inOrder = (items: EventListItem[]) =>
  [...items].sort((a, b) => a.occurrence.start.localeCompare(b.occurrence.start));
const shown = (items: EventListItem[], today: string) =>
  overviewCards(inOrder(items), today).map((card) => [
    card.group,
    card.item.event.id,
    card.item.occurrence.startDate,
    card.moreDates,
  ]);

describe('the weekend after today', () => {
  it('is the coming Saturday and Sunday on a weekday', () => {
    expect(weekendAfter('2026-12-02')).toEqual({ from: '2026-12-05', to: '2026-12-06' }); // Wednesday
    expect(weekendAfter('2026-12-04')).toEqual({ from: '2026-12-05', to: '2026-12-06' }); // Friday
    expect(weekendAfter('2026-11-30')).toEqual({ from: '2026-12-05', to: '2026-12-06' }); // Monday
  });
  it('is only the Sunday on a Saturday, and none on a Sunday (the weekend is today)', () => {
    expect(weekendAfter('2026-12-05')).toEqual({ from: '2026-12-06', to: '2026-12-06' });
    expect(weekendAfter('2026-12-06')).toBeNull();
  });
  it('crosses a month and a year', () => {
    expect(weekendAfter('2026-12-31')).toEqual({ from: '2027-01-02', to: '2027-01-03' });
  });
});

describe("the events page's cards", () => {
  const from = '2026-12-02'; // a Wednesday
  const to = '2027-01-31';
  it('puts today, the weekend and later apart; a weekly event is one card per group with its other dates', () => {
    const market = listed(
      'market',
      {
        startDate: '2026-11-28',
        endDate: '2026-11-28',
        repeat: { freq: 'weekly', days: ['wed', 'sat', 'sun'] },
      },
      from,
      to,
    );
    const signing = listed('signing', { startDate: '2026-12-10', endDate: '2026-12-10' }, from, to);
    expect(shown([...market, ...signing], from)).toEqual([
      ['today', 'market', '2026-12-02', 0],
      ['weekend', 'market', '2026-12-05', 1],
      ['upcoming', 'market', '2026-12-09', market.length - 4],
      ['upcoming', 'signing', '2026-12-10', 0],
    ]);
  });
  it('keeps an event that began before today and runs on through it in Today', () => {
    const fair = listed(
      'fair',
      { allDay: true, startDate: '2026-11-30', endDate: '2026-12-03', startTime: null, endTime: null },
      '2026-11-30',
      to,
    );
    expect(shown(fair, from)).toEqual([['today', 'fair', '2026-11-30', 0]]);
  });
  it('puts an event spanning Friday night into Saturday in This weekend', () => {
    const late = listed(
      'late',
      { startDate: '2026-12-04', startTime: '22:00', endDate: '2026-12-05', endTime: '02:00' },
      from,
      to,
    );
    expect(shown(late, from)).toEqual([['weekend', 'late', '2026-12-04', 0]]);
  });
  it('on a Sunday has no weekend group: its events are today, the next weekend is upcoming', () => {
    const sunday = '2026-12-06';
    const market = listed(
      'market',
      { startDate: '2026-11-28', endDate: '2026-11-28', repeat: { freq: 'weekly', days: ['sat', 'sun'] } },
      sunday,
      '2026-12-20',
    );
    expect(shown(market, sunday)).toEqual([
      ['today', 'market', '2026-12-06', 0],
      ['upcoming', 'market', '2026-12-12', 3],
    ]);
  });
  it('is empty for no events', () => {
    expect(overviewCards([], from)).toEqual([]);
  });
});
