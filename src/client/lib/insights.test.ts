import { describe, expect, it } from 'vitest';
import { SEARCH_MIN_SESSIONS } from '../../shared/insights';
import { SEARCH_MIN_SESSIONS_TEXT } from './insights';

describe('insights', () => {
  it('the Privacy page says the threshold the server keeps', () => {
    expect(SEARCH_MIN_SESSIONS_TEXT).toBe(`at least ${SEARCH_MIN_SESSIONS}`);
  });
});
