import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api';
import { explainManagerError } from './require-role';

describe('explainManagerError', () => {
  it("says what a refusal most likely means in a manager's area", () => {
    const refused = new ApiError('You do not have permission to do this', { status: 403, code: 'FORBIDDEN' });
    expect(explainManagerError(refused)).toBe(
      'You do not have permission to do this. You may no longer be a manager of this shop: ask the mall office.',
    );
  });

  it('leaves other failures as the server worded them', () => {
    const invalid = new ApiError('Title is required', { status: 400, code: 'VALIDATION' });
    expect(explainManagerError(invalid)).toBe('Title is required');
  });
});
