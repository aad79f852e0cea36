// Images (docs/decisions/020): upload, replace and remove on every slot's routes, who may, what is
// refused, the immutable serving, and no leftovers — counted in files (embedded) or rows (PostgreSQL).
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImageKey } from '../../../shared/images';
import { type Directory, openDirectory } from '../../test/catalog-fixtures';
import { createTestApp, type SignedIn, type TestApp } from '../../test/harness';
import { gpsJpeg, multipart, testJpeg } from '../../test/images';
import { contentHash } from './pipeline';

let t: TestApp;
let d: Directory;

beforeAll(async () => {
  t = await createTestApp();
  d = await openDirectory(t);
});
afterAll(async () => {
  await t.close();
});

const upload = (
  as: SignedIn | null,
  url: string,
  body: { payload: Buffer; headers: Record<string, string> },
) =>
  t.app.inject({
    method: 'PUT',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(as?.headers ?? {}) },
  });

async function uploaded(response: LightMyRequestResponse): Promise<string> {
  expect(response.statusCode, response.body).toBe(200);
  const key = response.json().image as string;
  expect(parseImageKey(key)).not.toBeNull();
  return key;
}

const rowCount = async (table: 'images' | 'image_variants') =>
  Number((await t.database.pool.query(`select count(*)::int as n from ${table}`)).rows[0].n);

/** What is stored: image rows, and variants (files embedded, rows in PostgreSQL). */
const stored = async () => ({ images: await rowCount('images'), variants: await t.app.imageStore.count() });

describe('uploading, replacing and removing', () => {
  it('a shop logo: uploaded, shown on the shop, replaced, removed — and nothing left behind', async () => {
    const before = await stored();
    const shop = await d.shop();
    const first = await uploaded(
      await upload(d.admin, `/api/shops/${shop.id}/logo`, multipart(await testJpeg())),
    );
    expect((await d.call(d.admin, 'GET', `/api/shops/${shop.id}`)).json().logo).toBe(first);
    expect(await stored()).toEqual({ images: before.images + 1, variants: before.variants + 6 });

    const second = await uploaded(
      await upload(d.admin, `/api/shops/${shop.id}/logo`, multipart(await testJpeg(), { type: 'image/png' })),
    );
    expect(second).not.toBe(first);
    // The first is gone with its variants.
    expect(await stored()).toEqual({ images: before.images + 1, variants: before.variants + 6 });
    expect((await t.app.inject({ url: `/api/images/${first}/160.webp` })).statusCode).toBe(404);

    const removed = await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}/logo`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await d.call(d.admin, 'GET', `/api/shops/${shop.id}`)).json().logo).toBeNull();
    expect(await stored()).toEqual(before);
  });

  it('one picture used twice is stored once and kept while anything still shows it', async () => {
    const before = await stored();
    const photo = await testJpeg();
    const shop = await d.shop();
    const logo = await uploaded(await upload(d.admin, `/api/shops/${shop.id}/logo`, multipart(photo)));
    const cover = await uploaded(await upload(d.admin, `/api/shops/${shop.id}/cover`, multipart(photo)));
    expect(cover).toBe(logo);
    expect(await stored()).toEqual({ images: before.images + 1, variants: before.variants + 6 });
    await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}/logo`);
    expect((await t.app.inject({ url: `/api/images/${cover}/480.avif` })).statusCode).toBe(200);
    await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}/cover`);
    expect(await stored()).toEqual(before);
  });

  it('deleting a shop deletes its images and its products’ photos (counted in files and rows)', async () => {
    const before = await stored();
    const shop = await d.shop();
    const product = await d.product({ shopId: shop.id });
    await uploaded(await upload(d.admin, `/api/shops/${shop.id}/logo`, multipart(await testJpeg())));
    await uploaded(await upload(d.admin, `/api/shops/${shop.id}/cover`, multipart(await testJpeg())));
    const photo = await uploaded(
      await upload(d.admin, `/api/products/${product.id}/photo`, multipart(await testJpeg())),
    );
    expect((await d.call(d.admin, 'GET', `/api/products/${product.id}`)).json().image).toBe(photo);
    expect(await stored()).toEqual({ images: before.images + 3, variants: before.variants + 18 });
    expect((await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}`)).statusCode).toBe(204);
    expect(await stored()).toEqual(before);
  });

  it('deleting a product deletes its photo; a floor’s plan goes when removed', async () => {
    const before = await stored();
    const product = await d.product();
    await uploaded(await upload(d.admin, `/api/products/${product.id}/photo`, multipart(await testJpeg())));
    expect((await d.call(d.admin, 'DELETE', `/api/products/${product.id}`)).statusCode).toBe(204);
    expect(await stored()).toEqual(before);

    const floor = await d.floor();
    const plan = await uploaded(
      await upload(
        d.admin,
        `/api/floors/${floor.id}/plan`,
        multipart(await testJpeg({ width: 1600, height: 900 })),
      ),
    );
    expect(parseImageKey(plan)).toMatchObject({ width: 1200, height: 675 });
    expect((await d.call(d.admin, 'DELETE', `/api/floors/${floor.id}/plan`)).statusCode).toBe(200);
    expect(await stored()).toEqual(before);
  });

  it('a removal with nothing to remove changes nothing; an unknown record is 404', async () => {
    const shop = await d.shop();
    expect((await d.call(d.admin, 'DELETE', `/api/shops/${shop.id}/cover`)).json()).toEqual({ image: null });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await d.call(d.admin, 'DELETE', `/api/products/${missing}/photo`)).statusCode).toBe(404);
    expect(
      (await upload(d.admin, `/api/shops/${missing}/logo`, multipart(await testJpeg()))).statusCode,
    ).toBe(404);
  });
});

describe('an upload over a real connection', () => {
  it('reaches the image worker whole, piece by piece as the socket delivers it: its key is the hash of the bytes sent', async () => {
    // app.inject hands the body over in one piece; a socket delivers a large file in many reads, each
    // moved to the image worker (image-workers.ts): the key proves every byte arrived, in order.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const shop = await d.shop();
    const file = await sharp(randomBytes(1200 * 900 * 3), { raw: { width: 1200, height: 900, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(file.length).toBeGreaterThan(1024 * 1024);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)], { type: 'image/jpeg' }), 'noise.jpg');
    const response = await fetch(`${address}/api/shops/${shop.id}/cover`, {
      method: 'PUT',
      body: form,
      headers: { ...d.admin.headers, 'x-mall-upload': '1' },
    });
    const body = (await response.json()) as { image: string };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.image).toBe(`${await contentHash(file)}-1200x900`);
    expect((await d.row('shops', shop.id))?.cover_image).toBe(body.image);
  });
});

describe('what shoppers are sent', () => {
  it('variants are immutable, content-addressed, with an ETag that answers 304, and carry no GPS', async () => {
    const shop = await d.shop();
    const key = await uploaded(
      await upload(d.admin, `/api/shops/${shop.id}/logo`, multipart(await gpsJpeg())),
    );
    for (const variant of ['160.webp', '480.avif', '1200.webp']) {
      // Any signed-in shopper's browser, or none: the URL is the capability (decision 020).
      const response = await t.app.inject({ url: `/api/images/${key}/${variant}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['content-type']).toBe(variant.endsWith('avif') ? 'image/avif' : 'image/webp');
      const metadata = await sharp(response.rawPayload).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      const etag = response.headers.etag as string;
      expect(etag).toContain(key);
      const again = await t.app.inject({
        url: `/api/images/${key}/${variant}`,
        headers: { 'if-none-match': etag },
      });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    }
    expect((await t.app.inject({ url: `/api/images/${key}/999.webp` })).statusCode).toBe(404);
    const unknown = `${'A'.repeat(43)}-10x10`;
    const missing = await t.app.inject({ url: `/api/images/${unknown}/160.webp` });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });
});

describe('who may', () => {
  it('a manager changes their own shop’s images and products’ photos, not another shop’s nor a floor plan', async () => {
    const shop = await d.shop();
    const other = await d.shop();
    const manager = await d.manager(shop.id);
    const product = await d.product({ shopId: shop.id });
    const otherProduct = await d.product({ shopId: other.id });
    await uploaded(await upload(manager, `/api/shops/${shop.id}/logo`, multipart(await testJpeg())));
    await uploaded(await upload(manager, `/api/products/${product.id}/photo`, multipart(await testJpeg())));
    expect((await d.call(manager, 'DELETE', `/api/shops/${shop.id}/logo`)).statusCode).toBe(200);
    for (const url of [`/api/shops/${other.id}/logo`, `/api/products/${otherProduct.id}/photo`]) {
      expect((await upload(manager, url, multipart(await testJpeg()))).statusCode).toBe(403);
      expect((await d.call(manager, 'DELETE', url)).statusCode).toBe(403);
    }
    const floor = await d.floor();
    expect(
      (await upload(manager, `/api/floors/${floor.id}/plan`, multipart(await testJpeg()))).statusCode,
    ).toBe(403);
    expect(
      (await upload(d.user, `/api/shops/${shop.id}/cover`, multipart(await testJpeg()))).statusCode,
    ).toBe(403);
    expect((await upload(null, `/api/shops/${shop.id}/cover`, multipart(await testJpeg()))).statusCode).toBe(
      401,
    );
  });
});

describe('what is refused', () => {
  // The refused files and requests themselves are in the bad-input corpus (security/bad-input.api.test.ts).
  it('every other write route still refuses a multipart body', async () => {
    const shop = await d.shop();
    const body = multipart(await testJpeg());
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/shops/${shop.id}`,
      payload: body.payload,
      headers: { ...d.admin.headers, ...body.headers },
    });
    expect(response.statusCode).toBe(415);
  });
});

describe('many uploads at once', () => {
  it('decodes a few at a time, queues a few more, and answers the rest 503 with Retry-After, changing nothing for them', async () => {
    const shops = await Promise.all(Array.from({ length: 16 }, () => d.shop()));
    const before = await stored();
    // Distinct pictures (a repeated one would be stored once), large enough that decoding takes a while.
    const files = await Promise.all(
      shops.map((_, i) =>
        testJpeg({ width: 1600, height: 1200, colour: `#${(i * 997 + 4096).toString(16).slice(-3)}` }),
      ),
    );
    const answers = await Promise.all(
      shops.map((shop, i) => upload(d.admin, `/api/shops/${shop.id}/cover`, multipart(files[i] as Buffer))),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    // two at a time and eight waiting: at most ten of sixteen are taken
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThanOrEqual(6);
    expect(
      statuses.every((status) => status === 200 || status === 503),
      statuses.join(),
    ).toBe(true);
    for (const [i, answer] of answers.entries()) {
      const cover = (await d.row('shops', (shops[i] as { id: string }).id))?.cover_image ?? null;
      if (answer.statusCode === 503) {
        expect(answer.headers['retry-after']).toBeDefined();
        expect(answer.json().error.code).toBe('OVERLOADED');
        expect(cover).toBeNull();
      } else {
        expect(cover).toBe(answer.json().image);
      }
    }
    const taken = statuses.filter((status) => status === 200).length;
    expect(await stored()).toEqual({ images: before.images + taken, variants: before.variants + taken * 6 });
  });
});
