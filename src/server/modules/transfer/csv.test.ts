import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFile, escapeCell, readRows, textChunks, unescapeCell, utf8Body } from './csv';
import { csvText } from './export';

describe('formula injection', () => {
  it.each(['=1+2', '+1', '-2', '@SUM(A1)', '\tx', '\rx', "'=x", "'already"])(
    'escapes %j so a spreadsheet shows it as text, and reading gives it back',
    (value) => {
      expect(escapeCell(value).startsWith("'")).toBe(true);
      expect(unescapeCell(escapeCell(value))).toBe(value);
    },
  );
  it('escapes every place a spreadsheet splitting on ";", tab or lines could start a formula, and reads it back', () => {
    // the attack: a ";"-separated reader honours a quote only at a field's start, so quoting is not enough
    expect(escapeCell('x;=1+1;')).toBe("x;'=1+1;");
    expect(escapeCell('a\n=1+1')).toBe("a\n'=1+1");
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...";\t\r\n=+-@'ab ") }), (value) => {
        const written = escapeCell(value);
        for (const piece of written.split(/[;\t\r\n]/))
          expect(piece, JSON.stringify(written)).not.toMatch(/^[=+\-@]/);
        expect(unescapeCell(written)).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });
  it.each(['Lamp', '12.50', '', "it's", 'a=b', 'a; b'])('leaves %j as it is', (value) => {
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
  it('numbers lines right after a quoted cell holding CR LF (a Windows spreadsheet line break)', async () => {
    // csv-parse counts a CR LF inside quotes as two lines: the rows after it were reported one line late
    for (const eol of ['\n', '\r\n']) {
      const text = `shop,name,price${eol}A,"two\r\nlines",1${eol}B,c,2${eol}C,"x\r\ny\r\nz",3${eol}D,d,4${eol}`;
      expect((await rows(text)).map((row) => row.line)).toEqual([2, 4, 5, 8]);
    }
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

describe('a NUL byte', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const refusal = (line: number) =>
    `Line ${line} holds a NUL character (a zero byte), which a CSV file cannot hold; remove it (or save the file as "CSV UTF-8") and upload it again`;
  it.each([
    ['a cell', 'shop,name,price\nA,b\u0000,1\n', 2],
    ['a cell after a quoted line break', 'shop,name,price\nA,"b\nc",1\nA,\u0000,2\n', 4],
    ['the header', '\uFEFFshop,\u0000name,price\n', 1],
    ['a UTF-16 file without its BOM', 's\u0000h\u0000o\u0000p\u0000', 1],
  ])('in %s: the file is refused, naming the line (the upload and npm run import)', (_label, text, line) => {
    expect(() => utf8Body(bytes(text))).toThrow(refusal(line));
    expect(() => decodeFile(bytes(text))).toThrow(refusal(line));
  });
  it('a file without one is taken as before', () => {
    expect(utf8Body(bytes('shop,name,price\nA,b,1\n')).toString('utf8')).toBe('shop,name,price\nA,b,1\n');
    expect(decodeFile(bytes('shop,name,price\nA,b,1\n'))).toBe('shop,name,price\nA,b,1\n');
  });
});

describe('a CSV file written', () => {
  it('quotes every cell of every row, an empty one too, keeping the formula escape (the header is bare)', async () => {
    const text = csvText(
      ['name', 'price', 'offer'],
      [
        ['a;=1+1', '12.50', ''],
        ['a\tb', '=1', 'x"y'],
      ],
    );
    expect(text).toBe('\uFEFFname,price,offer\r\n"a;\'=1+1","12.50",""\r\n"a\tb","\'=1","x""y"\r\n');
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
