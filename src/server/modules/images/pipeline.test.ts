import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_MESSAGES } from '../../../shared/errors';
import { parseImageKey } from '../../../shared/images';
import { contentHash, processImage } from './pipeline';

/** A JPEG as a phone writes it: landscape pixels, EXIF orientation 6 (turn right), a GPS position. */
async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 200, channels: 3, background: '#c33' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** Does this EXIF block point to a GPS directory (tag 0x8825, in either byte order)? */
function hasGps(exif: Buffer | undefined): boolean {
  return !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));
}

/** A PNG whose header says `width` × `height`: a real 1×1 PNG with its IHDR rewritten (CRC fixed). */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
      .png()
      .toBuffer(),
  );
  // Signature (8), then the IHDR chunk: length (4), "IHDR" (4), width (4), height (4)…, CRC after 13 bytes.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

describe('processImage', () => {
  it('the test photo really carries GPS and an orientation', async () => {
    const metadata = await sharp(await phonePhoto()).metadata();
    expect(metadata.orientation).toBe(6);
    expect(metadata.exif?.toString('latin1')).toContain('PhoneMaker');
    expect(hasGps(metadata.exif)).toBe(true);
  });

  it('applies the EXIF orientation and writes variants with no metadata at all', async () => {
    const image = await processImage(await phonePhoto());
    // Turned: 400×200 stored as 200×400.
    expect(parseImageKey(image.key)).toEqual({ key: image.key, width: 200, height: 400 });
    expect(image.variants.map((variant) => variant.name).sort()).toEqual([
      '1200.avif',
      '1200.webp',
      '160.avif',
      '160.webp',
      '480.avif',
      '480.webp',
    ]);
    for (const variant of image.variants) {
      const metadata = await sharp(variant.bytes).metadata();
      expect(metadata.exif, variant.name).toBeUndefined();
      expect(metadata.xmp, variant.name).toBeUndefined();
      expect(metadata.iptc, variant.name).toBeUndefined();
      expect(metadata.orientation ?? 1, variant.name).toBe(1);
      expect((metadata.height ?? 0) > (metadata.width ?? 0), variant.name).toBe(true);
      expect(metadata.format).toBe(variant.name.endsWith('.avif') ? 'heif' : 'webp');
    }
    const small = image.variants.find((variant) => variant.name === '160.webp');
    expect(small && (await sharp(small.bytes).metadata()).width).toBe(160);
  });

  it("keys a file by SHA-256 of the pipeline's version and its bytes (the keys uploads already have)", async () => {
    const file = Buffer.from('any bytes at all');
    const expected = createHash('sha256').update('v1').update(file).digest('base64url');
    expect(await contentHash(file)).toBe(expected);
  });

  it('gives the same file the same key, and another file another', async () => {
    const photo = await phonePhoto();
    const [a, b] = await Promise.all([processImage(photo), processImage(photo)]);
    expect(a.key).toBe(b.key);
    const other = await sharp(photo).png().toBuffer();
    expect((await processImage(other)).key).not.toBe(a.key);
  });

  it('refuses a file that is not an image', async () => {
    await expect(processImage(Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'))).rejects.toMatchObject({
      statusCode: 422,
      message: IMAGE_MESSAGES.notAnImage,
    });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"/>');
    await expect(processImage(svg)).rejects.toMatchObject({ message: IMAGE_MESSAGES.notAnImage });
  });

  it('refuses a truncated JPEG', async () => {
    const photo = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#39c' } })
      .jpeg()
      .toBuffer();
    await expect(processImage(photo.subarray(0, photo.length / 2))).rejects.toMatchObject({
      statusCode: 422,
      message: IMAGE_MESSAGES.unreadable,
    });
  });

  it('refuses a decompression bomb from its header, before decoding it', async () => {
    // 100 bytes that claim 30,000 × 30,000 pixels (900 megapixels, 2.7 GB decoded).
    const bomb = await pngClaiming(30_000, 30_000);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(30_000);
    await expect(processImage(bomb)).rejects.toMatchObject({
      statusCode: 422,
      code: 'IMAGE_TOO_LARGE',
      message: IMAGE_MESSAGES.tooManyPixels,
    });
  });
});
