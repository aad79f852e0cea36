import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnreachable } from './errors';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnreachable', () => {
  it('knows a lost or absent database, also wrapped by Drizzle', () => {
    const lost = [
      Object.assign(withCode('connect ENOENT /data/postgres.socket/.s.PGSQL.5432', 'ENOENT'), {
        syscall: 'connect',
      }),
      Object.assign(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), { syscall: 'connect' }),
      withCode('write EPIPE', 'EPIPE'),
      withCode('terminating connection due to unexpected postmaster exit', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
    ];
    for (const error of lost) {
      expect(isDatabaseUnreachable(error), error.message).toBe(true);
      expect(isDatabaseUnreachable(new DrizzleQueryError('select 1', [], error)), error.message).toBe(true);
    }
  });

  it('leaves a query that reached the database and failed to its own answer', () => {
    for (const error of [
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('deadlock detected', '40P01'),
      Object.assign(withCode("ENOENT: no such file or directory, open 'dist/client/index.html'", 'ENOENT'), {
        syscall: 'open',
      }),
      new Error('something else'),
    ]) {
      expect(isDatabaseUnreachable(error), error.message).toBe(false);
      expect(isDatabaseUnreachable(new DrizzleQueryError('select 1', [], error))).toBe(false);
    }
    expect(isDatabaseUnreachable('not an error')).toBe(false);
  });
});
