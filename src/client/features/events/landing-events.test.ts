import { describe, expect, it } from 'vitest';
import type { EventOverviewCard } from '../../../shared/event';
import { nextThree } from './landing-events';

const card = (id: string, date: string): EventOverviewCard =>
  ({
    group: 'upcoming',
    event: { id, title: id },
    occurrence: { startDate: date },
    moreDates: 0,
  }) as unknown as EventOverviewCard;

describe("the landing page's What's on", () => {
  it('is the first three cards of different events, in their order', () => {
    const cards = [
      card('market', '2026-12-02'),
      card('market', '2026-12-09'),
      card('craft', '2026-12-03'),
      card('craft', '2026-12-05'),
      card('signing', '2026-12-10'),
      card('quiz', '2026-12-11'),
    ];
    expect(nextThree(cards).map((shown) => [shown.event.id, shown.occurrence.startDate])).toEqual([
      ['market', '2026-12-02'],
      ['craft', '2026-12-03'],
      ['signing', '2026-12-10'],
    ]);
  });
  it('is fewer when there are fewer events', () => {
    expect(nextThree([card('market', '2026-12-02'), card('market', '2026-12-09')])).toHaveLength(1);
    expect(nextThree([])).toEqual([]);
  });
});
