import { createHash, webcrypto } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { IMAGE_MESSAGES } from '../../../shared/errors';
import {
  IMAGE_FORMATS,
  IMAGE_WIDTHS,
  type ImageFormat,
  imageKey,
  MAX_IMAGE_PIXELS,
  MIN_IMAGE_SIDE,
} from '../../../shared/images';
import { HttpError } from '../../errors';

/** One stored variant: "480.webp" and its bytes. */
export interface Variant {
  name: string;
  contentType: string;
  bytes: Buffer;
}

export interface ProcessedImage {
  key: string;
  width: number;
  height: number;
  variants: Variant[];
}

/** The formats a file may arrive in (what libvips calls them); anything else is refused before decoding. */
const ACCEPTED_INPUT = new Set(['jpeg', 'png', 'webp', 'heif', 'avif']);

/**
 * Bumped when the variants change (sizes, formats, quality): a new version gives every upload a new key,
 * so a browser's year-long cached copy is never stale.
 */
const PIPELINE_VERSION = 'v1';

export const CONTENT_TYPES: Record<ImageFormat, string> = { avif: 'image/avif', webp: 'image/webp' };

const refuse = (message: string, code = 'INVALID_IMAGE') => new HttpError(422, code, message);

/**
 * Decodes an uploaded file and writes its variants (docs/decisions/020). Nothing about the file is
 * trusted: its type is what libvips finds in the bytes, its pixel count is checked from the header
 * before any pixel is decoded, the EXIF orientation is applied and then every piece of metadata (EXIF
 * with GPS, XMP, IPTC, ICC profiles beyond sRGB) is left out of the output — sharp writes none unless
 * asked. All of it runs on libuv's thread pool: the event loop only waits. Uploads call it inside an image
 * worker (image-workers.ts), which hashes the file as it arrives and passes `known.hash` (contentHash's
 * value); the demo's pictures call it on the main thread.
 */
export async function processImage(file: Buffer, known: { hash?: string } = {}): Promise<ProcessedImage> {
  const options = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' as const, sequentialRead: true };
  let metadata: Metadata;
  try {
    metadata = await sharp(file, options).metadata();
  } catch (error) {
    throw refuseUnreadable(error);
  }
  if (!metadata.format || !ACCEPTED_INPUT.has(metadata.format)) throw refuse(IMAGE_MESSAGES.notAnImage);
  const { width, height } = metadata;
  if (!width || !height) throw refuse(IMAGE_MESSAGES.unreadable);
  if (width * height > MAX_IMAGE_PIXELS) throw refuse(IMAGE_MESSAGES.tooManyPixels, 'IMAGE_TOO_LARGE');
  if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) throw refuse(IMAGE_MESSAGES.tooSmall);

  // Decoded once, oriented and shrunk to the largest variant (JPEG shrinks while decoding), in sRGB;
  // every variant is made from these pixels.
  let base: { data: Buffer; info: OutputInfo };
  try {
    base = await sharp(file, options)
      .autoOrient()
      .resize({ width: IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1], withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw refuseUnreadable(error, metadata.format === 'heif' && metadata.compression === 'hevc');
  }
  const raw = { raw: { width: base.info.width, height: base.info.height, channels: base.info.channels } };
  const variants = await Promise.all(
    IMAGE_WIDTHS.flatMap((width) =>
      IMAGE_FORMATS.map(async (format): Promise<Variant> => {
        const pipeline = sharp(base.data, raw).resize({ width, withoutEnlargement: true });
        const bytes =
          format === 'avif'
            ? await pipeline.avif({ quality: 55, effort: 2 }).toBuffer()
            : await pipeline.webp({ quality: 78, effort: 3 }).toBuffer();
        return { name: `${width}.${format}`, contentType: CONTENT_TYPES[format], bytes };
      }),
    ),
  );
  const hash = known.hash ?? (await contentHash(file));
  return {
    key: imageKey(hash, base.info.width, base.info.height),
    width: base.info.width,
    height: base.info.height,
    variants,
  };
}

/**
 * SHA-256 of the pipeline's version and the file, base64url. WebCrypto's digest runs on libuv's thread
 * pool: hashing a 10 MB upload with createHash took the event loop 20 ms and more on a busy machine.
 */
export async function contentHash(file: Buffer): Promise<string> {
  const digest = await webcrypto.subtle.digest(
    'SHA-256',
    Buffer.concat([Buffer.from(PIPELINE_VERSION), file]),
  );
  return Buffer.from(digest).toString('base64url');
}

/**
 * contentHash's value, fed piece by piece as an upload arrives — no copy of the file to hash it. For the
 * image worker (image-worker.ts), whose thread may block: no one's request waits on its event loop.
 */
export function contentHasher(): { update(bytes: Uint8Array): void; digest(): string } {
  const hash = createHash('sha256').update(PIPELINE_VERSION);
  return {
    update: (bytes) => {
      hash.update(bytes);
    },
    digest: () => hash.digest('base64url'),
  };
}

function refuseUnreadable(error: unknown, hevc = false): HttpError {
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message)) return refuse(IMAGE_MESSAGES.tooManyPixels, 'IMAGE_TOO_LARGE');
  if (hevc || /heif|hevc|compression format has not been built in/i.test(message))
    return refuse(IMAGE_MESSAGES.heic);
  if (/unsupported image format/i.test(message)) return refuse(IMAGE_MESSAGES.notAnImage);
  return refuse(IMAGE_MESSAGES.unreadable);
}
