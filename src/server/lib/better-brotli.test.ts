import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { upgradeBrotli } from './better-brotli';

const page = Buffer.from(
  Array.from(
    { length: 400 },
    (_, i) => `<li class="card p-5 shadow-sm">Shop ${i} · floor ${i % 7}</li>`,
  ).join(''),
);
const quick = zlib.brotliCompressSync(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });

describe('upgradeBrotli', () => {
  it('makes a smaller brotli of the same bytes, one body at a time', async () => {
    const first = upgradeBrotli(page, quick);
    expect(first).not.toBeNull();
    // while the first is being made, another is not started
    expect(upgradeBrotli(page, quick)).toBeNull();
    const better = await first;
    expect(better).not.toBeNull();
    expect(better?.length).toBeLessThan(quick.length);
    expect(zlib.brotliDecompressSync(better as Buffer).equals(page)).toBe(true);
    // done: the next one starts
    expect(await upgradeBrotli(page, quick)).not.toBeNull();
  });

  it('hands nothing back when it is no smaller than what is sent now', async () => {
    const best = zlib.brotliCompressSync(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
    expect(await upgradeBrotli(page, best)).toBeNull();
  });
});
