import { describe, expect, it } from 'vitest';
import { offersAndEvents, reviewCounts } from './review-counts';

const shop = (pendingOffers: number, pendingEvents: number, sentBackOffers = 0, sentBackEvents = 0) => ({
  pendingOffers,
  pendingEvents,
  sentBackOffers,
  sentBackEvents,
});

describe('offersAndEvents', () => {
  it('counts each kind with its singular or plural, and leaves out a kind with none', () => {
    expect(offersAndEvents(2, 1)).toBe('2 offers and 1 event');
    expect(offersAndEvents(1, 3)).toBe('1 offer and 3 events');
    expect(offersAndEvents(1, 0)).toBe('1 offer');
    expect(offersAndEvents(0, 2)).toBe('2 events');
    expect(offersAndEvents(0, 0)).toBe('');
  });
});

describe('reviewCounts', () => {
  it("says what waits for approval and what came back, and whether the shop's events need a look", () => {
    expect(reviewCounts(shop(2, 1))).toEqual({
      waiting: '2 offers and 1 event waiting for approval',
      sentBack: null,
      events: true,
    });
    expect(reviewCounts(shop(2, 0))).toEqual({
      waiting: '2 offers waiting for approval',
      sentBack: null,
      events: false,
    });
    expect(reviewCounts(shop(0, 0, 1, 2))).toEqual({
      waiting: null,
      sentBack: '1 offer and 2 events sent back',
      events: true,
    });
    expect(reviewCounts(shop(0, 0))).toEqual({ waiting: null, sentBack: null, events: false });
  });
});
