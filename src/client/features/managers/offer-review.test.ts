import { describe, expect, it } from 'vitest';
import { reviewStanding } from './offer-review';

const review = (state: 'pending' | 'sent_back') => ({
  state,
  proposal: null,
  comment: state === 'sent_back' ? 'Shorter title, please' : null,
  submittedBy: 'm@example.com',
  submittedAt: '2026-11-24T10:00:00.000Z',
  version: 'v1',
});

describe('reviewStanding', () => {
  it('names how an offer stands with the mall office', () => {
    expect(reviewStanding({ approved: true, review: null })).toBe('live');
    expect(reviewStanding({ approved: false, review: review('pending') })).toBe('pending');
    expect(reviewStanding({ approved: false, review: review('sent_back') })).toBe('sent_back');
    expect(reviewStanding({ approved: true, review: review('pending') })).toBe('live_pending');
    expect(reviewStanding({ approved: true, review: review('sent_back') })).toBe('live_sent_back');
  });
});
