// Test images and multipart bodies for the upload routes (modules/images).
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { UPLOAD_HEADER } from '../../shared/images';

/** A small JPEG, different each call unless `colour` is given (a new content hash each time). */
export async function testJpeg(options: { width?: number; height?: number; colour?: string } = {}) {
  const { width = 320, height = 240 } = options;
  const colour = options.colour ?? `#${randomBytes(3).toString('hex')}`;
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

/** A JPEG as a phone writes it: EXIF with the maker and a GPS position. */
export async function gpsJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: '#2a7' } })
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
    .toBuffer();
}

/** A multipart/form-data body with one file part (and `extra` text fields), as a browser's FormData sends it. */
export function multipart(
  bytes: Buffer,
  { field = 'file', filename = 'photo.jpg', type = 'image/jpeg' } = {},
  extra: Record<string, string> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----mall${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(extra)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, [UPLOAD_HEADER]: '1' },
  };
}
