import { describe, expect, it } from 'vitest';
import { ACTIONS, type Actor, can, RESOURCES } from './permissions';

const user: Actor = { id: 'u', role: 'user' };
const admin: Actor = { id: 'a', role: 'admin' };

describe('can', () => {
  it('lets a visitor do nothing', () => {
    for (const resource of RESOURCES)
      for (const action of ACTIONS) expect(can(null, action, resource), `${action} ${resource}`).toBe(false);
  });

  it('lets a shopper read the directory and nothing more', () => {
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
