import { describe, expect, it } from 'vitest';
import { NOT_YOUR_SHOP } from '../../shared/errors';
import { ApiError } from '../lib/api';
import { explainManagerError } from './require-role';

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
