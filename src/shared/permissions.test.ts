import { describe, expect, it } from 'vitest';
import { ACTIONS, type Actor, can, RESOURCES, visitorMay } from './permissions';

const user: Actor = { id: 'u', role: 'user' };
const admin: Actor = { id: 'a', role: 'admin' };

describe('can', () => {
  it('lets a visitor do nothing', () => {
    for (const resource of RESOURCES)
      for (const action of ACTIONS) expect(can(null, action, resource), `${action} ${resource}`).toBe(false);
  });

  it('lets a shopper read the directory, and change their own account, and nothing more', () => {
    const allowed = RESOURCES.flatMap((resource) =>
      ACTIONS.filter((action) => can(user, action, resource)).map((action) => `${action} ${resource}`),
    );
    expect(allowed).toEqual([
      'read category',
      'read floor',
      'read amenity',
      'read shop',
      'read product',
      'read offer',
      'read event',
      'read membership',
      'create membership',
      'update account',
      'create insight-hit',
    ]);
  });

  it('lets an admin do everything, whatever the record', () => {
    for (const resource of RESOURCES)
      for (const action of ACTIONS) {
        expect(can(admin, action, resource)).toBe(true);
        expect(can(admin, action, resource, { shopId: 'any' })).toBe(true);
      }
  });

  it('says no to a role it does not know (a row written by hand, a newer server)', () => {
    expect(can({ id: 'x', role: 'manager' as never }, 'read', 'shop')).toBe(false);
  });
});

describe('can, for a shop manager (a user with memberships)', () => {
  const manager: Actor = { id: 'm', role: 'user', managedShopIds: ['shop-1', 'shop-2'] };
  const own = { shopId: 'shop-1' };
  const other = { shopId: 'shop-9' };

  it("changes their shops' products and offers, and no other shop's", () => {
    for (const action of ['create', 'update', 'delete'] as const) {
      expect(can(manager, action, 'product', own), `${action} own product`).toBe(true);
      expect(can(manager, action, 'product', other), `${action} other product`).toBe(false);
    }
    expect(can(manager, 'create', 'offer', { shopId: 'shop-2' })).toBe(true);
    expect(can(manager, 'update', 'offer', own)).toBe(true);
    expect(can(manager, 'update', 'offer', other)).toBe(false);
    expect(can(manager, 'delete', 'offer', own)).toBe(false);
  });

  it("submits their shops' events, never a mall event, never an image, never a deletion", () => {
    expect(can(manager, 'create', 'event', own)).toBe(true);
    expect(can(manager, 'update', 'event', { ...own, fields: ['title'] })).toBe(true);
    expect(can(manager, 'update', 'event', { ...own, fields: ['image'] })).toBe(false);
    expect(can(manager, 'create', 'event', {})).toBe(false);
    expect(can(manager, 'create', 'event', other)).toBe(false);
    expect(can(manager, 'update', 'event', other)).toBe(false);
    expect(can(manager, 'delete', 'event', own)).toBe(false);
  });

  it("edits their shop's page, not its name, category or floor", () => {
    expect(can(manager, 'update', 'shop', { ...own, fields: ['contact', 'description'] })).toBe(true);
    for (const field of ['name', 'categoryId', 'floorId'])
      expect(can(manager, 'update', 'shop', { ...own, fields: ['contact', field] }), field).toBe(false);
    expect(can(manager, 'update', 'shop', { ...other, fields: ['contact'] })).toBe(false);
    expect(can(manager, 'create', 'shop')).toBe(false);
    expect(can(manager, 'delete', 'shop', own)).toBe(false);
  });

  it('is allowed past the route guard (no record) only for what some shop of theirs allows', () => {
    expect(can(manager, 'update', 'product')).toBe(true);
    expect(can(manager, 'read', 'managed-shop')).toBe(true);
    expect(can(user, 'update', 'product')).toBe(false);
    expect(can(user, 'read', 'managed-shop')).toBe(false);
    expect(can({ ...manager, managedShopIds: [] }, 'update', 'product')).toBe(false);
  });

  it('never reaches the mall office: categories, floors, invites, managers, stats, the log, approvals', () => {
    for (const resource of ['invite', 'manager', 'stats', 'audit', 'offer-review'] as const)
      for (const action of ACTIONS)
        expect(can(manager, action, resource, own), `${action} ${resource}`).toBe(false);
    // Categories and floors: read like any shopper, never changed.
    for (const resource of ['category', 'floor'] as const)
      for (const action of ['create', 'update', 'delete'] as const)
        expect(can(manager, action, resource, own), `${action} ${resource}`).toBe(false);
  });

  it("reads their own shop's insights, never another's nor the mall's; never changes synonyms", () => {
    expect(can(manager, 'read', 'insights', own)).toBe(true);
    expect(can(manager, 'read', 'insights', other)).toBe(false);
    expect(can(user, 'read', 'insights')).toBe(false);
    for (const action of ACTIONS)
      expect(can(manager, action, 'synonym', own), `${action} synonym`).toBe(false);
  });

  it('a record without a shop is no shop of theirs', () => {
    expect(can(manager, 'update', 'product', {})).toBe(false);
  });
});

describe('visitorMay', () => {
  it('lets a visitor report a hit and read the directory while the public directory is on, and nothing else', () => {
    expect(visitorMay('create', 'insight-hit', true)).toBe(true);
    expect(visitorMay('create', 'insight-hit', false)).toBe(false);
    expect(visitorMay('read', 'insights', true)).toBe(false);
    expect(visitorMay('create', 'synonym', true)).toBe(false);
  });
});
