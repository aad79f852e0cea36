import { describe, expect, it } from 'vitest';
import { changedFields, withoutSecrets } from './write-path';

describe('changedFields (what an audit entry keeps)', () => {
  it('keeps only the fields whose values differ, with before and after', () => {
    expect(
      changedFields(
        { name: 'Pixel Point', contact: '', floor: 'Ground', tags: ['a'] },
        { name: 'Pixel Point', contact: 'Call 555', floor: 'First', tags: ['a'] },
      ),
    ).toEqual({ contact: { before: '', after: 'Call 555' }, floor: { before: 'Ground', after: 'First' } });
  });

  it('records a create as every field from null and a delete as every field to null', () => {
    expect(changedFields(null, { name: 'New', price: '1.00' })).toEqual({
      name: { before: null, after: 'New' },
      price: { before: null, after: '1.00' },
    });
    expect(changedFields({ name: 'Old' }, null)).toEqual({ name: { before: 'Old', after: null } });
  });

  it('never keeps a password, code or token, whatever a snapshot carries', () => {
    const secrets = {
      password: 'p',
      passwordHash: 'scrypt$…',
      code: 'ABCD-EFGH',
      codeHash: 'x',
      token: 't',
      tokenHash: 'y',
      inviteCode: 'z',
    };
    expect(changedFields(null, { email: 'a@b.c', ...secrets })).toEqual({
      email: { before: null, after: 'a@b.c' },
    });
  });
});

describe('withoutSecrets', () => {
  it('removes secret fields at any depth, in a detail too', () => {
    expect(
      withoutSecrets({
        account: 'a@b.c',
        invite: { codeHint: 'WXYZ', code: 'ABCD-WXYZ' },
        list: [{ token: 't', id: 1 }],
      }),
    ).toEqual({ account: 'a@b.c', invite: { codeHint: 'WXYZ' }, list: [{ id: 1 }] });
    expect(changedFields(null, { nested: { passwordHash: 'h', kept: 1 } })).toEqual({
      nested: { before: null, after: { kept: 1 } },
    });
  });
});
