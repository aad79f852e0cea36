/**
 * Images as the browser and the server both see them (docs/decisions/020). No zod here: the shopper
 * screens import it.
 *
 * An image is known by its key, "<content hash>-<width>x<height>": the hash (SHA-256 of the uploaded
 * file, base64url) makes the URL immutable, and the dimensions (of the largest variant, after the
 * EXIF orientation) let every `<img>` carry width and height without another query.
 */

/** The largest file an upload may be. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** More pixels than this is refused before decoding (a decompression bomb); a 48-MP phone photo passes. */
export const MAX_IMAGE_PIXELS = 64_000_000;
/** The smallest side accepted: anything less cannot make a readable logo. */
export const MIN_IMAGE_SIDE = 16;
/** The widths every image is stored at (never enlarged: a narrower image keeps its own width). */
export const IMAGE_WIDTHS = [160, 480, 1200] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];
export const IMAGE_FORMATS = ['avif', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
/** What the file picker offers (the server decides by decoding, not by this). */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/avif,image/heic,image/heif';
/** The header an upload must carry: a cross-site form cannot set it (docs/security.md). */
export const UPLOAD_HEADER = 'x-mall-upload';

export const IMAGE_KEY_PATTERN = /^([A-Za-z0-9_-]{43})-([1-9]\d{0,4})x([1-9]\d{0,4})$/;
export const IMAGE_VARIANT_PATTERN = /^(160|480|1200)\.(avif|webp)$/;

export interface ImageRef {
  key: string;
  width: number;
  height: number;
}

/** The key's dimensions; null when it is not a key. */
export function parseImageKey(key: string | null | undefined): ImageRef | null {
  const match = key ? IMAGE_KEY_PATTERN.exec(key) : null;
  if (!match || !key) return null;
  return { key, width: Number(match[2]), height: Number(match[3]) };
}

export function imageKey(hash: string, width: number, height: number): string {
  return `${hash}-${width}x${height}`;
}

export function imageUrl(key: string, width: ImageWidth, format: ImageFormat): string {
  return `/api/images/${key}/${width}.${format}`;
}

/** The width a variant really has: the nominal one, or the image's own when it is narrower. */
export function variantWidth(image: ImageRef, width: ImageWidth): number {
  return Math.min(width, image.width);
}

/** `srcset` for one format: each distinct real width once (a narrow image has fewer). */
export function imageSrcSet(image: ImageRef, format: ImageFormat): string {
  const seen = new Set<number>();
  const parts: string[] = [];
  for (const width of IMAGE_WIDTHS) {
    const real = variantWidth(image, width);
    if (seen.has(real)) continue;
    seen.add(real);
    parts.push(`${imageUrl(image.key, width, format)} ${real}w`);
  }
  return parts.join(', ');
}

/** Up to two initials of a name, for the monogram shown when there is no image. */
export function monogram(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s&'-]/gu, ' ')
    .split(/[\s&-]+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word));
  const letters = words.slice(0, 2).map((word) => Array.from(word.replace(/^'+/, ''))[0] ?? '');
  return letters.join('').toLocaleUpperCase() || '?';
}
