// The demo mall's generated pictures (issue 16): every demo shop has a logo and a cover, every product a
// photo, each distinct picture is stored once, and every variant is served as a real image of its size.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_FORMATS, IMAGE_WIDTHS, parseImageKey, variantWidth } from '../../shared/images';
import { createTestApp, type TestApp } from '../test/harness';
import { loadDemoData } from './demo-data';
import { logoSvg, renderDemoPictures } from './demo-images';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await loadDemoData(t.database.db, '2026-06-15', { images: t.app.imageStore });
});
afterAll(async () => {
  await t?.close();
});

const query = async <T>(text: string) => (await t.database.pool.query(text)).rows as T[];
const one = async <T>(text: string) => {
  const [row] = await query<T>(text);
  if (!row) throw new Error(`no row: ${text}`);
  return row;
};

describe('the demo mall with pictures', () => {
  it('gives every shop a logo and a cover, and every product a photo', async () => {
    const shops = await query<{ name: string; logo: string | null; cover: string | null }>(
      'select name, logo_image as logo, cover_image as cover from shops',
    );
    expect(shops).toHaveLength(24);
    for (const shop of shops) {
      expect(parseImageKey(shop.logo), shop.name).not.toBeNull();
      expect(parseImageKey(shop.cover), shop.name).not.toBeNull();
    }
    // A logo per shop: no two shops share one.
    expect(new Set(shops.map((shop) => shop.logo)).size).toBe(24);
    const { missing } = await one<{ missing: number }>(
      'select count(*)::int as missing from products where image is null',
    );
    expect(missing).toBe(0);
  });

  it('stores each distinct picture once, with its six variants', async () => {
    const { images, referred } = await one<{ images: number; referred: number }>(
      `select (select count(*)::int from images) as images,
              (select count(distinct key)::int from (select logo_image as key from shops union all
                 select cover_image from shops union all select image from products union all
                 select plan_image from floors) k) as referred`,
    );
    expect(images).toBe(referred);
    expect(await t.app.imageStore.count()).toBe(images * IMAGE_WIDTHS.length * IMAGE_FORMATS.length);
  });

  it('serves every variant of a logo, a cover and a photo as an image of the stated width', async () => {
    const [row] = await query<{ logo: string; cover: string; photo: string }>(
      `select s.logo_image as logo, s.cover_image as cover, p.image as photo
         from shops s join products p on p.shop_id = s.id where s.name = 'Voltbay' limit 1`,
    );
    for (const key of [row?.logo, row?.cover, row?.photo]) {
      const image = parseImageKey(key);
      if (!image) throw new Error(`not an image key: ${key}`);
      for (const width of IMAGE_WIDTHS) {
        for (const format of IMAGE_FORMATS) {
          const response = await t.app.inject({ url: `/api/images/${image.key}/${width}.${format}` });
          expect(response.statusCode, `${key} ${width}.${format}`).toBe(200);
          expect(response.headers['content-type']).toBe(`image/${format}`);
          const metadata = await sharp(response.rawPayload).metadata();
          expect(metadata.format).toBe(format === 'avif' ? 'heif' : 'webp');
          expect(metadata.width).toBe(variantWidth(image, width));
        }
      }
    }
  });
});

describe('renderDemoPictures', () => {
  it('draws the same pictures on every run (the keys are the content hashes)', async () => {
    const shops = [{ name: 'Voltbay', category: 'Electronics', products: ['Power Bank'] }];
    const [first, second] = [await renderDemoPictures(shops), await renderDemoPictures(shops)];
    expect(second.logo('Voltbay')).toBe(first.logo('Voltbay'));
    expect(second.photo('Electronics', 'Power Bank')).toBe(first.photo('Electronics', 'Power Bank'));
    expect(first.all).toHaveLength(3);
  });

  it("puts the shop's initials in its logo, and nothing else of its name", () => {
    expect(logoSvg('Bean There Café')).toContain('>BT</text>');
    expect(logoSvg('<b> & "c"')).toContain('>BC</text>');
    expect(logoSvg('<b> & "c"')).not.toContain('<b>');
  });
});
