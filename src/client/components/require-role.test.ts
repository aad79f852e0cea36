import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../shared/auth';
import { NOT_YOUR_SHOP } from '../../shared/errors';
import { ApiError } from '../lib/api';
import { admitsManager, admitsRole, explainManagerError } from './require-role';

describe('explainManagerError', () => {
  it("says what a refusal most likely means in a manager's area", () => {
    const refused = new ApiError(NOT_YOUR_SHOP, { status: 403, code: 'FORBIDDEN' });
    expect(explainManagerError(refused)).toBe(
      "Only the mall office and this shop's managers can change it. You may no longer be one of its managers: ask the mall office.",
    );
  });

  it('leaves other failures as the server worded them', () => {
    const other = new ApiError('You do not have permission to do this', { status: 403, code: 'FORBIDDEN' });
    expect(explainManagerError(other)).toBe('You do not have permission to do this');
    const invalid = new ApiError('Title is required', { status: 400, code: 'VALIDATION' });
    expect(explainManagerError(invalid)).toBe('Title is required');
  });
});

describe("the guards' handles (what preloading asks before any read)", () => {
  const user = (role: 'admin' | 'user', managedShopIds: string[] = []) =>
    ({ id: 'u1', email: 'a@example.com', role, managedShopIds }) as unknown as SessionUser;

  it('admitsRole admits that role only', () => {
    expect(admitsRole('admin').admits(user('admin'))).toBe(true);
    expect(admitsRole('admin').admits(user('user'))).toBe(false);
    expect(admitsRole('user').admits(null)).toBe(false);
  });

  it("a manager's guard admits a user with a shop to manage, no one else", () => {
    expect(admitsManager.admits(user('user', ['s1']))).toBe(true);
    expect(admitsManager.admits(user('user'))).toBe(false);
    expect(admitsManager.admits(null)).toBe(false);
  });
});
