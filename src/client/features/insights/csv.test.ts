import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';

describe('insights CSV', () => {
  it('quotes commas, quotes and line breaks, and keeps a formula from running in a spreadsheet', () => {
    expect(csvField('loo')).toBe('loo');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField(null)).toBe('');
    expect(toCsv(['text', 'n'], [['loo', 3]])).toBe('text,n\r\nloo,3\r\n');
  });
});
