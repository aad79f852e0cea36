import { describe, expect, it } from 'vitest';
import { decodeFile, escapeCell, readRows, textChunks, unescapeCell, utf8Body } from './csv';

describe('formula injection', () => {
  it.each(['=1+2', '+1', '-2', '@SUM(A1)', '\tx', '\rx', "'=x", "'already"])(
    'escapes %j so a spreadsheet shows it as text, and reading gives it back',
    (value) => {
      expect(escapeCell(value).startsWith("'")).toBe(true);
      expect(unescapeCell(escapeCell(value))).toBe(value);
    },
  );
  it.each(['Lamp', '12.50', '', "it's", 'a=b'])('leaves %j as it is', (value) => {
    expect(escapeCell(value)).toBe(value);
    expect(unescapeCell(value)).toBe(value);
  });
});

describe('reading a file', () => {
  const rows = async (text: string) => {
    const out = [];
    for await (const row of readRows('products', text)) out.push(row);
    return out;
  };
  it('takes UTF-8 with or without a BOM, any header case, and numbers lines as a spreadsheet does', async () => {
    const text = decodeFile(Buffer.from('\uFEFFShop,Name,PRICE\nA,"two\nlines",1\n\nB,c,2\n'));
    expect(await rows(text)).toEqual([
      { line: 2, cells: { shop: 'A', name: 'two\nlines', price: '1' } },
      { line: 5, cells: { shop: 'B', name: 'c', price: '2' } },
    ]);
  });
  it('names what is wrong with a file', async () => {
    await expect(rows('shop,name,price,size\n')).rejects.toThrow('Unknown column: size');
    await expect(rows('shop;name;price\n')).rejects.toThrow('separated by semicolons');
    await expect(rows('shop,name,price\n"A,b,1\n')).rejects.toThrow(
      'A quote opened on line 2 is never closed',
    );
    expect(() => decodeFile(Buffer.from([0x61, 0x0a, 0x62, 0xe9]))).toThrow('line 2 is not');
  });
  it('reads 20,000 rows in slices: the event loop turns while it reads', async () => {
    const text = `shop,name,price\n${'A,b,1\n'.repeat(20_000)}`;
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    expect((await rows(text)).length).toBe(20_000);
    clearInterval(timer);
    expect(turns).toBeGreaterThan(5);
  });
});

describe('an upload kept as bytes', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it('drops the BOM and refuses what decodeFile refuses, with its message', () => {
    expect(utf8Body(bytes('\uFEFFname\nA\n')).toString('utf8')).toBe('name\nA\n');
    const latin1 = Uint8Array.from([0x6e, 0x0a, 0x43, 0x61, 0x66, 0xe9, 0x0a]);
    expect(() => utf8Body(latin1)).toThrow(/line 2 is not/);
    expect(() => utf8Body(Uint8Array.from([0xff, 0xfe, 0x41, 0x00]))).toThrow(/UTF-16/);
    expect(() => utf8Body(new Uint8Array())).toThrow(/empty/);
  });
  it('is read as text a chunk at a time, a character split between chunks kept whole', async () => {
    let text = '';
    for await (const chunk of textChunks(bytes('Café Zoë “x”'), 4)) text += chunk;
    expect(text).toBe('Café Zoë “x”');
  });
});

describe('a file read in chunks', () => {
  it('fails the rows when a chunk cannot be read (the check’s query for it failed), never leaving it unheard', async () => {
    async function* chunks() {
      yield 'shop,name,price\nA,B,1\n';
      throw new Error('the read of the next part failed');
    }
    const rows: unknown[] = [];
    const read = async () => {
      for await (const row of readRows('products', chunks())) rows.push(row);
    };
    await expect(read()).rejects.toThrow('the read of the next part failed');
  });
});
