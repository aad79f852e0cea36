import { describe, expect, it } from 'vitest';
import { describeAction, entityPath, fieldLabel, formatValue, formatWhen } from './format';

describe('audit formatting', () => {
  it('says what happened in words', () => {
    expect(describeAction({ action: 'update', entityType: 'shop' })).toBe('Changed shop');
    expect(describeAction({ action: 'use', entityType: 'invite' })).toBe('Used invite');
  });

  it('links only to records that still exist', () => {
    expect(entityPath({ entityType: 'product', entityId: 'p1', entityExists: true })).toBe(
      '/admin/products/p1',
    );
    expect(entityPath({ entityType: 'product', entityId: 'p1', entityExists: false })).toBeNull();
    // an offer no admin approved yet has no offer form: the approvals screen, or nothing when sent back
    const offer = { entityType: 'offer', entityId: 'o1', entityExists: true } as const;
    expect(entityPath(offer)).toBe('/admin/offers/o1');
    expect(entityPath({ ...offer, entityReview: 'pending' })).toBe('/admin/approvals');
    expect(entityPath({ ...offer, entityReview: 'sent_back' })).toBeNull();
    expect(entityPath({ entityType: 'floor', entityId: 'f1', entityExists: true })).toBe('/admin/categories');
    // A shop manager's membership: the shop's page, where its managers are.
    expect(entityPath({ entityType: 'membership', entityId: 'm1', entityExists: true, shopId: 's1' })).toBe(
      '/admin/shops/s1',
    );
    expect(entityPath({ entityType: 'amenity', entityId: 'a1', entityExists: true })).toBe(
      '/admin/categories',
    );
    expect(entityPath({ entityType: 'account', entityId: 'a1', entityExists: true })).toBeNull();
  });

  it('shows values and field names as people read them', () => {
    expect(formatValue(null)).toBe('—');
    expect(formatValue('')).toBe('(empty)');
    expect(formatValue(25)).toBe('25');
    expect(formatValue([{ id: 'x', name: 'Y' }])).toBe('[{"id":"x","name":"Y"}]');
    expect(fieldLabel('openingHours')).toBe('Opening hours');
    expect(fieldLabel('price')).toBe('Price');
  });

  it("writes the time in the mall's time zone, not the browser's", () => {
    const at = '2026-11-24T20:00:00.000Z';
    expect(formatWhen(at, 'Asia/Kolkata')).toContain('25');
    expect(formatWhen(at, 'America/New_York')).toContain('24');
  });
});
