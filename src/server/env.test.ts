import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';

describe('MALL_PASSWORD_HASHING', () => {
  it("is OWASP's cost unless set, takes the test cost by name, and refuses anything else", () => {
    expect(parseEnv({}).MALL_PASSWORD_HASHING).toBe('owasp');
    expect(parseEnv({ MALL_PASSWORD_HASHING: 'fast-for-tests' }).MALL_PASSWORD_HASHING).toBe(
      'fast-for-tests',
    );
    expect(() => parseEnv({ MALL_PASSWORD_HASHING: 'fast' })).toThrow(EnvError);
    expect(() => parseEnv({ MALL_PASSWORD_HASHING: 'none' })).toThrow(/MALL_PASSWORD_HASHING/);
  });
});
